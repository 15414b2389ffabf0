// SPDX-License-Identifier: Apache-2.0
/* The guest CPU's config and BAR accesses as TLPs: see mmio.h. */
#include "mmio.h"

#include <inttypes.h>
#include <string.h>

#include "capture.h"
#include "check.h"
#include "clock.h"
#include "trace.h"

static struct pcie_model *dev;
static struct mmio_config cfg;
static uint8_t next_tag;

/* the one outstanding request (the guest CPU blocks on it) */
static struct {
	bool waiting, done;
	uint8_t tag;
	struct tlp cpl;
} req;

/* posted writes waiting to be accepted by the device, for --stats */
#define WR_RING 64
static struct {
	uint64_t seq, cycle;
} wr_ring[WR_RING];
static unsigned wr_head, wr_tail;

static struct {
	uint64_t cfg_rd, cfg_wr, bar_rd, bar_wr;
	uint64_t rd_cycles, rd_ns, wr_ns, wr_cycles, wr_accepted;
	uint64_t rd_timeout, rd_err, cfg_timeout, cfg_err, unexpected_cpl;
} st;

void mmio_init(struct pcie_model *d, const struct mmio_config *c)
{
	dev = d;
	cfg = *c;
}

void mmio_push(const struct tlp *t)
{
	uint32_t hdr[4];

	tlp_trace("host->dev", t, pcie_model_cycles(dev));
	capture_tlp(true, t, pcie_model_cycles(dev));
	if (tlp_encode_hdr(t, hdr))
		check_to_dev(hdr, t->payload, (hdr[0] >> 30) & 1 ? t->payload_dw : 0);
	if (pcie_model_push_tlp(dev, t))
		logmsg("internal error: cannot push TLP");
}

void mmio_completion(const struct tlp *t)
{
	if (req.waiting && !req.done && t->tag == req.tag) {
		req.cpl = *t;
		req.done = true;
		return;
	}
	if (st.unexpected_cpl++ < 10)
		logmsg("unexpected completion (tag %u, status %u) dropped", t->tag, t->status);
}

void mmio_service(void)
{
	while (wr_tail != wr_head &&
	       pcie_model_tlps_in(dev) >= wr_ring[wr_tail % WR_RING].seq) {
		st.wr_cycles += pcie_model_cycles(dev) - wr_ring[wr_tail % WR_RING].cycle;
		st.wr_accepted++;
		wr_tail++;
	}
}

void mmio_reset(void)
{
	req.waiting = false;
	wr_tail = wr_head = 0;
}

/* Issue a non-posted request and clock until its completion.  Returns 0 with
 * *c filled, or -1 on timeout. */
static int request(const struct tlp *t, struct tlp *c, uint64_t *cycles)
{
	uint64_t c0 = pcie_model_cycles(dev);

	req.waiting = true;
	req.done = false;
	req.tag = t->tag;
	mmio_push(t);
	clock_kick();
	while (!req.done && pcie_model_cycles(dev) - c0 < cfg.timeout)
		clock_run(1);
	req.waiting = false;
	*cycles = pcie_model_cycles(dev) - c0;
	if (!req.done) {
		check_give_up(t->requester_id, t->tag);
		return -1;
	}
	*c = req.cpl;
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

	tlp_cfg(&t, write, 0, cfg.bdf, (uint16_t)reg, be, data, 0x0000, next_tag++);
	if (write)
		check_cfg(reg, be, data);
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
	if (!write)
		check_cfg(reg, 0xf, c.payload[0]);
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

uint64_t mmio_cfg_read(uint32_t addr, int len)
{
	return cfg_access(false, addr, 0, len);
}

uint64_t mmio_cfg_write(uint32_t addr, uint32_t val, int len)
{
	return cfg_access(true, addr, val, len);
}

uint64_t mmio_bar_read(uint64_t addr, unsigned size)
{
	uint64_t dw, cyc, t0 = now_ns();
	unsigned len;
	uint8_t fbe, lbe;
	struct tlp t, c;
	uint64_t v = 0;

	st.bar_rd++;
	tlp_access_bes(addr, size, &dw, &len, &fbe, &lbe);
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
		memcpy(&v, (const uint8_t *)c.payload + (addr & 3), size);
	}
	st.rd_cycles += cyc;
	st.rd_ns += now_ns() - t0;
	return v;
}

void mmio_bar_write(uint64_t addr, uint64_t val, unsigned size)
{
	uint64_t dw, t0 = now_ns();
	unsigned len;
	uint8_t fbe, lbe, bytes[12] = { 0 };
	uint32_t data[3];
	struct tlp t;

	st.bar_wr++;
	tlp_access_bes(addr, size, &dw, &len, &fbe, &lbe);
	memcpy(bytes + (addr & 3), &val, size);
	memcpy(data, bytes, sizeof(data));
	tlp_mwr(&t, dw, data, len, fbe, lbe, 0x0000);
	mmio_push(&t);
	if (wr_head - wr_tail < WR_RING) {
		wr_ring[wr_head % WR_RING].seq = pcie_model_tlps_pushed(dev);
		wr_ring[wr_head % WR_RING].cycle = pcie_model_cycles(dev);
		wr_head++;
	}
	clock_kick();
	/* Posted: the caller answers QEMU when this returns, the RTL still
	 * processes the write after that.  Return once the device's stream has
	 * taken the MWr (a few cycles, bounded).  Measured: 12.9 us per guest
	 * write instead of 21 us when answering before the push, because the
	 * daemon then sleeps instead of competing with QEMU for the shared CPU.
	 * --write-ack immediate: the old way. */
	if (!cfg.write_ack_now) {
		uint64_t c0 = pcie_model_cycles(dev);
		while (pcie_model_tlps_in(dev) < pcie_model_tlps_pushed(dev) &&
		       pcie_model_cycles(dev) - c0 < 64)
			clock_run(1);
	}
	st.wr_ns += now_ns() - t0;
}

void mmio_print_stats(FILE *f)
{
	fprintf(f,
		"cosimd stats: config reads %" PRIu64 ", config writes %" PRIu64
		" (timeouts %" PRIu64 ", errors %" PRIu64 ")\n",
		st.cfg_rd, st.cfg_wr, st.cfg_timeout, st.cfg_err);
	fprintf(f,
		"cosimd stats: BAR reads %" PRIu64 ": avg %.1f RTL cycles request->completion, "
		"%.2f us wall in the daemon (timeouts %" PRIu64 ", errors %" PRIu64 ")\n",
		st.bar_rd, st.bar_rd ? (double)st.rd_cycles / st.bar_rd : 0,
		st.bar_rd ? st.rd_ns / 1e3 / st.bar_rd : 0, st.rd_timeout, st.rd_err);
	fprintf(f,
		"cosimd stats: BAR writes %" PRIu64 ": avg %.1f RTL cycles until accepted by the device, "
		"%.2f us wall in the daemon until answered (posted)\n",
		st.bar_wr, st.wr_accepted ? (double)st.wr_cycles / st.wr_accepted : 0,
		st.bar_wr ? st.wr_ns / 1e3 / st.bar_wr : 0);
	if (st.unexpected_cpl)
		fprintf(f, "cosimd stats: unexpected completions %" PRIu64 "\n", st.unexpected_cpl);
}
