# SPDX-License-Identifier: Apache-2.0
# Included by sim/Makefile: the world of several device models (sim/world/).
#
#   naa_node Verilated as its own class (prefix Vnaa_node) with naa_model.cpp
#   (the `naa` back end of pcie_model.h)                -> $(VNAA)/libnaamodel.a
#   world.c (C11)                                       -> $(BUILD)/world/*.o
#   libextoll's torus.c + topo.c (userspace/lib/, the one torus geometry and
#   topology parser, shared with naactl) and pciaddr.c (PCI addresses, parsed
#   by libpci: link $(PCI_LIBS))                         -> $(BUILD)/world/lib/*.o
#   the default topology embedded in cosimd              -> $(BUILD)/world/default_topo.h
#
# DEFAULT_TOPO: name of the sim/topologies/*.topo embedded as cosimd's default.
VNAA         := $(BUILD)/vnaa
DEFAULT_TOPO ?= direct
VFLAGS_NAA   := $(subst --top-module extoll_nic,--top-module naa_node,$(VFLAGS)) \
                --prefix Vnaa_node -CFLAGS '-I$(SIM)/world'
TOPO_LIB     := $(ROOT)/userspace/lib
CFLAGS       += -I$(TOPO_LIB)
PCI_LIBS     := $(or $(shell pkg-config --libs libpci 2>/dev/null),-lpci)
WORLD_OBJS   := $(BUILD)/world/world.o $(BUILD)/world/lib/torus.o $(BUILD)/world/lib/topo.o \
                $(BUILD)/world/lib/pciaddr.o
NAA_LIBS     := $(VNAA)/libnaamodel.a
# naa_node with the PCI endpoint test function (prefix Vnaa_epf): back end naa-epf,
# cosimd --naa-device epf-test (docs/epf-test.md). NAA_EPF_DEVICE 2: BAR4/BAR5 of 4 KiB
# (default: the driver's BAR test then takes seconds, not half an hour); 1: pci-epf-test's
# 128 KiB / 1 MiB (make -C sim NAA_EPF_DEVICE=1 ..., rebuilds the model).
NAA_EPF_DEVICE ?= 2
VNAAE        := $(BUILD)/vnaa_epf
VFLAGS_NAAE  := $(subst --prefix Vnaa_node,--prefix Vnaa_epf,$(VFLAGS_NAA)) -GDEVICE=$(NAA_EPF_DEVICE)
NAA_LIBS     += $(VNAAE)/libnaaepfmodel.a

# naa_node is in the nic unit (rtl/nic/nic.f)
$(VNAA)/Vnaa_node.mk: $(RTL_DEPS_nic) $(call vflags_file,naa,$(VFLAGS_NAA) $(RTL_VFLAGS_nic))
	@mkdir -p $(VNAA)
	$(VERILATOR) $(VFLAGS_NAA) -Mdir $(VNAA) $(RTL_VFLAGS_nic) $(SIM)/world/naa_model.cpp

$(VNAA)/libnaamodel.a: $(VNAA)/Vnaa_node.mk $(SIM)/world/naa_model.cpp \
                       $(SIM)/model/pcie_model.h $(SIM)/model/vmodel.h $(SIM)/world/naa_lib.mk \
                       $(VL_CXX_FILE)
	rm -f $(VNAA)/naa_model.o $(call vl_cxx_changed,$(VNAA))
	$(MAKE) -s -C $(VNAA) -f $(SIM)/world/naa_lib.mk $(VL_MAKE) libnaamodel.a

# the nic unit and the endpoint test function (unit accel/epf_test, not part of nic)
RTL_VFLAGS_naae := $(shell $(RTL_FILES) vflags nic accel/epf_test)
RTL_DEPS_naae   := $(shell $(RTL_FILES) deps nic accel/epf_test)
$(VNAAE)/Vnaa_epf.mk: $(RTL_DEPS_naae) $(call vflags_file,naa_epf,$(VFLAGS_NAAE) $(RTL_VFLAGS_naae))
	@mkdir -p $(VNAAE)
	$(VERILATOR) $(VFLAGS_NAAE) -Mdir $(VNAAE) $(RTL_VFLAGS_naae) $(SIM)/world/naa_epf_model.cpp

$(VNAAE)/libnaaepfmodel.a: $(VNAAE)/Vnaa_epf.mk $(SIM)/world/naa_model.cpp $(SIM)/world/naa_epf_model.cpp \
                           $(SIM)/model/pcie_model.h $(SIM)/model/vmodel.h $(SIM)/world/naa_lib.mk \
                           $(VL_CXX_FILE)
	rm -f $(VNAAE)/naa_epf_model.o $(call vl_cxx_changed,$(VNAAE))
	$(MAKE) -s -C $(VNAAE) -f $(SIM)/world/naa_lib.mk $(VL_MAKE) NAA_PREFIX=Vnaa_epf NAA_LIB=libnaaepfmodel.a \
	  libnaaepfmodel.a

$(BUILD)/world/default_topo.h: $(SIM)/topologies/$(DEFAULT_TOPO).topo $(SIM)/world/world.mk
	@mkdir -p $(dir $@)
	{ echo '/* generated from sim/topologies/$(DEFAULT_TOPO).topo by sim/world/world.mk */'; \
	  echo 'static const char default_topo_name[] = "$(DEFAULT_TOPO)";'; \
	  echo 'static const char default_topo_text[] ='; \
	  sed 's/\\/\\\\/g; s/"/\\"/g; s/^/\t"/; s/$$/\\n"/' $<; echo ';'; } >$@.tmp && mv $@.tmp $@

$(BUILD)/world/%.o: $(SIM)/world/%.c $(SIM)/world/world.h $(SIM)/world/world_traffic.h \
                    $(TOPO_LIB)/extoll_topo.h $(SIM)/model/pcie_model.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(SIM)/world -c -o $@ $<

$(BUILD)/world/lib/%.o: $(TOPO_LIB)/%.c $(TOPO_LIB)/extoll_topo.h $(TOPO_LIB)/extoll_pci.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags libpci 2>/dev/null) -c -o $@ $<

# world_bench and world_equiv: the world with the fixed traffic pattern of world_traffic.c
$(BUILD)/world_bench: $(SIM)/world/world_bench.c $(WORLD_OBJS) $(BUILD)/world/world_traffic.o $(NAA_LIBS) \
                      $(VOBJ)/libnicmodel.a
	$(CC) $(CFLAGS) -I$(SIM)/world -o $@ $< $(WORLD_OBJS) $(BUILD)/world/world_traffic.o $(NAA_LIBS) \
	  $(MODEL_LIBS)

$(BUILD)/world_equiv: $(SIM)/world/world_equiv.c $(WORLD_OBJS) $(BUILD)/world/world_traffic.o $(NAA_LIBS) \
                      $(VOBJ)/libnicmodel.a
	$(CC) $(CFLAGS) -I$(SIM)/world -o $@ $< $(WORLD_OBJS) $(BUILD)/world/world_traffic.o $(NAA_LIBS) \
	  $(MODEL_LIBS)

# world_mpi: the distributed world (docs/cosim.md "Distributed world (MPI)"), one partition
# per MPI rank; built with Open MPI's mpicc (make deps: openmpi-bin, libopenmpi-dev). The
# world library itself does not use MPI (world_set_distributed takes the transport as a
# callback): cosimd, world_bench and world_equiv do not link it.
MPICC ?= mpicc
$(BUILD)/world_mpi: $(SIM)/world/world_mpi.c $(WORLD_OBJS) $(BUILD)/world/world_traffic.o $(NAA_LIBS) \
                    $(VOBJ)/libnicmodel.a
	@command -v $(MPICC) >/dev/null || { echo "$(MPICC) not found: Open MPI (make deps: openmpi-bin, libopenmpi-dev)" >&2; exit 1; }
	$(MPICC) $(CFLAGS) -I$(SIM)/world -o $@ $< $(WORLD_OBJS) $(BUILD)/world/world_traffic.o $(NAA_LIBS) \
	  $(MODEL_LIBS)
