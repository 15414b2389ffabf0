# SPDX-License-Identifier: Apache-2.0
# Included by sim/Makefile: the world of several device models (sim/world/).
#
#   naa_node Verilated as its own class (prefix Vnaa_node) with naa_model.cpp
#   (the `naa` back end of pcie_model.h)                -> $(VNAA)/libnaamodel.a
#   world.c + topology.c (C11)                          -> $(BUILD)/world/*.o
#   the default topology embedded in cosimd              -> $(BUILD)/world/default_topo.h
#
# DEFAULT_TOPO: name of the sim/topologies/*.topo embedded as cosimd's default.
VNAA         := $(BUILD)/vnaa
DEFAULT_TOPO ?= direct
NAA_TOP      := $(RTL)/nic/naa_node.sv
VFLAGS_NAA   := $(subst --top-module extoll_nic,--top-module naa_node,$(VFLAGS)) \
                --prefix Vnaa_node -CFLAGS '-I$(SIM)/world'
WORLD_OBJS   := $(BUILD)/world/world.o $(BUILD)/world/topology.o
NAA_LIBS     := $(VNAA)/libnaamodel.a

$(VNAA)/Vnaa_node.mk: $(RTL_ALL) $(SIM)/Makefile
	@mkdir -p $(VNAA)
	$(VERILATOR) $(VFLAGS_NAA) -Mdir $(VNAA) $(RTL_PKGS) $(NAA_TOP) \
	  $(addprefix -y ,$(RTL_YDIRS)) $(SIM)/world/naa_model.cpp

$(VNAA)/libnaamodel.a: $(VNAA)/Vnaa_node.mk $(SIM)/world/naa_model.cpp \
                       $(SIM)/model/pcie_model.h $(SIM)/model/vmodel.h $(SIM)/world/naa_lib.mk
	rm -f $(VNAA)/naa_model.o
	$(MAKE) -s -C $(VNAA) -f $(SIM)/world/naa_lib.mk libnaamodel.a

$(BUILD)/world/default_topo.h: $(SIM)/topologies/$(DEFAULT_TOPO).topo $(SIM)/world/world.mk
	@mkdir -p $(dir $@)
	{ echo '/* generated from sim/topologies/$(DEFAULT_TOPO).topo by sim/world/world.mk */'; \
	  echo 'static const char default_topo_name[] = "$(DEFAULT_TOPO)";'; \
	  echo 'static const char default_topo_text[] ='; \
	  sed 's/\\/\\\\/g; s/"/\\"/g; s/^/\t"/; s/$$/\\n"/' $<; echo ';'; } >$@.tmp && mv $@.tmp $@

$(BUILD)/world/%.o: $(SIM)/world/%.c $(SIM)/world/world.h $(SIM)/world/topology.h \
                    $(SIM)/model/pcie_model.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(SIM)/world -c -o $@ $<

$(BUILD)/world_bench: $(SIM)/world/world_bench.c $(WORLD_OBJS) $(NAA_LIBS) $(VOBJ)/libnicmodel.a
	$(CC) $(CFLAGS) -I$(SIM)/world -o $@ $< $(WORLD_OBJS) $(NAA_LIBS) $(MODEL_LIBS)
