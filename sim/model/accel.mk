# SPDX-License-Identifier: Apache-2.0
# Included by sim/Makefile: the sample accelerator as a LOCAL proxy device.
#
#   accel_top (BAR64=0: QEMU's proxy mis-sizes 64-bit BARs) Verilated as class
#   Vaccel_top with sim/model/accel_model.cpp (nic_model.h API)
#                                         -> $(VACC)/libaccelmodel.a
#   cosimd.c linked against it instead of the NIC -> $(BUILD)/cosimd-accel
#
# cosimd-accel is cosimd with the accelerator in place of the host NIC: use it
# with the topology `single` (the lone "host" node is then the accelerator).
# sim/run picks it for a scenario with the line `# cosimd: cosimd-accel`.
VACC        := $(BUILD)/vaccel
# sources: the accel unit (rtl/accel/accel.f) through mk/rtl-files.sh (sim/Makefile)
RTL_VFLAGS_accel := $(shell $(RTL_FILES) vflags accel)
RTL_DEPS_accel   := $(shell $(RTL_FILES) deps accel)
$(if $(RTL_DEPS_accel),,$(error mk/rtl-files.sh cannot resolve the unit accel in $(RTL)))
VFLAGS_ACC  := --cc -O3 -Wno-fatal -Wno-lint -Wno-style --top-module accel_top \
               --prefix Vaccel_top -GBAR64=0 $(if $(filter 1,$(TRACE)),--trace-fst) \
               -CFLAGS '-I$(ROOT)/hw/include -I$(SIM)/model -DNIC_MODEL_TRACE=$(TRACE)'

$(VACC)/Vaccel_top.mk: $(RTL_DEPS_accel) $(SIM)/model/accel.mk $(SIM)/model/accel_public.vlt
	@mkdir -p $(VACC)
	$(VERILATOR) $(VFLAGS_ACC) -Mdir $(VACC) $(SIM)/model/accel_public.vlt $(RTL_VFLAGS_accel) $(SIM)/model/accel_model.cpp

$(VACC)/tlp.o: $(ROOT)/hw/lib/tlp.c $(ROOT)/hw/include/tlp.h
	@mkdir -p $(VACC)
	$(CC) $(CFLAGS) -c -o $@ $<

$(VACC)/libaccelmodel.a: $(VACC)/Vaccel_top.mk $(VACC)/tlp.o $(SIM)/model/accel_model.cpp \
                         $(SIM)/model/nic_model.cpp $(SIM)/model/nic_model.h $(SIM)/model/vmodel.h \
                         $(SIM)/model/accel_lib.mk
	rm -f $(VACC)/accel_model.o
	$(MAKE) -s -C $(VACC) -f $(SIM)/model/accel_lib.mk EXTRA_OBJS=tlp.o libaccelmodel.a

cosimd-accel: $(BUILD)/cosimd-accel
$(BUILD)/cosimd-accel: $(SIM)/cosim/cosimd.c $(ROOT)/hw/include/extoll_regs.h $(ROOT)/hw/include/tlp.h \
                       $(SIM)/model/nic_model.h $(VACC)/libaccelmodel.a $(WORLD_OBJS) $(NAA_LIBS) \
                       $(SIM)/world/world.h $(BUILD)/world/default_topo.h
	$(CC) $(CFLAGS) -I$(SIM)/world -I$(BUILD)/world -I$(ROOT)/hw/include -o $@ \
	  $(SIM)/cosim/cosimd.c $(WORLD_OBJS) $(NAA_LIBS) $(VACC)/libaccelmodel.a -lstdc++ -lz -lpthread -lm $(PCI_LIBS)
