# SPDX-License-Identifier: Apache-2.0
#
# The C++ compiler of every Verilated model: the co-simulation models (sim/Makefile),
# the testbenches and benches (mk/rtl.mk, mk/tb-link.mk). clang when it is installed
# (make deps installs Debian's clang-14), else g++. Verilator's generated makefiles
# name g++ (CXX, LINK); VL_MAKE overrides both on their command line.
#
# Why clang (docs/benchmarks.md "The compiler of the Verilated models"): the same
# flags, measured on the same machine one after the other, clang-14 against gcc 12:
# the NIC co-simulation model built in 64 s of CPU against about 110 s and ran 17 %
# faster (model_bench 200,000 cycles idle 1.21-1.22 s against 1.45-1.48 s);
# tb_nic_remote built in 43 s of CPU against 65 s and ran in 0.28 s against 0.51 s.
# VL_CXX=g++ on make's command line goes back to gcc.
# Looked up once (a simple variable; exported, so sub-makes do not look again).
ifeq ($(origin VL_CXX),undefined)
VL_CXX := $(or $(shell command -v clang++-14 2>/dev/null),$(shell command -v clang++ 2>/dev/null),g++)
endif
export VL_CXX
# clang leaves Verilator's atomics to libatomic (verilated.o: __atomic_is_lock_free)
VL_LIBS := -latomic
VL_MAKE  = CXX=$(VL_CXX) LINK=$(VL_CXX)
