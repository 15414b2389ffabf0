# SPDX-License-Identifier: Apache-2.0
# Included by sim/Makefile: the sample accelerator as a LOCAL proxy device.
#
#   accel_top (BAR64=0: QEMU's proxy mis-sizes 64-bit BARs) Verilated as class
#   Vaccel_top with sim/model/accel_model.cpp (the `accel` back end of
#   pcie_model.h)                         -> $(VACC)/libaccelmodel.a
#
# Linked into cosimd next to the NIC and the NAA node: `cosimd --device accel`
# serves it to QEMU alone (topology single).  sim/run passes that option for a
# scenario with the line `# device: accel`.
VACC        := $(BUILD)/vaccel
ACCEL_SRCS  := $(addprefix $(RTL)/accel/,accel_pkg.sv accel_fifo.sv accel_devmem.sv accel_cfg.sv \
                 accel_regs.sv accel_target.sv accel_job.sv accel_tx_arb.sv accel_top.sv)
VFLAGS_ACC  := --cc -O3 -Wno-fatal -Wno-lint -Wno-style -I$(RTL)/accel --top-module accel_top \
               --prefix Vaccel_top -GBAR64=0 $(if $(filter 1,$(TRACE)),--trace-fst) \
               -CFLAGS '-I$(ROOT)/hw/include -I$(SIM)/model -DNIC_MODEL_TRACE=$(TRACE)'

$(VACC)/Vaccel_top.mk: $(ACCEL_SRCS) $(RTL)/accel/accel_func.svh $(SIM)/model/accel.mk
	@mkdir -p $(VACC)
	$(VERILATOR) $(VFLAGS_ACC) -Mdir $(VACC) $(ACCEL_SRCS) $(SIM)/model/accel_model.cpp

ACCEL_LIBS  := $(VACC)/libaccelmodel.a
$(VACC)/libaccelmodel.a: $(VACC)/Vaccel_top.mk $(SIM)/model/accel_model.cpp \
                         $(SIM)/model/pcie_model.h $(SIM)/model/vmodel.h $(SIM)/model/accel_lib.mk
	rm -f $(VACC)/accel_model.o
	$(MAKE) -s -C $(VACC) -f $(SIM)/model/accel_lib.mk libaccelmodel.a
