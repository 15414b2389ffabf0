// SPDX-License-Identifier: Apache-2.0
/* The device's TLPs toward the host: DMA against guest RAM, completions to
 * mmio.c.  See dma.h. */
#include "dma.h"

#include <inttypes.h>

#include "capture.h"
#include "check.h"
#include "guest_ram.h"
#include "host.h"
#include "mmio.h"
#include "record.h"
#include "trace.h"

/* Byte enables of dword i of a request. */
static uint8_t be_of(const struct tlp *t, unsigned i)
{
	if (t->len_dw == 1)
		return t->first_be;
	return i == 0 ? t->first_be : i == t->len_dw - 1 ? t->last_be : 0xf;
}

/* Write the enabled bytes of the first ndw dwords as runs of consecutive
 * enabled bytes, one block each.  The middle dwords are all enabled, so a
 * write with contiguous byte enables (all but short writes with a gap in the
 * first or last dword) is one block.  The range was checked beforehand. */
static void write_enabled(struct host *h, const struct tlp *t, unsigned ndw)
{
	const uint8_t *data = (const uint8_t *)t->payload;
	unsigned run = 0, len = 0; /* the current run: bytes [run, run + len) */

	for (unsigned i = 0; i < ndw; i++) {
		uint8_t be = be_of(t, i);

		if (be == 0xf && len) { /* the middle of a block */
			len += 4;
			continue;
		}
		for (unsigned k = 0; k < 4; k++) {
			if (be & (1u << k)) {
				if (!len)
					run = 4 * i + k;
				len++;
			} else if (len) {
				guest_ram_write(&h->ram, t->addr + run, data + run, len, NULL);
				h->dma.wr_bytes += len;
				len = 0;
			}
		}
	}
	if (len) {
		guest_ram_write(&h->ram, t->addr + run, data + run, len, NULL);
		h->dma.wr_bytes += len;
	}
}

static void dma_write(struct host *h, const struct tlp *t)
{
	unsigned n = t->payload_dw < t->len_dw ? t->payload_dw : t->len_dw;
	uint64_t bad;

	if (t->payload_dw != t->len_dw)
		hostmsg(h, "MWr addr 0x%" PRIx64 ": length %u but %u payload dwords", t->addr,
		       t->len_dw, t->payload_dw);
	h->dma.wr++;
	/* all of it in guest RAM, or nothing is written */
	if (guest_ram_check(&h->ram, t->addr, 4ull * n, &bad)) {
		/* x86's MSI window: a device behind the proxy has no interrupt controller */
		bool msi = (t->addr & ~0xfffffull) == 0xfee00000ull;

		if (h->dma.drop++ < 10)
			hostmsg(h, "MWr 0x%" PRIx64 "+%u bytes: 0x%" PRIx64 " is not guest RAM: dropped%s",
			       t->addr, 4 * n, bad,
			       msi ? " (an MSI/MSI-X write: QEMU's proxy cannot deliver it)" : "");
		return;
	}
	write_enabled(h, t, n);
}

static void dma_read(struct host *h, const struct tlp *t)
{
	unsigned first = t->first_be ? (unsigned)__builtin_ctz(t->first_be) : 0;
	uint64_t start = t->addr + first, end, bad;
	struct tlp c;

	if (t->len_dw == 1)
		end = t->addr + (t->first_be ? 32 - __builtin_clz(t->first_be) : 1);
	else
		end = t->addr + 4ull * (t->len_dw - 1) +
		      (t->last_be ? 32 - __builtin_clz(t->last_be) : 4);
	h->dma.rd++;
	if (guest_ram_check(&h->ram, t->addr, 4ull * t->len_dw, &bad)) {
		if (h->dma.ur++ < 10)
			hostmsg(h, "MRd 0x%" PRIx64 "+%u bytes: 0x%" PRIx64 " is not guest RAM: UR",
			       t->addr, 4 * t->len_dw, bad);
		tlp_cpl(&c, 0x0000, TLP_CPL_UR, t->requester_id, t->tag, (uint8_t)start, 0, NULL, 0);
		c.byte_count = 4 * t->len_dw;
		mmio_push(h, &c);
		return;
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

		guest_ram_read(&h->ram, a, data, 4ull * ndw, NULL);
		tlp_cpl(&c, 0x0000, TLP_CPL_SC, t->requester_id, t->tag, (uint8_t)from,
			(uint16_t)(end - from), data, ndw);
		mmio_push(h, &c);
		h->dma.rd_bytes += 4ull * ndw;
		a = next;
		firstc = false;
	}
}

bool dma_service(struct host *h)
{
	bool any = false;
	struct tlp t;
	uint32_t raw[4], payload[TLP_MAX_PAYLOAD_DW];
	unsigned n;

	while (pcie_model_pop(h->dev, raw, payload, TLP_MAX_PAYLOAD_DW, &n)) {
		/* the checker counts the payload as sent (beyond the buffer too) */
		check_from_dev(&h->check, raw, payload, n);
		record_tlp_out(h->index, raw, payload, n < TLP_MAX_PAYLOAD_DW ? n : TLP_MAX_PAYLOAD_DW);
		int r = n > TLP_MAX_PAYLOAD_DW ? -1 : tlp_decode(raw, payload, n, &t) ? -1 : 1;
		any = true;
		if (r < 0) {
			hostmsg(h, "malformed TLP from the device: %08x %08x %08x %08x", raw[0], raw[1],
			       raw[2], raw[3]);
			continue;
		}
		tlp_trace(h->trace, "dev->host", &t, pcie_model_cycles(h->dev));
		capture_tlp(h->cap, false, &t, pcie_model_cycles(h->dev));
		switch (t.kind) {
		case TLP_MWR:
			dma_write(h, &t);
			break;
		case TLP_MRD:
			dma_read(h, &t);
			break;
		case TLP_CPL:
		case TLP_CPLD:
			mmio_completion(h, &t);
			break;
		default: {
			char buf[128];
			tlp_format(&t, buf, sizeof(buf));
			hostmsg(h, "TLP from the device not handled by the host: %s", buf);
		}
		}
	}
	return any;
}

void dma_print_stats(const struct host *h, FILE *f)
{
	const struct dma *st = &h->dma;

	fprintf(f,
		"cosimd stats: DMA writes %" PRIu64 " (%" PRIu64 " bytes, %" PRIu64
		" dropped), DMA reads %" PRIu64 " (%" PRIu64 " bytes, %" PRIu64 " UR)\n",
		st->wr, st->wr_bytes, st->drop, st->rd, st->rd_bytes, st->ur);
}
