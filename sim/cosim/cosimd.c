// SPDX-License-Identifier: Apache-2.0
/*
 * cosimd: serves QEMU's multi-process proxy device (x-pci-proxy-dev) from the
 * Verilated NIC.  See docs/cosim.md.
 *
 *   cosimd [options] -- qemu-system-x86_64 [qemu args...]
 *
 * The daemon creates a socketpair, forks and execs QEMU with
 * `-device x-pci-proxy-dev,id=nic0,fd=N` appended, and then answers QEMU's
 * messages:
 *   - config reads/writes  -> CfgRd0/CfgWr0 TLPs; the answer is the RTL's
 *     completion (byte enables built from offset and length, data shifted);
 *   - BAR reads            -> MRd with the absolute guest-physical address,
 *     answered from the CplD (all-ones on UR, CA or timeout);
 *   - BAR writes           -> MWr, answered at once (posted);
 *   - the NIC's own MWr/MRd -> guest RAM through the SYNC_SYSMEM mappings
 *     (MRd answered with CplD split at 64-byte boundaries, UR if unmapped);
 *   - intx                 -> irqfd (re-asserted on resample while high);
 *   - DEVICE_RESET         -> RTL reset.
 * Clock policy: the RTL is clocked while a TLP is in flight, while the NIC
 * has output, and for --linger cycles after the last activity; then the
 * clock stops and the daemon sleeps in poll() until QEMU sends something.
 * So RTL cycle counts measure activity, not wall time.
 *
 * World: the NIC is one node of a topology (sim/world/, sim/topologies/;
 * --topology, default the embedded one): every node a Verilated model, the
 * links wired with the topology's latency, all stepped in lockstep with the
 * host NIC.  Activity includes any flit or credit on a wire, so the world
 * stops only when it has been quiet (no TLP, no link traffic, no credit in
 * flight) for --linger cycles.  `--topology single` is the lone NIC.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nic_model.h"
#include "tlp.h"
#include "world.h"
#include "default_topo.h"   /* generated: default_topo_name, default_topo_text */
#include "extoll_pci.h"     /* userspace/lib: PCI addresses (libpci) */
#include "extoll_regs.h"    /* hw/include, generated from the RDL: rra.req offset */

/* ---- QEMU 7.2 multi-process protocol (hw/remote/mpqemu-link.h) ---- */
enum {
	MPQEMU_CMD_SYNC_SYSMEM = 0,
	MPQEMU_CMD_RET = 1,
	MPQEMU_CMD_PCI_CFGWRITE = 2,
	MPQEMU_CMD_PCI_CFGREAD = 3,
	MPQEMU_CMD_BAR_WRITE = 4,
	MPQEMU_CMD_BAR_READ = 5,
	MPQEMU_CMD_SET_IRQFD = 6,
	MPQEMU_CMD_DEVICE_RESET = 7,
};
#define REMOTE_MAX_FDS 8

struct mp_hdr {
	int32_t cmd;
	uint32_t pad;
	uint64_t size;
};

struct mp_conf {
	uint32_t addr;
	uint32_t val;
	int32_t len;
};

struct mp_bar {
	uint64_t addr;
	uint64_t val;
	uint32_t size;
	bool memory;
};

struct mp_sysmem {
	uint64_t gpa[REMOTE_MAX_FDS];
	uint64_t size[REMOTE_MAX_FDS];
	int64_t offset[REMOTE_MAX_FDS];
};

_Static_assert(sizeof(struct mp_hdr) == 16, "header layout");
_Static_assert(sizeof(struct mp_conf) == 12, "conf layout");
_Static_assert(sizeof(struct mp_bar) == 24, "bar layout");
_Static_assert(sizeof(struct mp_sysmem) == 192, "sysmem layout");

/* ---- options ---- */
static struct {
	const char *trace_fst, *trace_tlp;
	const char *topology; /* file, "default" or "single" */
	int cpu;             /* -1: no pinning, -2: first allowed CPU */
	bool stats;
	uint64_t linger;     /* cycles to keep clocking after activity */
	uint64_t timeout;    /* cycles to wait for a completion */
	uint16_t bdf;        /* the NIC's bus/device/function in the guest */
	int fd;              /* fd number for QEMU */
	int verbose;
	bool write_ack_now;  /* --write-ack immediate */
} opt = { .cpu = -2, .linger = 256, .timeout = 100000, .bdf = 0x0010, .fd = 100 };

/* ---- state ---- */
struct region {
	uint64_t gpa, size;
	uint8_t *ptr;
	int fd;
};

static struct nic_model *nic;   /* the host NIC (node world_host_node(world, 0)) */
static struct world *world;
static uint32_t bar0_base;      /* BAR0 as last written by the guest (32-bit BAR) */
static int sock = -1;
static pid_t qemu_pid = -1;
static struct region ram[REMOTE_MAX_FDS];
static int nram;
static int irqfd = -1, resamplefd = -1;
static bool intx_level;
static uint8_t next_tag;
static uint64_t linger_left;
static FILE *tlp_trace;
static volatile sig_atomic_t got_signal;
static bool tcg_guess = true;

/* the one outstanding host request (the guest CPU blocks on it) */
static struct {
	bool waiting, done;
	uint8_t tag;
	struct tlp cpl;
} req;

/* posted writes waiting to be accepted by the NIC, for --stats */
#define WR_RING 64
static struct {
	uint64_t seq, cycle;
} wr_ring[WR_RING];
static unsigned wr_head, wr_tail;

static struct {
	uint64_t cfg_rd, cfg_wr, bar_rd, bar_wr, bar_other;
	uint64_t rd_cycles, rd_ns, wr_ns, wr_cycles, wr_accepted;
	uint64_t rd_timeout, rd_err, cfg_timeout, cfg_err;
	uint64_t dma_wr, dma_wr_bytes, dma_rd, dma_rd_bytes, dma_ur, dma_drop;
	uint64_t syncs, resets, irq_asserts, unexpected_cpl;
	uint64_t rra_req[8];    /* guest writes of rra.req by op (2 = config tunnel) */
} st;

static void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logmsg(const char *fmt, ...)
{
	va_list ap;

	fputs("cosimd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ---- TLP trace ---- */
static void trace_tlp(const char *dir, const struct tlp *t)
{
	char buf[256];

	if (!tlp_trace)
		return;
	tlp_format(t, buf, sizeof(buf));
	fprintf(tlp_trace, "%" PRIu64 " %s %s", nic_model_cycles(nic), dir, buf);
	if (t->payload_dw) {
		fputs(" data=", tlp_trace);
		for (unsigned i = 0; i < t->payload_dw && i < 4; i++)
			fprintf(tlp_trace, "%s%08x", i ? "," : "", t->payload[i]);
		if (t->payload_dw > 4)
			fputs(",...", tlp_trace);
	}
	fputc('\n', tlp_trace);
}

static void push(const struct tlp *t)
{
	trace_tlp("host->nic", t);
	if (nic_model_push_tlp(nic, t))
		logmsg("internal error: cannot push TLP");
}

/* ---- guest RAM ---- */
static void ram_unmap_all(void)
{
	for (int i = 0; i < nram; i++) {
		if (ram[i].ptr)
			munmap(ram[i].ptr, ram[i].size);
		if (ram[i].fd >= 0)
			close(ram[i].fd);
	}
	nram = 0;
}

/* Copy between guest RAM and buf; returns 0, or -1 if any byte is unmapped
 * (nothing is copied then). */
static int ram_access(uint64_t gpa, void *buf, uint64_t len, bool write)
{
	for (int pass = 0; pass < 2; pass++) {
		uint64_t a = gpa, left = len;
		uint8_t *b = buf;

		while (left) {
			int i;

			for (i = 0; i < nram; i++)
				if (a >= ram[i].gpa && a - ram[i].gpa < ram[i].size)
					break;
			if (i == nram)
				return -1;
			uint64_t n = ram[i].size - (a - ram[i].gpa);
			if (n > left)
				n = left;
			if (pass) {
				uint8_t *p = ram[i].ptr + (a - ram[i].gpa);
				if (write)
					memcpy(p, b, n);
				else
					memcpy(b, p, n);
			}
			a += n;
			b += n;
			left -= n;
		}
	}
	return 0;
}

/* ---- TLPs from the NIC ---- */
static uint8_t be_of(const struct tlp *t, unsigned i)
{
	if (t->len_dw == 1)
		return t->first_be;
	return i == 0 ? t->first_be : i == t->len_dw - 1 ? t->last_be : 0xf;
}

static void nic_mwr(const struct tlp *t)
{
	unsigned n = t->payload_dw < t->len_dw ? t->payload_dw : t->len_dw;

	if (t->payload_dw != t->len_dw)
		logmsg("MWr addr 0x%" PRIx64 ": length %u but %u payload dwords", t->addr,
		       t->len_dw, t->payload_dw);
	st.dma_wr++;
	for (unsigned i = 0; i < n; i++) {
		uint8_t be = be_of(t, i);
		uint8_t bytes[4];

		memcpy(bytes, &t->payload[i], 4);
		for (unsigned k = 0; k < 4; k++) {
			if (!(be & (1u << k)))
				continue;
			if (ram_access(t->addr + 4 * i + k, &bytes[k], 1, true)) {
				if (st.dma_drop++ < 10)
					logmsg("MWr to unmapped guest address 0x%" PRIx64 " dropped",
					       t->addr + 4 * i + k);
				return;
			}
			st.dma_wr_bytes++;
		}
	}
}

static void nic_mrd(const struct tlp *t)
{
	unsigned first = t->first_be ? (unsigned)__builtin_ctz(t->first_be) : 0;
	uint64_t start = t->addr + first, end;
	struct tlp c;

	if (t->len_dw == 1)
		end = t->addr + (t->first_be ? 32 - __builtin_clz(t->first_be) : 1);
	else
		end = t->addr + 4ull * (t->len_dw - 1) +
		      (t->last_be ? 32 - __builtin_clz(t->last_be) : 4);
	st.dma_rd++;
	{
		static uint8_t probe[4096 + 8];
		if (t->len_dw * 4 > sizeof(probe) ||
		    ram_access(t->addr, probe, 4ull * t->len_dw, false)) {
			if (st.dma_ur++ < 10)
				logmsg("MRd from unmapped guest address 0x%" PRIx64 " len %u: UR",
				       t->addr, t->len_dw);
			tlp_cpl(&c, 0x0000, TLP_CPL_UR, t->requester_id, t->tag,
				(uint8_t)start, 0, NULL, 0);
			c.byte_count = 4 * t->len_dw;
			push(&c);
			return;
		}
	}
	/* completions end at 64-byte (RCB) boundaries */
	uint64_t a = t->addr, stop = t->addr + 4ull * t->len_dw;
	bool firstc = true;
	while (a < stop) {
		uint64_t next = (a | 63) + 1;
		if (next > stop)
			next = stop;
		unsigned ndw = (unsigned)((next - a) / 4);
		uint32_t data[16];
		uint64_t from = firstc ? start : a;

		ram_access(a, data, 4ull * ndw, false);
		tlp_cpl(&c, 0x0000, TLP_CPL_SC, t->requester_id, t->tag, (uint8_t)from,
			(uint16_t)(end - from), data, ndw);
		push(&c);
		st.dma_rd_bytes += 4ull * ndw;
		a = next;
		firstc = false;
	}
}

static void nic_cpl(const struct tlp *t)
{
	if (req.waiting && !req.done && t->tag == req.tag) {
		req.cpl = *t;
		req.done = true;
		return;
	}
	if (st.unexpected_cpl++ < 10)
		logmsg("unexpected completion (tag %u, status %u) dropped", t->tag, t->status);
}

static void set_intx(bool level)
{
	static bool noted;
	uint64_t one = 1;

	if (level == intx_level)
		return;
	intx_level = level;
	if (opt.verbose)
		logmsg("intx %s at cycle %" PRIu64, level ? "asserted" : "deasserted",
		       nic_model_cycles(nic));
	if (!level)
		return;
	st.irq_asserts++;
	if (!noted) {
		noted = true;
		logmsg("intx asserted%s (note: under TCG QEMU cannot deliver the proxy's INTx: "
		       "the irqfd needs KVM's in-kernel irqchip, so the guest sees no interrupt)",
		       irqfd < 0 ? " before QEMU sent an irqfd" : "");
	}
	if (irqfd >= 0 && write(irqfd, &one, sizeof(one)) < 0)
		logmsg("irqfd write: %s", strerror(errno));
}

/* Handle everything the NIC has sent; returns true if there was anything. */
static bool service_nic(void)
{
	bool any = false;
	struct tlp t;
	uint32_t raw[4];
	int r;

	while ((r = nic_model_pop_tlp(nic, &t, raw)) != 0) {
		any = true;
		if (r < 0) {
			logmsg("malformed TLP from the NIC: %08x %08x %08x %08x", raw[0], raw[1],
			       raw[2], raw[3]);
			continue;
		}
		trace_tlp("nic->host", &t);
		switch (t.kind) {
		case TLP_MWR:
			nic_mwr(&t);
			break;
		case TLP_MRD:
			nic_mrd(&t);
			break;
		case TLP_CPL:
		case TLP_CPLD:
			nic_cpl(&t);
			break;
		default: {
			char buf[128];
			tlp_format(&t, buf, sizeof(buf));
			logmsg("TLP from the NIC not handled by the host: %s", buf);
		}
		}
	}
	while (wr_tail != wr_head && nic_model_tlps_in(nic) >= wr_ring[wr_tail % WR_RING].seq) {
		st.wr_cycles += nic_model_cycles(nic) - wr_ring[wr_tail % WR_RING].cycle;
		st.wr_accepted++;
		wr_tail++;
	}
	set_intx(nic_model_intx(nic));
	return any;
}

/* Clock the NIC n cycles, serving its output; keeps linger_left up to date. */
static void run_cycles(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		bool net = world_step(world);
		bool any = service_nic();
		if (any || net || !nic_model_idle(nic))
			linger_left = opt.linger;
		else if (linger_left)
			linger_left--;
	}
}

static bool rtl_busy(void)
{
	return linger_left || !nic_model_idle(nic) || nic_model_pending_out(nic);
}

/* Issue a non-posted request and clock until its completion.  Returns 0 with
 * *c filled, or -1 on timeout. */
static int request(const struct tlp *t, struct tlp *c, uint64_t *cycles)
{
	uint64_t c0 = nic_model_cycles(nic);

	req.waiting = true;
	req.done = false;
	req.tag = t->tag;
	push(t);
	linger_left = opt.linger;
	while (!req.done && nic_model_cycles(nic) - c0 < opt.timeout)
		run_cycles(1);
	req.waiting = false;
	*cycles = nic_model_cycles(nic) - c0;
	if (!req.done)
		return -1;
	*c = req.cpl;
	return 0;
}

/* ---- QEMU messages ---- */
static int send_ret(uint64_t val)
{
	struct {
		struct mp_hdr h;
		uint64_t v;
	} m = { { MPQEMU_CMD_RET, 0, sizeof(uint64_t) }, val };
	const char *p = (const char *)&m;
	size_t left = sizeof(m);

	while (left) {
		ssize_t n = send(sock, p, left, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			logmsg("send to QEMU: %s", n < 0 ? strerror(errno) : "closed");
			return -1;
		}
		p += n;
		left -= n;
	}
	return 0;
}

static uint64_t ones(unsigned size)
{
	return size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
}

static uint32_t cfg_dword(bool write, unsigned reg, uint8_t be, uint32_t data, bool *ok)
{
	struct tlp t, c;
	uint64_t cyc;

	tlp_cfg(&t, write, 0, opt.bdf, (uint16_t)reg, be, data, 0x0000, next_tag++);
	if (request(&t, &c, &cyc)) {
		if (st.cfg_timeout++ < 10)
			logmsg("config %s reg 0x%03x: no completion after %" PRIu64
			       " cycles, answering all-ones", write ? "write" : "read", reg, cyc);
		*ok = false;
		return ~0u;
	}
	if (c.status != TLP_CPL_SC || (!write && c.payload_dw < 1)) {
		if (st.cfg_err++ < 10)
			logmsg("config %s reg 0x%03x: completion status %u%s", write ? "write" : "read",
			       reg, c.status, c.status == TLP_CPL_SC ? " without data" : "");
		*ok = false;
		return ~0u;
	}
	*ok = true;
	return write ? 0 : c.payload[0];
}

static uint64_t cfg_access(bool write, uint32_t addr, uint32_t val, int len)
{
	uint64_t result = 0;
	bool all_ok = true;

	if (len < 1 || len > 4) {
		logmsg("config access with length %d ignored", len);
		return write ? ~0ull : ones(4);
	}
	write ? st.cfg_wr++ : st.cfg_rd++;
	if (write && addr == 0x10 && len == 4 && val != ~0u)
		bar0_base = val & ~0xfu;
	/* split at dword boundaries (QEMU normally sends aligned accesses) */
	for (int done = 0; done < len;) {
		unsigned a = addr + done, off = a & 3;
		int n = 4 - (int)off < len - done ? 4 - (int)off : len - done;
		uint8_t be = (uint8_t)(((1u << n) - 1) << off);
		uint32_t part = (uint32_t)((uint64_t)val >> (8 * done)) & (uint32_t)ones(n);
		bool ok;
		uint32_t d = cfg_dword(write, a & ~3u, be, part << (8 * off), &ok);

		all_ok &= ok;
		if (!write)
			result |= (uint64_t)((d >> (8 * off)) & ones(n)) << (8 * done);
		done += n;
	}
	if (write)
		return all_ok ? 0 : ~0ull;
	return result;
}

static void bar_bytes(uint64_t addr, unsigned size, uint64_t *dw_addr, unsigned *len,
		      uint8_t *fbe, uint8_t *lbe)
{
	tlp_access_bes(addr, size, dw_addr, len, fbe, lbe);
}

static uint64_t bar_read(uint64_t addr, unsigned size)
{
	uint64_t dw, cyc, t0 = now_ns();
	unsigned len;
	uint8_t fbe, lbe;
	struct tlp t, c;
	uint64_t v = 0;

	st.bar_rd++;
	bar_bytes(addr, size, &dw, &len, &fbe, &lbe);
	tlp_mrd(&t, dw, len, fbe, lbe, 0x0000, next_tag++);
	if (request(&t, &c, &cyc)) {
		if (st.rd_timeout++ < 10)
			logmsg("BAR read 0x%" PRIx64 "/%u: no completion after %" PRIu64
			       " cycles, answering all-ones", addr, size, cyc);
		v = ones(size);
	} else if (c.status != TLP_CPL_SC || c.payload_dw * 4 < (addr & 3) + size) {
		if (st.rd_err++ < 10)
			logmsg("BAR read 0x%" PRIx64 "/%u: completion status %u, %u dwords: "
			       "answering all-ones", addr, size, c.status, c.payload_dw);
		v = ones(size);
	} else {
		uint8_t bytes[4 * TLP_MAX_PAYLOAD_DW];

		memcpy(bytes, c.payload, 4 * c.payload_dw);
		memcpy(&v, bytes + (addr & 3), size);
	}
	st.rd_cycles += cyc;
	st.rd_ns += now_ns() - t0;
	return v;
}

static void bar_write(uint64_t addr, uint64_t val, unsigned size)
{
	uint64_t dw;
	unsigned len;
	uint8_t fbe, lbe, bytes[12] = { 0 };
	uint32_t data[3];
	struct tlp t;

	st.bar_wr++;
	/* count remote accesses by op: rra.req (one 64-bit store) */
	if (size == 8 && bar0_base && addr == (uint64_t)bar0_base + EXTOLL_RRA_BASE + EXTOLL_RRA_REQ)
		st.rra_req[(val >> 40) & 7]++;
	bar_bytes(addr, size, &dw, &len, &fbe, &lbe);
	memcpy(bytes + (addr & 3), &val, size);
	memcpy(data, bytes, sizeof(data));
	tlp_mwr(&t, dw, data, len, fbe, lbe, 0x0000);
	push(&t);
	if (wr_head - wr_tail < WR_RING) {
		wr_ring[wr_head % WR_RING].seq = nic_model_tlps_pushed(nic);
		wr_ring[wr_head % WR_RING].cycle = nic_model_cycles(nic);
		wr_head++;
	}
	linger_left = opt.linger;
}

static int recv_full(void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(sock, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* Receive and handle one message.  Returns -1 when QEMU has gone. */
static int handle_msg(void)
{
	struct mp_hdr h;
	union {
		struct mp_conf conf;
		struct mp_bar bar;
		struct mp_sysmem sysmem;
		uint8_t raw[256];
	} d;
	int fds[REMOTE_MAX_FDS], nfds = 0;
	char cbuf[CMSG_SPACE(sizeof(int) * REMOTE_MAX_FDS)];
	struct iovec iov = { &h, sizeof(h) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	ssize_t n;

	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
			int k = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			for (int i = 0; i < k && nfds < REMOTE_MAX_FDS; i++)
				memcpy(&fds[nfds++], CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
		}
	}
	if ((size_t)n < sizeof(h) && recv_full((char *)&h + n, sizeof(h) - n))
		return -1;
	if (h.size > sizeof(d)) {
		logmsg("protocol error: message %d with %" PRIu64 " bytes", h.cmd, h.size);
		return -1;
	}
	memset(&d, 0, sizeof(d));
	if (h.size && recv_full(&d, h.size))
		return -1;

	switch (h.cmd) {
	case MPQEMU_CMD_SYNC_SYSMEM:
		ram_unmap_all();
		st.syncs++;
		for (int i = 0; i < nfds; i++) {
			void *p = mmap(NULL, d.sysmem.size[i], PROT_READ | PROT_WRITE, MAP_SHARED,
				       fds[i], d.sysmem.offset[i]);
			if (p == MAP_FAILED) {
				logmsg("mmap guest RAM 0x%" PRIx64 "+0x%" PRIx64 ": %s",
				       d.sysmem.gpa[i], d.sysmem.size[i], strerror(errno));
				close(fds[i]);
				continue;
			}
			ram[nram++] = (struct region){ d.sysmem.gpa[i], d.sysmem.size[i], p, fds[i] };
			if (opt.verbose > 1)
				logmsg("RAM 0x%" PRIx64 "+0x%" PRIx64, d.sysmem.gpa[i], d.sysmem.size[i]);
		}
		nfds = 0;
		return 0;
	case MPQEMU_CMD_SET_IRQFD:
		if (irqfd >= 0)
			close(irqfd);
		if (resamplefd >= 0)
			close(resamplefd);
		irqfd = nfds > 0 ? fds[0] : -1;
		resamplefd = nfds > 1 ? fds[1] : -1;
		for (int i = 2; i < nfds; i++)
			close(fds[i]);
		nfds = 0;
		if (tcg_guess)
			logmsg("note: QEMU runs under TCG, so the NIC's INTx will not reach the "
			       "guest (irqfd needs KVM); drivers must poll");
		if (intx_level) {
			uint64_t one = 1;
			if (irqfd >= 0 && write(irqfd, &one, sizeof(one)) < 0)
				logmsg("irqfd write: %s", strerror(errno));
		}
		return 0;
	default:
		break;
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]);

	switch (h.cmd) {
	case MPQEMU_CMD_PCI_CFGREAD:
		return send_ret(cfg_access(false, d.conf.addr, 0, d.conf.len));
	case MPQEMU_CMD_PCI_CFGWRITE:
		return send_ret(cfg_access(true, d.conf.addr, d.conf.val, d.conf.len));
	case MPQEMU_CMD_BAR_READ:
		if (!d.bar.memory || d.bar.size < 1 || d.bar.size > 8) {
			st.bar_other++;
			logmsg("I/O or odd BAR read 0x%" PRIx64 "/%u: all-ones", d.bar.addr, d.bar.size);
			return send_ret(ones(d.bar.size > 8 ? 8 : d.bar.size));
		}
		return send_ret(bar_read(d.bar.addr, d.bar.size));
	case MPQEMU_CMD_BAR_WRITE: {
		uint64_t t0 = now_ns();
		int r;

		if (!d.bar.memory || d.bar.size < 1 || d.bar.size > 8) {
			st.bar_other++;
			logmsg("I/O or odd BAR write 0x%" PRIx64 "/%u ignored", d.bar.addr, d.bar.size);
			return send_ret(0);
		}
		/* posted: answer first, then let the RTL take it */
		bar_write(d.bar.addr, d.bar.val, d.bar.size);
		/* Reply once the NIC's stream has taken the MWr (a few cycles,
		 * bounded): the RTL still processes it after the reply.  Measured:
		 * 12.9 us per guest write instead of 21 us when replying before
		 * the push, because the daemon then sleeps instead of competing
		 * with QEMU for the shared CPU.  --write-ack immediate: old way. */
		if (!opt.write_ack_now) {
			uint64_t c0 = nic_model_cycles(nic);
			while (nic_model_tlps_in(nic) < nic_model_tlps_pushed(nic) &&
			       nic_model_cycles(nic) - c0 < 64)
				run_cycles(1);
		}
		r = send_ret(0);
		st.wr_ns += now_ns() - t0;
		return r;
	}
	case MPQEMU_CMD_DEVICE_RESET:
		st.resets++;
		if (opt.verbose)
			logmsg("device reset at cycle %" PRIu64, nic_model_cycles(nic));
		world_reset_host(world, 0, 16);
		req.waiting = false;
		wr_tail = wr_head = 0;
		linger_left = 0;
		set_intx(nic_model_intx(nic));
		return send_ret(0);
	default:
		logmsg("unknown message %d (%" PRIu64 " bytes) ignored", h.cmd, h.size);
		return 0;
	}
}

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

static pid_t start_qemu(int child_fd, int argc, char **argv)
{
	char dev[96];
	char **args = calloc(argc + 3, sizeof(char *));
	pid_t pid;

	if (!args)
		return -1;
	snprintf(dev, sizeof(dev), "x-pci-proxy-dev,id=nic0,fd=%d", opt.fd);
	for (int i = 0; i < argc; i++) {
		args[i] = argv[i];
		if (strstr(argv[i], "kvm"))
			tcg_guess = false;
	}
	args[argc] = "-device";
	args[argc + 1] = dev;
	args[argc + 2] = NULL;
	pid = fork();
	if (pid < 0) {
		logmsg("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (dup2(child_fd, opt.fd) < 0) {
			fprintf(stderr, "cosimd: dup2: %s\n", strerror(errno));
			_exit(127);
		}
		execvp(args[0], args);
		fprintf(stderr, "cosimd: cannot run %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	free(args);
	return pid;
}

static void print_stats(void)
{
	fprintf(stderr,
		"cosimd stats: config reads %" PRIu64 ", config writes %" PRIu64
		" (timeouts %" PRIu64 ", errors %" PRIu64 ")\n",
		st.cfg_rd, st.cfg_wr, st.cfg_timeout, st.cfg_err);
	fprintf(stderr,
		"cosimd stats: BAR reads %" PRIu64 ": avg %.1f RTL cycles request->completion, "
		"%.2f us wall in the daemon (timeouts %" PRIu64 ", errors %" PRIu64 ")\n",
		st.bar_rd, st.bar_rd ? (double)st.rd_cycles / st.bar_rd : 0,
		st.bar_rd ? st.rd_ns / 1e3 / st.bar_rd : 0, st.rd_timeout, st.rd_err);
	fprintf(stderr,
		"cosimd stats: BAR writes %" PRIu64 ": avg %.1f RTL cycles until accepted by the NIC, "
		"%.2f us wall in the daemon until answered (posted)\n",
		st.bar_wr, st.wr_accepted ? (double)st.wr_cycles / st.wr_accepted : 0,
		st.bar_wr ? st.wr_ns / 1e3 / st.bar_wr : 0);
	fprintf(stderr,
		"cosimd stats: DMA writes %" PRIu64 " (%" PRIu64 " bytes, %" PRIu64
		" dropped), DMA reads %" PRIu64 " (%" PRIu64 " bytes, %" PRIu64 " UR)\n",
		st.dma_wr, st.dma_wr_bytes, st.dma_drop, st.dma_rd, st.dma_rd_bytes, st.dma_ur);
	fprintf(stderr,
		"cosimd stats: RAM syncs %" PRIu64 ", device resets %" PRIu64
		", intx asserts %" PRIu64 ", RTL cycles %" PRIu64 "\n",
		st.syncs, st.resets, st.irq_asserts, nic_model_cycles(nic));
	fprintf(stderr,
		"cosimd stats: world '%s' (%u nodes): %" PRIu64 " world cycles, %" PRIu64
		" flits and %" PRIu64 " credits on links%s; remote requests (rra.req writes): "
		"%" PRIu64 " register reads, %" PRIu64 " register writes, %" PRIu64
		" tunnelled config\n",
		world_topology(world)->name, world_topology(world)->n, world_cycles(world),
		world_flits(world), world_credits(world),
		world_overrun(world) ? ", NETWORK BUFFER OVERRUN" : "", st.rra_req[0],
		st.rra_req[1], st.rra_req[2]);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: cosimd [options] -- qemu-system-x86_64 [qemu args...]\n"
		"Runs QEMU with the Verilated EXTOLL NIC as x-pci-proxy-dev (id nic0).\n"
		"  --trace-fst FILE     write an FST waveform of the NIC\n"
		"  --trace-tlp FILE     log every TLP (one line each, with the RTL cycle)\n"
		"  --cpu N              pin daemon and QEMU to CPU N (default: first allowed\n"
		"                       CPU; -1: no pinning)\n"
		"  --stats              print access counts and round trips at exit\n"
		"  --topology FILE      the world (sim/topologies/*.topo); 'default': the\n"
		"                       embedded %s topology (also without this option),\n"
		"                       'single': the lone host NIC (torus 1x1x1)\n"
		"  --print-topology     print the embedded default topology and exit\n"
		"  --linger CYCLES      keep clocking this long after activity (default %" PRIu64 ")\n"
		"  --timeout CYCLES     completion timeout for reads (default %" PRIu64 ")\n"
		"  --bdf BB:DD.F        the NIC's guest PCI address (default 00:02.0)\n"
		"  --fd N               descriptor number passed to QEMU (default %d)\n"
		"  --write-ack MODE     answer BAR writes once the NIC took the MWr ('accepted',\n"
		"                       default, a few cycles) or before pushing it ('immediate')\n"
		"  -v, --verbose        more log messages (twice: RAM map too)\n"
		"  -h, --help           this text\n"
		"Exit status: QEMU's (128+signal if it was killed).\n",
		default_topo_name, opt.linger, opt.timeout, opt.fd);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || !*s || *end || *s == '-' ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "trace-fst", required_argument, NULL, 'F' },
		{ "trace-tlp", required_argument, NULL, 'T' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "stats", no_argument, NULL, 's' },
		{ "topology", required_argument, NULL, 'P' },
		{ "print-topology", no_argument, NULL, 'p' },
		{ "linger", required_argument, NULL, 'l' },
		{ "timeout", required_argument, NULL, 't' },
		{ "bdf", required_argument, NULL, 'b' },
		{ "fd", required_argument, NULL, 'f' },
		{ "write-ack", required_argument, NULL, 'W' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, sv[2], status = 0;
	uint64_t v;

	while ((c = getopt_long(argc, argv, "+vh", lo, NULL)) != -1) {
		switch (c) {
		case 'F':
			opt.trace_fst = optarg;
			break;
		case 'T':
			opt.trace_tlp = optarg;
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
			return 0;
		case 'l':
			if (parse_u64(optarg, &opt.linger)) {
				fprintf(stderr, "cosimd: --linger: bad cycle count '%s'\n", optarg);
				return 2;
			}
			break;
		case 't':
			if (parse_u64(optarg, &opt.timeout) || !opt.timeout) {
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
			opt.bdf = (uint16_t)(a.bus << 8 | a.dev << 3 | a.fn);
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
				opt.write_ack_now = optarg[0] == 'i';
				break;
			}
			fprintf(stderr, "cosimd: --write-ack: 'accepted' or 'immediate', not '%s'\n", optarg);
			return 2;
		case 'v':
			opt.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "cosimd: try --help\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "cosimd: no QEMU command given (cosimd [options] -- qemu-system-x86_64 ...)\n");
		return 2;
	}

	if (opt.trace_tlp) {
		tlp_trace = fopen(opt.trace_tlp, "w");
		if (!tlp_trace) {
			fprintf(stderr, "cosimd: --trace-tlp %s: %s\n", opt.trace_tlp, strerror(errno));
			return 2;
		}
	}
	{
		struct extoll_topo topo;
		char err[512];
		int r;

		if (!opt.topology || !strcmp(opt.topology, "default"))
			r = extoll_topo_parse(default_topo_text, default_topo_name, &topo, err, sizeof(err));
		else if (!strcmp(opt.topology, "single"))
			r = extoll_topo_parse("torus 1x1x1\nnode 0 host\n", "single", &topo, err,
					      sizeof(err));
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
		world = world_create(&topo, opt.trace_fst, err, sizeof(err));
		if (!world) {
			fprintf(stderr, "cosimd: %s\n", err);
			return 1;
		}
		nic = world_host(world, 0);
		logmsg("world '%s': torus %ux%ux%u, %u node(s) (%u naa, %u router), link latency %u, "
		       "host NIC = node %u", topo.name, topo.torus.dim[0], topo.torus.dim[1],
		       topo.torus.dim[2], topo.n, extoll_topo_count(&topo, EXTOLL_TOPO_NAA),
		       extoll_topo_count(&topo, EXTOLL_TOPO_ROUTER),
		       topo.latency, world_host_node(world, 0));
		if (opt.verbose)
			world_describe(world, stderr);
	}
	if (pin_cpu())
		return 1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		logmsg("socketpair: %s", strerror(errno));
		return 1;
	}
	sock = sv[0];

	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	qemu_pid = start_qemu(sv[1], argc - optind, argv + optind);
	close(sv[1]);
	if (qemu_pid < 0)
		return 1;

	uint64_t sig_at = 0;
	for (;;) {
		struct pollfd pf[2] = { { sock, POLLIN, 0 }, { resamplefd, POLLIN, 0 } };
		int timeout = rtl_busy() ? 0 : -1;

		if (got_signal) {
			if (!sig_at)
				sig_at = now_ns();
			else if (now_ns() - sig_at > 3000000000ull)
				kill(qemu_pid, SIGKILL);
			timeout = rtl_busy() ? 0 : 200;
		}
		int n = poll(pf, resamplefd >= 0 ? 2 : 1, timeout);
		if (n < 0 && errno != EINTR) {
			logmsg("poll: %s", strerror(errno));
			break;
		}
		if (n > 0 && (pf[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			if (handle_msg() < 0)
				break;
		}
		if (n > 0 && resamplefd >= 0 && (pf[1].revents & POLLIN)) {
			uint64_t cnt, one = 1;
			if (read(resamplefd, &cnt, sizeof(cnt)) < 0 && errno != EAGAIN)
				logmsg("resamplefd read: %s", strerror(errno));
			if (intx_level && irqfd >= 0 && write(irqfd, &one, sizeof(one)) < 0)
				logmsg("irqfd write: %s", strerror(errno));
		}
		if (rtl_busy()) {
			bool lingering = nic_model_idle(nic) && !nic_model_pending_out(nic);
			run_cycles(lingering ? 16 : 64);
		}
	}

	/* QEMU closed the socket: collect it */
	close(sock);
	while (waitpid(qemu_pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got_signal)
		logmsg("terminated by signal %d; QEMU stopped", (int)got_signal);
	if (opt.stats)
		print_stats();
	world_destroy(world);
	nic = NULL;
	ram_unmap_all();
	if (tlp_trace)
		fclose(tlp_trace);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
