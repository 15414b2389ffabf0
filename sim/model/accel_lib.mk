# SPDX-License-Identifier: Apache-2.0
# Wrapper around Verilator's generated makefile for accel_top (class prefix
# Vaccel_top): libaccelmodel.a with the Verilated design and accel_model.cpp
# (the `accel` back end of pcie_model.h).  Verilator's runtime objects are NOT
# included: they come from libnicmodel.a (same Verilator, same flags), linked
# into the same binary.  Invoked by sim/model/accel.mk inside the -Mdir.
include Vaccel_top.mk

OPT_FAST = -O3
OPT_SLOW = -O1
OPT_GLOBAL = -O2

libaccelmodel.a: Vaccel_top__ALL.a $(VK_USER_OBJS)
	rm -f $@ && rm -rf $@.x && mkdir $@.x && cd $@.x && $(AR) -x ../Vaccel_top__ALL.a
	$(AR) -rcs $@ $@.x/*.o $(VK_USER_OBJS)
	rm -rf $@.x
