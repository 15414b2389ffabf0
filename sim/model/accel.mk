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
# sources: the accel unit (rtl/accel/accel.f) through mk/rtl-files.sh (sim/Makefile)
RTL_VFLAGS_accel := $(shell $(RTL_FILES) vflags accel)
RTL_DEPS_accel   := $(shell $(RTL_FILES) deps accel)
$(if $(RTL_DEPS_accel),,$(error mk/rtl-files.sh cannot resolve the unit accel in $(RTL)))
VFLAGS_ACC  := --cc -O3 -Wno-fatal -Wno-lint -Wno-style --top-module accel_top \
               --prefix Vaccel_top -GBAR64=0 $(if $(filter 1,$(TRACE)),--trace-fst) \
               -CFLAGS '-I$(ROOT)/hw/include -I$(SIM)/model -DNIC_MODEL_TRACE=$(TRACE)'

$(VACC)/Vaccel_top.mk: $(RTL_DEPS_accel) $(call vflags_file,accel,$(VFLAGS_ACC) $(RTL_VFLAGS_accel))
	@mkdir -p $(VACC)
	$(VERILATOR) $(VFLAGS_ACC) -Mdir $(VACC) $(RTL_VFLAGS_accel) $(SIM)/model/accel_model.cpp

ACCEL_LIBS  := $(VACC)/libaccelmodel.a
$(VACC)/libaccelmodel.a: $(VACC)/Vaccel_top.mk $(SIM)/model/accel_model.cpp \
                         $(SIM)/model/pcie_model.h $(SIM)/model/vmodel.h $(SIM)/model/accel_lib.mk \
                         $(VL_CXX_FILE)
	rm -f $(VACC)/accel_model.o $(call vl_cxx_changed,$(VACC))
	$(MAKE) -s -C $(VACC) -f $(SIM)/model/accel_lib.mk $(VL_MAKE) libaccelmodel.a
