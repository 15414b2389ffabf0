# SPDX-License-Identifier: Apache-2.0
#
# Links a testbench against the Verilated model another testbench built (mk/rtl.mk,
# TB_MODEL_<tb>): run in that testbench's --Mdir with its Verilator makefile, e.g.
#   make -C build/rtl/tb_nic_remote -f mk/tb-link.mk MODEL_MK=Vtb_nic_remote_top.mk \
#        VM_USER_CLASSES=tb_nic_smfu TB_OUT=build/rtl/tb_nic_smfu/tb_nic_smfu
# The testbench's own .cpp (VM_USER_CLASSES, from VM_USER_DIR) is compiled there with
# the model's flags; the model itself (V<top>__ALL.a, the Verilator runtime) is reused.
include $(MODEL_MK)

$(TB_OUT): $(VK_USER_OBJS) $(VK_GLOBAL_OBJS) $(VM_PREFIX)__ALL.a $(VM_HIER_LIBS)
	$(LINK) $(LDFLAGS) $^ $(LOADLIBES) $(LDLIBS) $(LIBS) $(SC_LIBS) -o $@
.DEFAULT_GOAL := $(TB_OUT)
