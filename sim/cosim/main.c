// SPDX-License-Identifier: Apache-2.0
/*
 * cosimd: serves QEMU's multi-process proxy device (x-pci-proxy-dev) from a
 * Verilated PCIe device model.  See docs/cosim.md.
 *
 *   cosimd [options] -- qemu-system-x86_64 [qemu args...]
 *
 * The daemon starts one QEMU per host node of the topology, each with the
 * proxy device on its own socketpair (@HOST@ in the QEMU command line becomes
 * the host's index), and answers their messages in one event loop; all hosts
 * live in one lockstep world.  One job per file:
 *   main.c       command line, the world and its hosts, the event loop,
 *                --stats
 *   host.h       one host's state (its QEMU, RAM, access, checker, capture)
 *   proxy.c      QEMU's protocol and process, the irqfd
 *   guest_ram.c  guest RAM mapped from QEMU's memfd sections
 *   mmio.c       the guest CPU's config and BAR accesses as TLPs
 *   dma.c        the device's TLPs toward the host (DMA, completions)
 *   clock.c      when the world is clocked
 *   trace.c      messages, wall clock, the TLP trace
 *   capture.c    --pcap, --pcap-tlp: the links' packets and the TLPs in pcap files
 *   control.c    fault injection: the guest's control channel (ttyS1), --fault
 *   record.c     --record: the world's inputs and the host devices' outputs
 *   replay.c     --replay: a recording rerun on the RTL alone (no QEMU)
 *
 * The device (--device) is a back end of sim/model/pcie_model.h: the host
 * node of a world (sim/world/, sim/topologies/; --topology, default the
 * embedded one) where every node is a Verilated model, the links wired with
 * the topology's latency and all stepped in lockstep.  `--device accel` is the
 * sample accelerator alone (topology single).  The daemon knows no register
 * of the device: TLPs go in, TLPs come out, and the back end tells whether
 * an interrupt is pending and whether the device is busy.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "check.h"
#include "clock.h"
#include "control.h"
#include "default_topo.h"   /* generated: default_topo_name, default_topo_text */
#include "dma.h"
#include "extoll_pci.h"     /* userspace/lib: PCI addresses (libpci) */
#include "guest_ram.h"
#include "host.h"
#include "mmio.h"
#include "pcie_model.h"
#include "proxy.h"
#include "record.h"
#include "trace.h"
#include "world.h"

/* the devices cosimd can serve: back ends with an upstream TLP port */
static const struct pcie_model_backend *const devices[] = {
	&pcie_backend_nic,
	&pcie_backend_accel,
};
#define NDEVICES (sizeof(devices) / sizeof(devices[0]))

static struct {
	const char *trace_fst, *trace_tlp;
	const char *pcap_net, *pcap_tlp;
	const char *record, *replay;  /* --record, --replay FILE */
	const char *topology; /* file, "default" or "single" */
	const struct pcie_model_backend *device;
	const struct pcie_model_backend *naa_device;  /* NULL: naa (the sample accelerator) */
	int cpu;             /* -1: no pinning, -2: first allowed CPU */
	bool stats;
	uint64_t linger;     /* cycles to keep clocking after activity */
	double ber;          /* bit-error rate on every link wire bit (world_set_ber) */
	int fd;              /* fd number for QEMU */
	int verbose;
	struct mmio_config mmio;
} opt = { .cpu = -2, .linger = 256, .fd = 100, .device = &pcie_backend_nic,
	  .mmio = { .bdf = 0x0010, .timeout = 1000000 } };

static struct world *world;
static struct host hosts[COSIM_MAX_HOSTS];
static struct pcie_model *host_devs[COSIM_MAX_HOSTS];
static unsigned nhosts;
static volatile sig_atomic_t got_signal;

_Static_assert(COSIM_MAX_HOSTS <= CONTROL_MAX_HOSTS, "a control channel per host");

/* ---- the devices' side, after every cycle ---- */
static bool service(void)
{
	bool any = false;

	for (unsigned i = 0; i < nhosts; i++) {
		struct host *h = &hosts[i];

		any |= dma_service(h);
		mmio_service(h);
	}
	control_tick();
	for (unsigned i = 0; i < nhosts; i++) {
		struct host *h = &hosts[i];

		record_intx(i, pcie_model_irq(h->dev));
		if (proxy_set_intx(&h->proxy, pcie_model_irq(h->dev)) && opt.verbose)
			hostmsg(h, "intx %s at cycle %" PRIu64,
				pcie_model_irq(h->dev) ? "asserted" : "deasserted",
				pcie_model_cycles(h->dev));
	}
	return any;
}

/* ---- QEMU's requests (ctx: the host) ---- */
static void on_sysmem(void *ctx, const struct guest_ram_region *r, int n)
{
	struct host *h = ctx;

	guest_ram_map(&h->ram, r, n, opt.verbose);
}

static void on_reset(void *ctx)
{
	struct host *h = ctx;

	if (opt.verbose)
		hostmsg(h, "device reset at cycle %" PRIu64, pcie_model_cycles(h->dev));
	record_host_reset(h->index, 16);
	world_reset_host(world, h->index, 16);
	mmio_reset(h);
	check_reset(&h->check);
	clock_stop();
	record_intx(h->index, pcie_model_irq(h->dev));
	proxy_set_intx(&h->proxy, pcie_model_irq(h->dev));
}

static uint64_t on_cfg_read(void *ctx, uint32_t addr, int len)
{
	return mmio_cfg_read(ctx, addr, len);
}

static uint64_t on_cfg_write(void *ctx, uint32_t addr, uint32_t val, int len)
{
	return mmio_cfg_write(ctx, addr, val, len);
}

static uint64_t on_bar_read(void *ctx, uint64_t addr, unsigned size)
{
	return mmio_bar_read(ctx, addr, size);
}

static void on_bar_write(void *ctx, uint64_t addr, uint64_t val, unsigned size)
{
	mmio_bar_write(ctx, addr, val, size);
}

static const struct proxy_handlers handlers = {
	.sysmem = on_sysmem,
	.cfg_read = on_cfg_read,
	.cfg_write = on_cfg_write,
	.bar_read = on_bar_read,
	.bar_write = on_bar_write,
	.reset = on_reset,
};

/* ---- process handling ---- */
static void kill_all(int sig)
{
	for (unsigned i = 0; i < nhosts; i++)
		if (hosts[i].pid > 0 && !hosts[i].gone)
			kill(hosts[i].pid, sig);
}

static void on_signal(int sig)
{
	got_signal = sig;
	kill_all(SIGTERM);
}

static int pin_cpu(void)
{
	cpu_set_t set;
	int cpu = opt.cpu;

	if (cpu == -1)
		return 0;
	if (cpu == -2) {
		if (sched_getaffinity(0, sizeof(set), &set))
			return 0;
		for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
			;
		if (cpu == CPU_SETSIZE)
			return 0;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		logmsg("cannot pin to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	if (opt.verbose)
		logmsg("daemon and QEMU pinned to CPU %d", cpu);
	return 0;
}

static void print_stats(void)
{
	for (unsigned i = 0; i < nhosts; i++) {
		struct host *h = &hosts[i];

		if (nhosts > 1)
			fprintf(stderr, "cosimd stats: --- %s\n", h->label);
		mmio_print_stats(h, stderr);
		dma_print_stats(h, stderr);
		proxy_print_stats(&h->proxy, guest_ram_syncs(&h->ram), stderr);
	}
	if (nhosts > 1)
		fprintf(stderr, "cosimd stats: --- the world\n");
	fprintf(stderr,
		"cosimd stats: world '%s' (%u nodes): %" PRIu64 " world cycles (host device %"
		PRIu64 " RTL cycles), %" PRIu64 " flits and %" PRIu64 " control words on links%s\n",
		world_topology(world)->name, world_topology(world)->n, world_cycles(world),
		pcie_model_cycles(hosts[0].dev), world_flits(world), world_ctl_words(world),
		world_overrun(world) ? ", NETWORK BUFFER OVERRUN" : "");
	if (world_skip_period(world)) {
		struct world_skip_stats sk;

		world_skip_stats(world, &sk);
		fprintf(stderr, "cosimd stats: idle nodes skipped (period %u): %" PRIu64 " sleeps, %"
			PRIu64 " wakes, %" PRIu64 " node cycles not evaluated (%.1f %%)\n",
			world_skip_period(world), sk.sleeps, sk.wakes, sk.skipped,
			world_cycles(world) ? 100.0 * (double)sk.skipped /
					      ((double)world_cycles(world) * world_topology(world)->n) : 0.0);
	}
	if (world_bit_flips(world))
		fprintf(stderr, "cosimd stats: bit-error rate %g (--ber; link-ber lines: their own): %"
			PRIu64 " bits flipped on links\n", opt.ber, world_bit_flips(world));
	if (control_faults())
		fprintf(stderr, "cosimd stats: %" PRIu64 " faults injected\n", control_faults());
	if (control_barriers())
		fprintf(stderr, "cosimd stats: %" PRIu64 " barriers passed by all %u hosts\n",
			control_barriers(), nhosts);
	for (unsigned i = 0; i < nhosts; i++) {
		char pfx[48];

		snprintf(pfx, sizeof(pfx), "cosimd stats: %s%s", nhosts > 1 ? hosts[i].pfx : "",
			 "");
		pcie_model_print_stats(hosts[i].dev, stderr, pfx);
	}
}

/* ---- command line ---- */
static void usage(FILE *f)
{
	fprintf(f,
		"usage: cosimd [options] -- qemu-system-x86_64 [qemu args...]\n"
		"       cosimd --replay FILE [--trace-fst FILE] [--trace-tlp FILE] [-v]\n"
		"Runs QEMU with a Verilated PCIe device as x-pci-proxy-dev (id nic0): one QEMU\n"
		"per host node of the topology (at most %d), each with its own socket, control\n"
		"channel and files; @HOST@ in the QEMU command line becomes the host's index.\n"
		"  --device NAME        the device QEMU sees (default %s):\n",
		COSIM_MAX_HOSTS, opt.device->name);
	for (unsigned i = 0; i < NDEVICES; i++)
		fprintf(f, "                         %-6s %s\n", devices[i]->name, devices[i]->desc);
	fprintf(f,
		"  --naa-device NAME    the device below every NAA's root port: accel (default) or\n"
		"                       epf-test (Linux's PCI endpoint test function)\n"
		"  --trace-fst FILE     write an FST waveform of the device (other nodes:\n"
		"                       FILE.nodeN.fst)\n"
		"  --trace-tlp FILE     log every TLP (one line each, with the RTL cycle; several\n"
		"                       hosts: FILE with .hostK before its extension, each)\n"
		"  --pcap FILE          capture every link's packets (pcap, link type 147 =\n"
		"                       LINKTYPE_USER0; tools/wireshark/extoll.lua decodes them)\n"
		"  --pcap-tlp FILE      capture the host's TLPs (pcap, link type 148 = USER1;\n"
		"                       several hosts: one file each, named as for --trace-tlp)\n"
		"  --record FILE        record what enters the world (TLPs into the host devices,\n"
		"                       fault commands, resets) and what the host devices send,\n"
		"                       with world cycles (docs/cosim.md \"Record and replay\")\n"
		"  --replay FILE        no QEMU: rebuild the recorded world, push the recorded\n"
		"                       inputs at their cycles and compare the host devices' TLPs\n"
		"                       and INTx with the recording (exit 0 same, 1 differs, 2 bad\n"
		"                       file; COSIM_WORLD_SKIP overrides the recorded skip period)\n"
		"  --cpu N              pin daemon and QEMUs to CPU N (default: first allowed\n"
		"                       CPU; -1: no pinning)\n"
		"  --stats              print access counts and round trips at exit\n"
		"  --topology FILE      the world (sim/topologies/*.topo); 'default': the\n"
		"                       embedded %s topology (also without this option),\n"
		"                       'single': the lone host device (torus 1x1x1, the\n"
		"                       default for a device without network links)\n"
		"  --print-topology     print the embedded default topology and exit\n"
		"  --linger CYCLES      keep clocking this long after activity (default %" PRIu64 ")\n"
		"  --ber RATE           flip every bit of every link wire with probability RATE\n"
		"                       (e.g. 1e-4; the link layer repairs it: docs/network.md);\n"
		"                       a topology's link-ber lines set single links\n"
		"  --fault CYCLE:CMD    run a fault command at world cycle CYCLE (repeatable):\n"
		"                       link-down|link-up NODE PORT, kill|revive|reset NODE, ber RATE;\n"
		"                       the guest sends the same on its ttyS1 (docs/cosim.md)\n"
		"  --timeout CYCLES     the host's completion timeout for reads: all-ones from\n"
		"                       cosimd after that (default %" PRIu64 ", above the NIC's own)\n"
		"  --bdf BB:DD.F        the device's guest PCI address (default 00:02.0)\n"
		"  --fd N               descriptor number passed to QEMU (default %d; the\n"
		"                       control channel gets N + 1)\n"
		"  --write-ack MODE     answer BAR writes once the device took the MWr ('accepted',\n"
		"                       default, a few cycles) or before pushing it ('immediate')\n"
		"  -v, --verbose        more log messages (twice: RAM map too)\n"
		"  -h, --help           this text\n"
		"Every TLP of the host link is checked against the PCIe rules (docs/tlp-check.md);\n"
		"violations are logged and summed up at exit (\"cosimd tlp-check: ...\").\n"
		"Exit status: QEMU's (128+signal if it was killed; several: the first that failed,\n"
		"the others are then stopped); 3 if every QEMU exited 0 but a TLP broke a PCIe rule.\n",
		default_topo_name, opt.linger, opt.mmio.timeout, opt.fd);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || !*s || *end || *s == '-' ? -1 : 0;
}

/* 0, 1 (exit 0: help), or 2 (bad usage, message printed) */
static int parse_options(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "device", required_argument, NULL, 'D' },
		{ "naa-device", required_argument, NULL, 'A' },
		{ "trace-fst", required_argument, NULL, 'F' },
		{ "trace-tlp", required_argument, NULL, 'T' },
		{ "pcap", required_argument, NULL, 'N' },
		{ "pcap-tlp", required_argument, NULL, 'L' },
		{ "record", required_argument, NULL, 'R' },
		{ "replay", required_argument, NULL, 'Y' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "stats", no_argument, NULL, 's' },
		{ "topology", required_argument, NULL, 'P' },
		{ "print-topology", no_argument, NULL, 'p' },
		{ "linger", required_argument, NULL, 'l' },
		{ "ber", required_argument, NULL, 'B' },
		{ "fault", required_argument, NULL, 'X' },
		{ "timeout", required_argument, NULL, 't' },
		{ "bdf", required_argument, NULL, 'b' },
		{ "fd", required_argument, NULL, 'f' },
		{ "write-ack", required_argument, NULL, 'W' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "+vh", lo, NULL)) != -1) {
		switch (c) {
		case 'D': {
			unsigned i;
			for (i = 0; i < NDEVICES && strcmp(optarg, devices[i]->name); i++)
				;
			if (i == NDEVICES) {
				fprintf(stderr, "cosimd: --device: no device '%s' (have:", optarg);
				for (i = 0; i < NDEVICES; i++)
					fprintf(stderr, " %s", devices[i]->name);
				fprintf(stderr, ")\n");
				return 2;
			}
			opt.device = devices[i];
			break;
		}
		case 'A':
			if (!strcmp(optarg, "accel")) {
				opt.naa_device = &pcie_backend_naa;
			} else if (!strcmp(optarg, "epf-test")) {
				opt.naa_device = &pcie_backend_naa_epf;
			} else {
				fprintf(stderr, "cosimd: --naa-device: no device '%s' (have: accel epf-test)\n",
					optarg);
				return 2;
			}
			break;
		case 'F':
			opt.trace_fst = optarg;
			break;
		case 'T':
			opt.trace_tlp = optarg;
			break;
		case 'N':
			opt.pcap_net = optarg;
			break;
		case 'L':
			opt.pcap_tlp = optarg;
			break;
		case 'R':
			opt.record = optarg;
			break;
		case 'Y':
			opt.replay = optarg;
			break;
		case 'c': {
			char *end;
			long n = strtol(optarg, &end, 0);
			if (!*optarg || *end || n < -1 || n >= CPU_SETSIZE) {
				fprintf(stderr, "cosimd: --cpu: bad CPU number '%s'\n", optarg);
				return 2;
			}
			opt.cpu = (int)n;
			break;
		}
		case 's':
			opt.stats = true;
			break;
		case 'P':
			opt.topology = optarg;
			break;
		case 'p':
			fputs(default_topo_text, stdout);
			return 1;
		case 'l':
			if (parse_u64(optarg, &opt.linger)) {
				fprintf(stderr, "cosimd: --linger: bad cycle count '%s'\n", optarg);
				return 2;
			}
			break;
		case 'B': {
			char *end;
			opt.ber = strtod(optarg, &end);
			if (!*optarg || *end || !(opt.ber >= 0 && opt.ber < 1)) {
				fprintf(stderr, "cosimd: --ber: bad bit-error rate '%s' (0 <= RATE < 1)\n", optarg);
				return 2;
			}
			break;
		}
		case 'X': {
			char err[160];

			if (control_add_fault(optarg, err, sizeof(err))) {
				fprintf(stderr, "cosimd: %s\n", err);
				return 2;
			}
			break;
		}
		case 't':
			if (parse_u64(optarg, &opt.mmio.timeout) || !opt.mmio.timeout) {
				fprintf(stderr, "cosimd: --timeout: bad cycle count '%s'\n", optarg);
				return 2;
			}
			break;
		case 'b': {
			struct extoll_pci_addr a;   /* libextoll: parsed by libpci */

			if (extoll_pci_addr_parse(optarg, &a) || a.domain >= 0 ||
			    !extoll_pci_addr_full(&a)) {
				fprintf(stderr, "cosimd: --bdf: expected BB:DD.F, got '%s'\n", optarg);
				return 2;
			}
			opt.mmio.bdf = (uint16_t)(a.bus << 8 | a.dev << 3 | a.fn);
			break;
		}
		case 'f':
			if (parse_u64(optarg, &v) || v < 3 || v > 1000) {
				fprintf(stderr, "cosimd: --fd: expected a number 3..1000, got '%s'\n",
					optarg);
				return 2;
			}
			opt.fd = (int)v;
			break;
		case 'W':
			if (!strcmp(optarg, "immediate") || !strcmp(optarg, "accepted")) {
				opt.mmio.write_ack_now = optarg[0] == 'i';
				break;
			}
			fprintf(stderr, "cosimd: --write-ack: 'accepted' or 'immediate', not '%s'\n", optarg);
			return 2;
		case 'v':
			opt.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			fprintf(stderr, "cosimd: try --help\n");
			return 2;
		}
	}
	if (opt.replay) {
		if (optind < argc || opt.record) {
			fprintf(stderr, "cosimd: --replay runs no QEMU (and records nothing)\n");
			return 2;
		}
		return 0;
	}
	if (optind >= argc) {
		fprintf(stderr, "cosimd: no QEMU command given (cosimd [options] -- qemu-system-x86_64 ...)\n");
		return 2;
	}
	return 0;
}

/* a topology file's text (malloc'ed), or NULL */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	buf = malloc(65537);
	if (buf) {
		n = fread(buf, 1, 65536, f);
		buf[n] = 0;
	}
	fclose(f);
	return buf;
}

/* The world and its host device: 0, or the exit status. */
static int build_world(void)
{
	static const char single_topo_text[] = "torus 1x1x1\nnode 0 host\n";
	const char *topo_text = NULL;
	struct extoll_topo topo;
	char err[512];
	int r;

	if (!opt.topology)
		opt.topology = opt.device->links ? "default" : "single";
	if (!strcmp(opt.topology, "default"))
		topo_text = default_topo_text;
	else if (!strcmp(opt.topology, "single"))
		topo_text = single_topo_text;
	if (topo_text)
		r = extoll_topo_parse(topo_text, !strcmp(opt.topology, "single") ? "single" :
				      default_topo_name, &topo, err, sizeof(err));
	else
		r = extoll_topo_load(opt.topology, &topo, err, sizeof(err));
	if (r) {
		fprintf(stderr, "cosimd: topology: %s\n", err);
		return 2;
	}
	nhosts = extoll_topo_count(&topo, EXTOLL_TOPO_HOST);
	if (nhosts < 1 || nhosts > COSIM_MAX_HOSTS) {
		fprintf(stderr, "cosimd: topology %s has %u host nodes: cosimd serves 1 to %d "
			"(one QEMU each)\n", topo.name, nhosts, COSIM_MAX_HOSTS);
		return 2;
	}
	if (nhosts > 1 && !opt.device->links) {
		fprintf(stderr, "cosimd: --device %s has no network links: one host only\n",
			opt.device->name);
		return 2;
	}
	/* the world must stay awake while a credit can still be on a wire */
	if (topo.n > 1 && opt.linger < 4ull * (topo.latency + 1))
		opt.linger = 4ull * (topo.latency + 1);
	world = world_create(&topo, opt.device, opt.naa_device, opt.trace_fst, err, sizeof(err));
	if (!world) {
		fprintf(stderr, "cosimd: %s\n", err);
		return 1;
	}
	for (unsigned i = 0; i < nhosts; i++) {
		struct host *h = &hosts[i];

		h->index = i;
		h->node = world_host_node(world, i);
		h->dev = host_devs[i] = world_host(world, i);
		h->pid = -1;
		snprintf(h->label, sizeof(h->label), "host %u (node %u)", i, h->node);
		if (nhosts > 1)
			snprintf(h->pfx, sizeof(h->pfx), "host %u: ", i);
	}
	world_set_ber(world, opt.ber);
	if (opt.record) {
		const char *text = topo_text;
		struct record_config rc = { .device = opt.device->name,
					    .naa_device = (opt.naa_device ? opt.naa_device : &pcie_backend_naa)->name };
		char *file = NULL;

		if (!text) {
			file = read_text(opt.topology);
			if (!file) {
				fprintf(stderr, "cosimd: --record: cannot read %s again\n", opt.topology);
				return 2;
			}
			text = file;
		}
		rc.topo_text = text;
		r = record_open(opt.record, world, &rc);
		free(file);
		if (r)
			return 2;
		if (opt.ber > 0) {   /* set at cycle 0, as the world is created */
			char cmd[40];

			snprintf(cmd, sizeof(cmd), "ber %.17g", opt.ber);
			record_cmd(cmd);
		}
	}
	if (control_init(world, nhosts, err, sizeof(err))) {
		fprintf(stderr, "cosimd: %s\n", err);
		return 2;
	}
	if (nhosts == 1)
		logmsg("world '%s': torus %ux%ux%u, %u node(s) (%u naa, %u router), link latency %u, "
		       "host device %s = node %u", topo.name, topo.torus.dim[0], topo.torus.dim[1],
		       topo.torus.dim[2], topo.n, extoll_topo_count(&topo, EXTOLL_TOPO_NAA),
		       extoll_topo_count(&topo, EXTOLL_TOPO_ROUTER), topo.latency, opt.device->name,
		       world_host_node(world, 0));
	else
		logmsg("world '%s': torus %ux%ux%u, %u node(s) (%u host, %u naa, %u router), link "
		       "latency %u, host device %s, one QEMU per host", topo.name, topo.torus.dim[0],
		       topo.torus.dim[1], topo.torus.dim[2], topo.n, nhosts,
		       extoll_topo_count(&topo, EXTOLL_TOPO_NAA),
		       extoll_topo_count(&topo, EXTOLL_TOPO_ROUTER), topo.latency, opt.device->name);
	if (opt.verbose)
		world_describe(world, stderr);
	return 0;
}

/* QEMU's command line for host i: @HOST@ replaced by i (the arguments are
 * freed at exit) */
static char **host_argv(int argc, char **argv, unsigned i)
{
	char **a = calloc((size_t)argc + 1, sizeof(char *));

	if (!a)
		return NULL;
	for (int k = 0; k < argc; k++) {
		const char *src = argv[k], *at;
		size_t n = strlen(src) + 16 * 4 + 1;   /* room for a few indices */
		char *d = malloc(n), *o = d;

		if (!d)
			return NULL;
		while ((at = strstr(src, "@HOST@")) && (size_t)(o - d) + (size_t)(at - src) + 12 < n) {
			memcpy(o, src, (size_t)(at - src));
			o += at - src;
			o += sprintf(o, "%u", i);
			src = at + 6;
		}
		snprintf(o, n - (size_t)(o - d), "%s", src);
		a[k] = d;
	}
	return a;
}

/* host h's QEMU closed its socket: collect it */
static void host_gone(struct host *h)
{
	proxy_close(&h->proxy);
	h->gone = true;
	control_host_gone(h->index);
	while (waitpid(h->pid, &h->status, 0) < 0 && errno == EINTR)
		;
	h->pid = -1;
	record_host_exit(h->index, h->status);
	if (nhosts > 1)
		hostmsg(h, "QEMU exited (%s %d) at world cycle %" PRIu64,
			WIFEXITED(h->status) ? "status" : "signal",
			WIFEXITED(h->status) ? WEXITSTATUS(h->status) : WTERMSIG(h->status),
			world_cycles(world));
}

/* exit status of one QEMU, as cosimd's */
static int qemu_rc(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

int main(int argc, char **argv)
{
	int r;
	char path[4096];

	r = parse_options(argc, argv);
	if (r)
		return r == 1 ? 0 : r;
	if (opt.replay)
		return replay_run(opt.replay, opt.trace_fst, opt.trace_tlp, opt.verbose);
	r = build_world();
	if (r)
		return r;
	if (opt.trace_tlp)
		for (unsigned i = 0; i < nhosts; i++) {
			const char *p = host_file(opt.trace_tlp, i, nhosts, path, sizeof(path));

			hosts[i].trace = tlp_trace_open(p);
			if (!hosts[i].trace) {
				fprintf(stderr, "cosimd: --trace-tlp %s: %s\n", p, strerror(errno));
				return 2;
			}
		}
	if (capture_open(world, opt.pcap_net))
		return 2;
	if (opt.pcap_tlp)
		for (unsigned i = 0; i < nhosts; i++) {
			hosts[i].cap = capture_tlp_open(host_file(opt.pcap_tlp, i, nhosts, path, sizeof(path)),
							hosts[i].node);
			if (!hosts[i].cap)
				return 2;
		}
	clock_init(world, host_devs, nhosts, opt.linger, service);
	for (unsigned i = 0; i < nhosts; i++) {
		mmio_init(&hosts[i], &opt.mmio);
		check_init(&hosts[i].check, hosts[i].pfx);
	}
	if (pin_cpu())
		return 1;

	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* one QEMU per host; the control channel: the guest's second serial port, fd opt.fd + 1 */
	for (unsigned i = 0; i < nhosts; i++) {
		struct host *h = &hosts[i];
		const char *ctl_args[4];
		char **qargv = nhosts > 1 ? host_argv(argc - optind, argv + optind, i) : argv + optind;

		if (!qargv || control_qemu_args(i, opt.fd + 1, ctl_args)) {
			kill_all(SIGKILL);
			return 1;
		}
		h->pid = proxy_start(&h->proxy, &handlers, h, h->pfx, opt.fd, argc - optind, qargv,
				     ctl_args, 4, control_child, i);
		if (qargv != argv + optind) {
			for (int k = 0; k < argc - optind; k++)
				free(qargv[k]);
			free(qargv);
		}
		if (h->pid < 0) {
			kill_all(SIGKILL);
			return 1;
		}
		control_fd(i);   /* QEMU has its end: close ours of it */
		if (nhosts > 1)
			hostmsg(h, "QEMU started (pid %d) for node %u", (int)h->pid, h->node);
	}

	uint64_t sig_at = 0;
	unsigned live = nhosts;
	bool failed = false;
	int fail_rc = 0;     /* the exit status of the first QEMU that failed */
	while (live) {
		struct pollfd pf[3 * COSIM_MAX_HOSTS];
		unsigned npf = 0;

		for (unsigned i = 0; i < nhosts; i++) {
			struct host *h = &hosts[i];

			pf[npf++] = (struct pollfd){ h->gone ? -1 : proxy_sock(&h->proxy), POLLIN, 0 };
			pf[npf++] = (struct pollfd){ h->gone ? -1 : proxy_resamplefd(&h->proxy), POLLIN, 0 };
			pf[npf++] = (struct pollfd){ h->gone ? -1 : control_fd(i), POLLIN, 0 };
		}
		/* a --fault still to come: clock on until its cycle */
		bool run = clock_running() || control_pending();
		int timeout = run ? 0 : -1;

		if (got_signal) {
			if (!sig_at)
				sig_at = now_ns();
			else if (now_ns() - sig_at > 3000000000ull)
				kill_all(SIGKILL);
			timeout = run ? 0 : 200;
		}
		int n = poll(pf, npf, timeout);   /* negative fds are ignored */
		if (n < 0 && errno != EINTR) {
			logmsg("poll: %s", strerror(errno));
			break;
		}
		for (unsigned i = 0; n > 0 && i < nhosts; i++) {
			struct host *h = &hosts[i];
			struct pollfd *p = &pf[3 * i];

			if (h->gone)
				continue;
			if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
				if (proxy_handle(&h->proxy) < 0) {
					host_gone(h);
					live--;
					/* a host that failed stops the run: the others are stopped too */
					if (qemu_rc(h->status) && !fail_rc && !got_signal)
						fail_rc = qemu_rc(h->status);
					if (qemu_rc(h->status) && live && !got_signal) {
						logmsg("%s: QEMU failed (exit status %d): stopping the other "
						       "hosts", h->label, qemu_rc(h->status));
						failed = true;
						got_signal = SIGTERM;
						kill_all(SIGTERM);
					}
					continue;
				}
			}
			if (p[1].fd >= 0 && (p[1].revents & POLLIN))
				proxy_resampled(&h->proxy);
			if (p[2].fd >= 0 && (p[2].revents & (POLLIN | POLLHUP | POLLERR)))
				control_handle(i);
		}
		if (clock_running() || control_pending())
			clock_run(clock_batch());
	}

	/* every QEMU has gone (or poll failed: stop and collect the rest) */
	kill_all(SIGKILL);
	for (unsigned i = 0; i < nhosts; i++)
		if (!hosts[i].gone)
			host_gone(&hosts[i]);
	if (got_signal && !failed)
		logmsg("terminated by signal %d; QEMU stopped", (int)got_signal);
	if (opt.stats)
		print_stats();
	/* always: sim/run fails a scenario whose TLPs broke a PCIe rule */
	uint64_t viol = 0, tlps = 0;
	for (unsigned i = 0; i < nhosts; i++) {
		struct host *h = &hosts[i];

		check_print(&h->check, stderr, nhosts > 1 ? h->label : NULL);
		viol += check_violations(&h->check);
		tlps += check_tlps(&h->check);
		capture_tlp_close(h->cap, opt.stats, nhosts > 1 ? h->label : NULL);
		tlp_trace_close(h->trace);
		guest_ram_unmap_all(&h->ram);
	}
	if (nhosts > 1)   /* the total, last: what sim/run reads */
		fprintf(stderr, "cosimd tlp-check: %" PRIu64 " TLPs checked, %" PRIu64
			" violations\n", tlps, viol);
	capture_close(opt.stats);
	if (record_close() && !viol)
		viol = 1;   /* exit 3: the recording is incomplete */
	world_destroy(world);
	/* the first host whose QEMU failed gives the status (the others were stopped) */
	if (fail_rc)
		return fail_rc;
	for (unsigned i = 0; i < nhosts; i++)
		if (qemu_rc(hosts[i].status))
			return qemu_rc(hosts[i].status);
	return viol ? 3 : 0;
}
