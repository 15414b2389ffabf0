# SPDX-License-Identifier: Apache-2.0
# Wrapper around Verilator's generated makefile for naa_node: builds
# libnaamodel.a from the Verilated design (class prefix Vnaa_node) and
# naa_model.cpp.  Verilator's runtime objects are NOT included: they come
# from libnicmodel.a (same Verilator, same flags), linked into the same binary.
include Vnaa_node.mk

OPT_FAST = -O3
OPT_SLOW = -O1
OPT_GLOBAL = -O2

libnaamodel.a: Vnaa_node__ALL.a $(VK_USER_OBJS)
	rm -f $@ && rm -rf $@.x && mkdir $@.x && cd $@.x && $(AR) -x ../Vnaa_node__ALL.a
	$(AR) -rcs $@ $@.x/*.o $(VK_USER_OBJS)
	rm -rf $@.x
