# SPDX-License-Identifier: Apache-2.0
# Wrapper around Verilator's generated makefile for naa_node: builds
# libnaamodel.a from the Verilated design (class prefix Vnaa_node) and
# naa_model.cpp (or, with NAA_PREFIX/NAA_LIB set, another build of naa_node:
# Vnaa_epf, libnaaepfmodel.a).  Verilator's runtime objects are NOT included: they come
# from libnicmodel.a (same Verilator, same flags), linked into the same binary.
NAA_PREFIX ?= Vnaa_node
NAA_LIB    ?= libnaamodel.a
include $(NAA_PREFIX).mk

OPT_FAST = -O3
OPT_SLOW = -O1
OPT_GLOBAL = -O2

$(NAA_LIB): $(NAA_PREFIX)__ALL.a $(VK_USER_OBJS)
	rm -f $@ && rm -rf $@.x && mkdir $@.x && cd $@.x && $(AR) -x ../$(NAA_PREFIX)__ALL.a
	$(AR) -rcs $@ $@.x/*.o $(VK_USER_OBJS)
	rm -rf $@.x
