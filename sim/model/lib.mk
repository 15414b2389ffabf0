# SPDX-License-Identifier: Apache-2.0
# Wrapper around Verilator's generated makefile: builds libnicmodel.a from the
# Verilated design, Verilator's runtime objects and nic_model.cpp (passed to
# verilator as a user file).  Invoked by sim/Makefile inside the -Mdir.
include Vextoll_nic.mk

OPT_FAST = -O3
OPT_SLOW = -O1
OPT_GLOBAL = -O2

libnicmodel.a: Vextoll_nic__ALL.a $(VK_USER_OBJS) $(VK_GLOBAL_OBJS) $(EXTRA_OBJS)
	rm -f $@ && rm -rf $@.x && mkdir $@.x && cd $@.x && $(AR) -x ../Vextoll_nic__ALL.a
	$(AR) -rcs $@ $@.x/*.o $(VK_USER_OBJS) $(VK_GLOBAL_OBJS) $(EXTRA_OBJS)
	rm -rf $@.x
