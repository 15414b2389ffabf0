// SPDX-License-Identifier: Apache-2.0
/*
 * cosimd: serves QEMU's multi-process proxy device (x-pci-proxy-dev) from a
 * Verilated PCIe device model.  See docs/cosim.md.
 *
 *   cosimd [options] -- qemu-system-x86_64 [qemu args...]
 *
 * The daemon starts QEMU with the proxy device on a socketpair and answers
 * its messages.  One job per file:
 *   main.c       command line, the world and its host device, the event loop,
 *                --stats
 *   proxy.c      QEMU's protocol and process, the irqfd
 *   guest_ram.c  guest RAM mapped from QEMU's memfd sections
 *   mmio.c       the guest CPU's config and BAR accesses as TLPs
 *   dma.c        the device's TLPs toward the host (DMA, completions)
 *   clock.c      when the world is clocked
 *   trace.c      messages, wall clock, the TLP trace
 *   capture.c    --pcap, --pcap-tlp: the links' packets and the TLPs in pcap files
 *   control.c    fault injection: the guest's control channel (ttyS1), --fault
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
#include "mmio.h"
#include "pcie_model.h"
#include "proxy.h"
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

static struct pcie_model *dev;  /* the host device (node world_host_node(world, 0)) */
static struct world *world;
static pid_t qemu_pid = -1;
static volatile sig_atomic_t got_signal;

/* ---- the device's side, after every cycle ---- */
static bool service(void)
{
	bool any = dma_service();

	mmio_service();
	control_tick();
	if (proxy_set_intx(pcie_model_irq(dev)) && opt.verbose)
		logmsg("intx %s at cycle %" PRIu64, pcie_model_irq(dev) ? "asserted" : "deasserted",
		       pcie_model_cycles(dev));
	return any;
}

/* ---- QEMU's requests ---- */
static void on_sysmem(const struct guest_ram_region *r, int n)
{
	guest_ram_map(r, n, opt.verbose);
}

static void on_reset(void)
{
	if (opt.verbose)
		logmsg("device reset at cycle %" PRIu64, pcie_model_cycles(dev));
	world_reset_host(world, 0, 16);
	mmio_reset();
	check_reset();
	clock_stop();
	proxy_set_intx(pcie_model_irq(dev));
}

static const struct proxy_handlers handlers = {
	.sysmem = on_sysmem,
	.cfg_read = mmio_cfg_read,
	.cfg_write = mmio_cfg_write,
	.bar_read = mmio_bar_read,
	.bar_write = mmio_bar_write,
	.reset = on_reset,
};

/* ---- process handling ---- */
static void on_signal(int sig)
{
	got_signal = sig;
	if (qemu_pid > 0)
		kill(qemu_pid, SIGTERM);
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
	mmio_print_stats(stderr);
	dma_print_stats(stderr);
	proxy_print_stats(stderr);
	fprintf(stderr,
		"cosimd stats: world '%s' (%u nodes): %" PRIu64 " world cycles (host device %"
		PRIu64 " RTL cycles), %" PRIu64 " flits and %" PRIu64 " control words on links%s\n",
		world_topology(world)->name, world_topology(world)->n, world_cycles(world),
		pcie_model_cycles(dev), world_flits(world), world_ctl_words(world),
		world_overrun(world) ? ", NETWORK BUFFER OVERRUN" : "");
	if (world_bit_flips(world))
		fprintf(stderr, "cosimd stats: bit-error rate %g (--ber; link-ber lines: their own): %"
			PRIu64 " bits flipped on links\n", opt.ber, world_bit_flips(world));
	if (control_faults())
		fprintf(stderr, "cosimd stats: %" PRIu64 " faults injected\n", control_faults());
	pcie_model_print_stats(dev, stderr, "cosimd stats: ");
}

/* ---- command line ---- */
static void usage(FILE *f)
{
	fprintf(f,
		"usage: cosimd [options] -- qemu-system-x86_64 [qemu args...]\n"
		"Runs QEMU with a Verilated PCIe device as x-pci-proxy-dev (id nic0).\n"
		"  --device NAME        the device QEMU sees (default %s):\n",
		opt.device->name);
	for (unsigned i = 0; i < NDEVICES; i++)
		fprintf(f, "                         %-6s %s\n", devices[i]->name, devices[i]->desc);
	fprintf(f,
		"  --naa-device NAME    the device below every NAA's root port: accel (default) or\n"
		"                       epf-test (Linux's PCI endpoint test function)\n"
		"  --trace-fst FILE     write an FST waveform of the device (other nodes:\n"
		"                       FILE.nodeN.fst)\n"
		"  --trace-tlp FILE     log every TLP (one line each, with the RTL cycle)\n"
		"  --pcap FILE          capture every link's packets (pcap, link type 147 =\n"
		"                       LINKTYPE_USER0; tools/wireshark/extoll.lua decodes them)\n"
		"  --pcap-tlp FILE      capture the host's TLPs (pcap, link type 148 = USER1)\n"
		"  --cpu N              pin daemon and QEMU to CPU N (default: first allowed\n"
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
		"                       link-down|link-up NODE PORT, kill|revive NODE, ber RATE;\n"
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
		"Exit status: QEMU's (128+signal if it was killed); 3 if QEMU exited 0 but a TLP\n"
		"broke a PCIe rule.\n",
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
	if (optind >= argc) {
		fprintf(stderr, "cosimd: no QEMU command given (cosimd [options] -- qemu-system-x86_64 ...)\n");
		return 2;
	}
	return 0;
}

/* The world and its host device: 0, or the exit status. */
static int build_world(void)
{
	struct extoll_topo topo;
	char err[512];
	int r;

	if (!opt.topology)
		opt.topology = opt.device->links ? "default" : "single";
	if (!strcmp(opt.topology, "default"))
		r = extoll_topo_parse(default_topo_text, default_topo_name, &topo, err, sizeof(err));
	else if (!strcmp(opt.topology, "single"))
		r = extoll_topo_parse("torus 1x1x1\nnode 0 host\n", "single", &topo, err, sizeof(err));
	else
		r = extoll_topo_load(opt.topology, &topo, err, sizeof(err));
	if (r) {
		fprintf(stderr, "cosimd: topology: %s\n", err);
		return 2;
	}
	if (extoll_topo_count(&topo, EXTOLL_TOPO_HOST) != 1) {
		fprintf(stderr, "cosimd: topology %s has %u host nodes: this daemon serves "
			"exactly one QEMU (one host node)\n", topo.name,
			extoll_topo_count(&topo, EXTOLL_TOPO_HOST));
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
	dev = world_host(world, 0);
	world_set_ber(world, opt.ber);
	if (control_init(world, err, sizeof(err))) {
		fprintf(stderr, "cosimd: %s\n", err);
		return 2;
	}
	logmsg("world '%s': torus %ux%ux%u, %u node(s) (%u naa, %u router), link latency %u, "
	       "host device %s = node %u", topo.name, topo.torus.dim[0], topo.torus.dim[1], topo.torus.dim[2], topo.n,
	       extoll_topo_count(&topo, EXTOLL_TOPO_NAA), extoll_topo_count(&topo, EXTOLL_TOPO_ROUTER), topo.latency,
	       opt.device->name, world_host_node(world, 0));
	if (opt.verbose)
		world_describe(world, stderr);
	return 0;
}

int main(int argc, char **argv)
{
	int r, status = 0;

	r = parse_options(argc, argv);
	if (r)
		return r == 1 ? 0 : r;
	if (opt.trace_tlp && tlp_trace_open(opt.trace_tlp)) {
		fprintf(stderr, "cosimd: --trace-tlp %s: %s\n", opt.trace_tlp, strerror(errno));
		return 2;
	}
	r = build_world();
	if (r)
		return r;
	if (capture_open(world, opt.pcap_net, opt.pcap_tlp, world_host_node(world, 0)))
		return 2;
	clock_init(world, dev, opt.linger, service);
	mmio_init(dev, &opt.mmio);
	dma_init(dev);
	check_init();
	if (pin_cpu())
		return 1;

	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* the control channel: the guest's second serial port, fd opt.fd + 1 */
	const char *ctl_args[4];
	if (control_qemu_args(opt.fd + 1, ctl_args))
		return 1;
	qemu_pid = proxy_start(&handlers, opt.fd, argc - optind, argv + optind, ctl_args, 4,
			       control_child);
	if (qemu_pid < 0)
		return 1;

	uint64_t sig_at = 0;
	for (;;) {
		int rfd = proxy_resamplefd(), cfd = control_fd();
		struct pollfd pf[3] = { { proxy_sock(), POLLIN, 0 }, { rfd, POLLIN, 0 },
					{ cfd, POLLIN, 0 } };
		/* a --fault still to come: clock on until its cycle */
		bool run = clock_running() || control_pending();
		int timeout = run ? 0 : -1;

		if (got_signal) {
			if (!sig_at)
				sig_at = now_ns();
			else if (now_ns() - sig_at > 3000000000ull)
				kill(qemu_pid, SIGKILL);
			timeout = run ? 0 : 200;
		}
		int n = poll(pf, 3, timeout);   /* negative fds are ignored */
		if (n < 0 && errno != EINTR) {
			logmsg("poll: %s", strerror(errno));
			break;
		}
		if (n > 0 && (pf[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			if (proxy_handle() < 0)
				break;
		}
		if (n > 0 && rfd >= 0 && (pf[1].revents & POLLIN))
			proxy_resampled();
		if (n > 0 && cfd >= 0 && (pf[2].revents & (POLLIN | POLLHUP | POLLERR)))
			control_handle();
		if (clock_running() || control_pending())
			clock_run(clock_batch());
	}

	/* QEMU closed the socket: collect it */
	proxy_close();
	while (waitpid(qemu_pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got_signal)
		logmsg("terminated by signal %d; QEMU stopped", (int)got_signal);
	if (opt.stats)
		print_stats();
	/* always: sim/run fails a scenario whose TLPs broke a PCIe rule */
	check_print(stderr);
	capture_close(opt.stats);
	world_destroy(world);
	dev = NULL;
	guest_ram_unmap_all();
	tlp_trace_close();
	if (WIFEXITED(status))
		return WEXITSTATUS(status) ? WEXITSTATUS(status) : check_violations() ? 3 : 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
