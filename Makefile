# SPDX-License-Identifier: Apache-2.0
#
# Top-level targets. After cloning, a newcomer needs only:
#   make demo    boot a Linux guest on the co-simulated NIC and show what it sees
#   make test    run every test (RTL lint/synthesis/block tests, kernel build, co-simulation)
# Both install what is missing first (make deps).

BUILD   := build
STAMP   := $(BUILD)/deps.stamp

.PHONY: all deps gen test soak demo bench rtl kernel userspace sim clean distclean help install install-dkms deb

help:
	@echo "make demo       co-simulated demo: Linux in QEMU drives the NIC RTL in Verilator"
	@echo "make test       all tests, TEST_JOBS at a time (default: the cores); summary 'N passed, M failed'   (TESTS='pat ...' to select)"
	@echo "make soak       long runs too slow for make test (mk/soak.list: 20-round attach race, full pcitest, seeds)"
	@echo "make bench      benchmarks (RTL cycles/s, BAR round trip, boot time, router latency)"
	@echo "make deps       install Debian packages, the guest kernel and the Python venv"
	@echo "make gen        run every generator of hw/ (registers, packets) into the tree"
	@echo "make kernel     build the kernel modules (KDIR=/lib/modules/\$$(uname -r)/build on a real host)"
	@echo "make userspace  build the library and tools"
	@echo "make install    modules (KDIR's kernel), tools, library, headers, udev rule (DESTDIR, PREFIX)"
	@echo "make install-dkms   the DKMS source tree into \$$(DESTDIR)/usr/src/naa-extoll-VERSION"
	@echo "make deb        the Debian packages naa-extoll-dkms and naa-extoll-tools into build/deb/"

all: rtl kernel userspace sim

deps: $(STAMP)
$(STAMP): mk/deps.sh mk/requirements.txt
	./mk/deps.sh

gen: $(STAMP)
	./mk/gen.sh .

test: $(STAMP)
	./mk/run-tests.sh $(if $(TEST_JOBS),-j $(TEST_JOBS)) $(TESTS)

soak: $(STAMP)
	TESTS_LIST=mk/soak.list ./mk/run-tests.sh $(if $(TEST_JOBS),-j $(TEST_JOBS)) $(TESTS)

demo: $(STAMP)
	$(MAKE) -C sim demo

bench: $(STAMP)
	./mk/bench.sh

rtl: $(STAMP)
	$(MAKE) -C rtl lint

kernel: $(STAMP)
	$(MAKE) -C kernel

userspace:
	$(MAKE) -C userspace

sim: $(STAMP)
	$(MAKE) -C sim

# A real host (docs/real-hosts.md): make install [DESTDIR=/stage] [PREFIX=/usr/local]
# [KDIR=/lib/modules/$$(uname -r)/build]. Modules into /lib/modules/KREL/extra.
PREFIX  ?= /usr/local
install:
	$(MAKE) -C kernel install DESTDIR=$(DESTDIR)
	DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) ./mk/install.sh tools

install-dkms:
	./mk/install.sh dkms-src $(DESTDIR)/usr/src/naa-extoll-$$(./mk/install.sh version)

deb:
	./mk/deb.sh

clean:
	-$(MAKE) -C kernel clean
	-$(MAKE) -C userspace clean
	rm -rf $(BUILD)/rtl $(BUILD)/net $(BUILD)/smfu $(BUILD)/rma $(BUILD)/accel $(BUILD)/sim $(BUILD)/gen-check \
	       $(BUILD)/rtl-bench $(BUILD)/net-bench $(BUILD)/smfu-bench $(BUILD)/accel-bench \
	       $(BUILD)/test-logs $(BUILD)/kmod-6.12 $(BUILD)/deb

distclean: clean
	rm -rf $(BUILD)
