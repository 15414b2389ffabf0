// SPDX-License-Identifier: Apache-2.0
//
// tb_nic_smfu: Verilator test of the SMFU through whole NICs (docs/smfu.md,
// docs/nic.md). Top: tb/tb_nic_remote_top.sv: host extoll_nic (node 1) -
// HOPS-1 intermediate NICs - naa_node (extoll_nic ROLE 1 + accel_top, node 3).
//
// The testbench plays the host CPU and memory: it configures the host NIC and,
// through the config tunnel and RRA, the NAA (root port windows, accelerator
// BARs, MSI-X, SMFU ingress bases, pass-through), programs the host NIC's
// egress intervals and notification ring by BAR0, then:
//   aperture writes/reads of device memory (1/2/4/8/64/256 bytes) and of the
//   accelerator's BAR0; a read to an interval of a node that does not exist
//   (CA after the timeout, counted); DMA host->device and device->host against
//   the host-memory model (the NIC's MRd answered with CplD split at 64 B);
//   the job's MSI-X write -> notification entry after all DMA data, intx;
//   ring full (events held until cons advances); disabled ring (dropped);
//   a mixed stress with the host's reads held, a full ring and a slow host
//   (aperture traffic, DMA both ways, MSI-X, BAR0, RRA: nothing deadlocks);
//   the RMA unit (docs/rma.md): put / get between host memory and device memory
//   8 B .. 1 MiB by content, records, errors, an NAA-posted descriptor, the
//   accelerator's descriptor window, a third-party copy; the host NIC's
//   smfu_in at its 16 tags (host memory holding the MRd of the NAA's RMA unit
//   and the accelerator: 16 outstanding at the peak, a 17th read parked, the
//   writes behind it land first).
//
// Usage: tb_nic_smfu [-v] [seed]     exit status 0 = all checks passed
//        tb_nic_smfu bench           throughput / latency figures (RMA diagnostics in the
//                                    environment: TB_RMA_MAXRD=n sets rma.ctrl.max_rd,
//                                    TB_RMA_DIAG=1 TLP intervals of the 1 MiB put,
//                                    TB_RMA_DIAG2=1 the device's sink rate for a long
//                                    aperture write stream)

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#ifndef TB_HOPS
#define TB_HOPS 1
#endif

#include "accel_hw.h"
#include "tb_nic_common.h"

static const uint16_t N_MIDS[2] = {2, 4};   // intermediate NICs (HOPS - 1 of them)

// ---------------------------------------------------------------------------
// Testbench: the common base plus flit accounting, intx and host memory that
// answers the NIC's MRd
// ---------------------------------------------------------------------------
static const uint64_t RING_ADDR = 0x20000;   // = RING below (used by Tb)

struct MwrRec {
	uint64_t addr;
	unsigned len_dw;
	uint64_t cycle;   // cycle of the header beat on m_tlp
};

class Tb : public NicTb {
public:
	Tb(uint32_t seed, bool verbose) : NicTb(seed, verbose) {}

	uint64_t intx_rise = 0;
	bool intx_prev = false;
	// link flit accounting (host X+ outgoing)
	uint64_t h_tx_flits = 0, h_tx_first = 0, h_tx_last = 0;
	// root port -> device TLP headers (count, first, last)
	uint64_t d_in_tlps = 0, d_in_first = 0, d_in_last = 0;
	std::vector<uint64_t> d_in_t, s_sop_t;   // diagnostics (bench)
	bool diag = false;
	std::vector<uint64_t> d_out_cycles;   // device -> root port TLP headers (most recent first kept small)
	bool answer_mrd = true;
	bool defer_mrd = false;                     // keep the NIC's MRd unanswered (its tags outstanding)
	std::deque<struct tlp> deferred;            // ... here, until release_mrd answers them
	unsigned host_rcb = 64;                     // host memory splits its CplD at this boundary
	unsigned mrd_count = 0;
	unsigned mrd_tag_max = 0;                   // highest tag of the NIC's MRd (reset by a test)
	std::vector<MwrRec> mwrs;
	unsigned ring_mwrs = 0;                     // notification entries the host has taken
	uint64_t ring_eop = 0;                      // cycle (sample) the last one's last beat was taken
	std::map<uint8_t, unsigned> cpl_ring;       // per completion tag: ring_mwrs at its arrival
	// MRd of host memory outstanding at the host model: received, not yet
	// answered (test_in_tags: the NIC's smfu_in has NTAGS = 16)
	unsigned mrd_answered = 0, mrd_out_peak = 0;
	std::vector<MwrRec> mrd_log;                // MRd received (address, length, cycle), while log_mrd
	bool log_mrd = false;
	// answer up to n deferred MRd for which pred(addr) holds, oldest first
	template <class F> unsigned release_where(F pred, unsigned n)
	{
		unsigned k = 0;
		for (auto it = deferred.begin(); k < n && it != deferred.end();) {
			if (pred(it->addr)) {
				answer(*it);
				it = deferred.erase(it);
				k++;
			} else
				++it;
		}
		return k;
	}
	// answer up to n deferred MRd, oldest first; returns how many
	unsigned release_mrd(unsigned n)
	{
		unsigned k = 0;
		for (; k < n && !deferred.empty(); k++) {
			answer(deferred.front());
			deferred.pop_front();
		}
		return k;
	}

protected:
	void probe(Top *t) override
	{
		if (t->p_h_tx) {
			if (!h_tx_flits) h_tx_first = cycle_;
			h_tx_last = cycle_;
			h_tx_flits++;
		}
		if (t->intx && !intx_prev) intx_rise = cycle_;
		if (t->p_d_in) {
			if (!d_in_tlps) d_in_first = cycle_;
			d_in_last = cycle_;
			d_in_tlps++;
			if (diag) d_in_t.push_back(cycle_);
		}
		if (diag && t->s_tlp_valid && t->s_tlp_ready && t->s_tlp_sop) s_sop_t.push_back(cycle_);
		intx_prev = t->intx;
	}
	// host memory: MWr (with byte enables) and MRd from the NIC
	bool host_request(const struct tlp &r) override
	{
		if (r.kind == TLP_MWR) {
			CHECK_EQ(r.requester_id, NIC_ID, "MWr requester id");
			for (unsigned i = 0; i < r.len_dw; i++) {
				uint32_t be = i == 0 ? r.first_be : (i == r.len_dw - 1 ? r.last_be : 0xf);
				if (r.len_dw == 1) be = r.first_be;
				uint32_t old = mem_[r.addr + 4 * i], m = 0;
				for (int k = 0; k < 4; k++)
					if (be >> k & 1) m |= 0xffu << (8 * k);
				mem_[r.addr + 4 * i] = (old & ~m) | (r.payload[i] & m);
			}
			mwrs.push_back({r.addr, r.len_dw, m_sop});
			if (r.addr >= RING_ADDR && r.addr < RING_ADDR + 16 * 16) {
				ring_mwrs++;
				ring_eop = cycle_ - 1;   // posedge() runs after the edge that took the eop
			}
			return true;
		}
		if (r.kind == TLP_MRD) {
			CHECK_EQ(r.requester_id, NIC_ID, "MRd requester id");
			mrd_count++;
			if (r.tag > mrd_tag_max)
				mrd_tag_max = r.tag;
			if (mrd_count - mrd_answered > mrd_out_peak)
				mrd_out_peak = mrd_count - mrd_answered;
			if (log_mrd)
				mrd_log.push_back({r.addr, r.len_dw, cycle_});
			if (defer_mrd)
				deferred.push_back(r);
			else if (answer_mrd)
				answer(r);
			return true;
		}
		cpl_ring[r.tag] = ring_mwrs;
		return false;
	}
	// host memory answers a read with CplD split at 64-byte boundaries (RCB;
	// host_rcb 128 or 256: larger completions, for the bench)
	void answer(const struct tlp &r)
	{
		mrd_answered++;
		uint64_t a = r.addr, end = r.addr + 4ull * r.len_dw;
		unsigned bc = 4 * r.len_dw;
		while (a < end) {
			uint64_t nxt = (a & ~(uint64_t)(host_rcb - 1)) + host_rcb;
			if (nxt > end) nxt = end;
			unsigned n = (unsigned)(nxt - a) / 4;
			uint32_t d[64];
			for (unsigned i = 0; i < n; i++)
				d[i] = mem_.count(a + 4 * i) ? mem_[a + 4 * i] : 0;
			struct tlp c;
			tlp_cpl(&c, HOST_ID, TLP_CPL_SC, r.requester_id, r.tag, (uint8_t)(a & 0x7f), (uint16_t)bc, d, n);
			drv_.send(c);
			bc -= 4 * n;
			a = nxt;
		}
	}
};

// ---------------------------------------------------------------------------
// Address plan
// ---------------------------------------------------------------------------
static const uint32_t AP = 0xc0000000;            // host NIC BAR2 (aperture, 256 MiB)
static const uint64_t NAA_DEVMEM = 0x80000000;    // accelerator BAR2 (NAA bus address, 64 MiB)
static const uint64_t NAA_REGS = 0x90000000;      // accelerator BAR0 (NAA bus address, 4 KiB)
static const uint64_t AP_MEM = AP;                // interval 0: device memory (64 MiB)
static const uint64_t AP_REGS = AP + 0x04000000;  // interval 1: device BAR0 (4 KiB)
static const uint64_t AP_NONE = AP + 0x08000000;  // interval 2: node that does not exist
static const uint64_t RING = RING_ADDR;           // notification ring (host memory)
static const uint64_t WIN = 0xfd00000000ull;      // notification window (reset value)
static const uint64_t HBUF = 0x100000000ull;      // DMA buffer (host memory, above 4 GiB)
static const uint32_t MSI_DATA = 0x00000035;

static unsigned hops() { return TB_HOPS; }

static uint64_t route_n(unsigned n0)   // n0 hops east, then eject
{
	uint64_t r = 0;
	for (unsigned i = 0; i < n0; i++)
		r |= 0ull << (3 * i);
	return r | 7ull << (3 * n0);
}

static void setup_tables(Tb &tb)
{
	const uint32_t RT = EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_RT_ENTRY;
	unsigned nm = hops() - 1;
	bar_wr(tb, RT, rt_entry(N_HOST, 15, 7));
	bar_wr(tb, RT, rt_entry(N_NAA, 15, 0));
	for (unsigned k = 0; k < nm; k++)
		bar_wr(tb, RT, rt_entry(N_MIDS[k], 15, 0));
	for (unsigned k = 0; k < nm; k++) {
		uint64_t rm = route_n(k + 1);
		char what[64];
		snprintf(what, sizeof(what), "mid %u: table", N_MIDS[k]);
		rra_wr_ok(tb, N_MIDS[k], RT, rt_entry(N_MIDS[k], 15, 7), rm, what);
		rra_wr_ok(tb, N_MIDS[k], RT, rt_entry(N_HOST, 15, 1), rm, what);
		rra_wr_ok(tb, N_MIDS[k], RT, rt_entry(N_NAA, 15, 0), rm, what);
		for (unsigned j = 0; j < nm; j++)
			if (j != k)
				rra_wr_ok(tb, N_MIDS[k], RT, rt_entry(N_MIDS[j], 15, j < k ? 1 : 0), rm, what);
	}
	uint64_t rn = route_n(hops());
	rra_wr_ok(tb, N_NAA, RT, rt_entry(N_NAA, 15, 7), rn, "naa: table (naa)");
	rra_wr_ok(tb, N_NAA, RT, rt_entry(N_HOST, 15, 1), rn, "naa: table (host)");
	for (unsigned k = 0; k < nm; k++)
		rra_wr_ok(tb, N_NAA, RT, rt_entry(N_MIDS[k], 15, 1), rn, "naa: table (mid)");
}

static void tun_wr(Tb &tb, int type1, uint16_t target, uint16_t reg, uint32_t v, const char *what)
{
	Rec r = tunnel(tb, true, type1, target, reg, v);
	CHECK(r.ok && r.status() == 0 && r.cst() == 0, "%s: config write record (ok %d status %u/%u)", what,
	      r.ok, r.status(), r.cst());
}

// What the kernel does (naa_bus + extoll): root port bus numbers, windows,
// command; accelerator BARs, command, MSI-X; SMFU intervals on both sides;
// pass-through; notification ring.
static void setup_smfu(Tb &tb, bool check)
{
	setup_filter(tb);
	tun_wr(tb, 0, 0x0000, 0x018, 0x00010100, "rp bus numbers");
	// non-prefetchable window 0x9000_0000..0x900f_ffff, prefetchable 0x8000_0000..0x83ff_ffff
	tun_wr(tb, 0, 0x0000, 0x020, (uint32_t)(NAA_REGS >> 16) | (uint32_t)(NAA_REGS & 0xfff00000), "rp memory window");
	tun_wr(tb, 0, 0x0000, 0x024, (uint32_t)(NAA_DEVMEM >> 16) | (uint32_t)((NAA_DEVMEM + 0x03f00000) & 0xfff00000),
	       "rp prefetchable window");
	tun_wr(tb, 0, 0x0000, 0x028, 0, "rp prefetchable base upper");
	tun_wr(tb, 0, 0x0000, 0x02c, 0, "rp prefetchable limit upper");
	tun_wr(tb, 0, 0x0000, 0x004, 0x0006, "rp command: memory + bus master");
	tun_wr(tb, 1, 0x0100, 0x010, (uint32_t)NAA_REGS, "accel BAR0");
	tun_wr(tb, 1, 0x0100, 0x018, (uint32_t)NAA_DEVMEM, "accel BAR2");
	tun_wr(tb, 1, 0x0100, 0x01c, 0, "accel BAR3");
	tun_wr(tb, 1, 0x0100, 0x004, 0x0006, "accel command: memory + bus master");
	tun_wr(tb, 1, 0x0100, 0x0a0, 0x80000000u, "accel MSI-X enable");
	if (check) {
		Rec r = tunnel(tb, false, 1, 0x0100, 0x018);
		CHECK(r.ok && (r.q0 & 0xfffffff0) == NAA_DEVMEM, "accel BAR2 read back (0x%" PRIx64 ")", r.q0);
	}
	// host egress intervals (BAR0, as extoll does)
	const uint32_t S = EXTOLL_SMFU_BASE;
	bar_wr(tb, S + EXTOLL_SMFU_CTRL, 4ull << 32);       // timeout 4 x 256 cycles
	struct { uint64_t start, size; uint16_t node; } iv[3] = {
		{AP_MEM, 1ull << 26, N_NAA}, {AP_REGS, 4096, N_NAA}, {AP_NONE, 4096, N_NONE}};
	for (int i = 0; i < 3; i++) {
		bar_wr(tb, S + EXTOLL_SMFU_EG_START_N(i), iv[i].start);
		bar_wr(tb, S + EXTOLL_SMFU_EG_END_N(i), iv[i].start + iv[i].size - 1);
		bar_wr(tb, S + EXTOLL_SMFU_EG_CTRL_N(i), 1 | (uint64_t)iv[i].node << 16);
	}
	// NAA ingress bases and pass-through (RRA, as naa_bus does)
	rra_wr_ok(tb, N_NAA, S + EXTOLL_SMFU_IN_BASE_N(0), NAA_DEVMEM, 0, "naa in_base 0");
	rra_wr_ok(tb, N_NAA, S + EXTOLL_SMFU_IN_BASE_N(1), NAA_REGS, 0, "naa in_base 1");
	rra_wr_ok(tb, N_NAA, S + EXTOLL_SMFU_CTRL, 1 | (uint64_t)N_HOST << 16 | 0x400ull << 32, 0, "naa passthru");
	// notification ring: 16 entries
	const uint32_t N = EXTOLL_NOTIFY_BASE;
	tb.mem_clear(RING, 16 * 16);
	bar_wr(tb, N + EXTOLL_NOTIFY_RING_BASE, RING);
	bar_wr(tb, N + EXTOLL_NOTIFY_CONS, 0);
	bar_wr(tb, N + EXTOLL_NOTIFY_RING_CTRL, 1 | 4u << 8);
	bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_ENABLE, EXTOLL_INFO_IRQ_ENABLE_NOTIFY_MASK);
	tb.drain(20);
}

// ---------------------------------------------------------------------------
// Aperture accesses (the host CPU's loads and stores)
// ---------------------------------------------------------------------------
static void ap_wr(Tb &tb, uint64_t addr, const uint8_t *bytes, unsigned size)
{
	struct tlp t;
	uint32_t d[64] = {0};
	if (size <= 8) {
		uint64_t dwa;
		unsigned n;
		uint8_t fbe, lbe;
		tlp_access_bes(addr, size, &dwa, &n, &fbe, &lbe);
		for (unsigned i = 0; i < size; i++)
			d[(addr - dwa + i) / 4] |= (uint32_t)bytes[i] << (8 * ((addr - dwa + i) % 4));
		tlp_mwr(&t, dwa, d, n, fbe, lbe, HOST_ID);
	} else {
		for (unsigned i = 0; i < size; i++)
			d[i / 4] |= (uint32_t)bytes[i] << (8 * (i % 4));
		tlp_mwr(&t, addr, d, size / 4, 0xf, 0xf, HOST_ID);
	}
	tb.drv().send(t);
}

static bool ap_rd(Tb &tb, uint64_t addr, uint8_t *bytes, unsigned size, unsigned *status = nullptr,
		  unsigned timeout = 5000, unsigned *ncpl = nullptr)
{
	struct tlp t, c;
	uint64_t dwa = addr;
	unsigned n = size / 4;
	uint8_t fbe = 0xf, lbe = 0xf;
	if (size <= 8)
		tlp_access_bes(addr, size, &dwa, &n, &fbe, &lbe);
	uint8_t tag = tb.next_tag();
	tlp_mrd(&t, dwa, n, fbe, n == 1 ? 0 : lbe, HOST_ID, tag);
	tb.drv().send(t);
	std::vector<uint32_t> got;
	unsigned st = 0;
	while (got.size() < n) {
		if (!tb.wait_cpl(&c, timeout))
			return false;
		CHECK_EQ(c.tag, tag, "aperture read: completion tag");
		st = c.status;
		if (c.status != TLP_CPL_SC)
			break;
		for (unsigned i = 0; i < c.len_dw; i++)
			got.push_back(c.payload[i]);
		if (ncpl)
			++*ncpl;
	}
	if (status)
		*status = st;
	if (st != TLP_CPL_SC)
		return true;
	for (unsigned i = 0; i < size; i++)
		bytes[i] = (uint8_t)(got[(addr - dwa + i) / 4] >> (8 * ((addr - dwa + i) % 4)));
	return true;
}

// device memory [dev_off, +len) read through the aperture in 256-B reads
// equals host memory at host
static bool devmem_equals(Tb &tb, uint32_t dev_off, uint64_t host, unsigned len)
{
	uint8_t r[256];
	bool same = true;
	for (unsigned off = 0; off < len; off += 256) {
		ap_rd(tb, AP_MEM + dev_off + off, r, 256);
		for (unsigned i = 0; i < 256; i += 4) {
			uint32_t v = r[i] | r[i + 1] << 8 | r[i + 2] << 16 | (uint32_t)r[i + 3] << 24;
			if (v != tb.mem32(host + off + i))
				same = false;
		}
	}
	return same;
}

static uint32_t acc_rd32(Tb &tb, uint32_t reg)
{
	uint8_t b[4] = {0};
	CHECK(ap_rd(tb, AP_REGS + reg, b, 4), "accel reg 0x%x: no completion", reg);
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static void acc_wr32(Tb &tb, uint32_t reg, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
	ap_wr(tb, AP_REGS + reg, b, 4);
}

static void job(Tb &tb, unsigned op, uint64_t host, uint32_t dev_off, uint32_t len)
{
	acc_wr32(tb, ACCEL_REG_JOB_HOST_LO, (uint32_t)host);
	acc_wr32(tb, ACCEL_REG_JOB_HOST_HI, (uint32_t)(host >> 32));
	acc_wr32(tb, ACCEL_REG_JOB_DEV_OFF, dev_off);
	acc_wr32(tb, ACCEL_REG_JOB_LEN, len);
	acc_wr32(tb, ACCEL_REG_JOB_CTRL, ACCEL_JOB_START | op);
}

static uint32_t g_cons = 0;   // software's consumer index

// wait for notification entry `idx` (phase for its pass); returns its MWr index in tb.mwrs or -1
static int wait_entry(Tb &tb, uint32_t idx, unsigned timeout = 20000)
{
	uint64_t a = RING + 16 * (idx % 16);
	uint64_t want_phase = ((idx / 16) & 1) ? 0 : 1;
	for (unsigned i = 0; i < timeout; i++) {
		if (EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_PHASE, tb.mem64(a + 8 * EXTOLL_NOTIFY_ENT_PHASE_QW)) == want_phase &&
		    EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_DATA, tb.mem64(a + 8 * EXTOLL_NOTIFY_ENT_DATA_QW)) == MSI_DATA) {
			for (int k = (int)tb.mwrs.size() - 1; k >= 0; k--)
				if (tb.mwrs[k].addr == a)
					return k;
			return -2;
		}
		tb.tick();
	}
	return -1;
}

// ---------------------------------------------------------------------------
// RMA (docs/rma.md): one-sided put / get through the NICs
// ---------------------------------------------------------------------------
static const uint64_t RMA_HA = 0x200000000ull;    // host source buffer (1 MiB + margin)
static const uint64_t RMA_HB = 0x300000000ull;    // host destination buffer
static const uint64_t RMA_REC = 0x30000;           // records in host memory (16 B each)
static const uint64_t RMA_DEV = 0x00100000;        // device memory offset of the transfers (the model
                                                   // backs 2 MiB of the BAR, tb_nic_remote_top.sv)
static const uint64_t RMA_DREC = 0x000f0000;       // records in device memory (offset)
static const uint64_t RMA_WIN = WIN + 0x80000;     // RMA records in the notify window

struct RmaD {
	uint16_t sn;
	uint64_t sa;
	uint16_t dn;
	uint64_t da;
	uint32_t len;
	uint16_t cookie;
	bool nreq, ncmp;
	uint64_t rnoti, cnoti;
};

static uint64_t rma_len_word(const RmaD &d)
{
	return (uint64_t)d.len | (uint64_t)d.cookie << 32 | (uint64_t)d.nreq << 48 | (uint64_t)d.ncmp << 49;
}

// post by BAR0 (host NIC) or by RRA writes into another node's rma block
static void rma_post(Tb &tb, const RmaD &d, uint16_t node = N_HOST)
{
	const uint32_t R = EXTOLL_RMA_BASE;
	uint64_t v[5] = {(uint64_t)d.sn << 48 | d.sa, (uint64_t)d.dn << 48 | d.da, rma_len_word(d), d.rnoti, d.cnoti};
	const uint32_t off[5] = {EXTOLL_RMA_D_SRC, EXTOLL_RMA_D_DST, EXTOLL_RMA_D_LEN, EXTOLL_RMA_D_RNOTI,
				 EXTOLL_RMA_D_CNOTI};
	for (int i = 0; i < 5; i++) {
		if (node == N_HOST)
			bar_wr(tb, R + off[i], v[i]);
		else
			rra_wr_ok(tb, node, R + off[i], v[i], 0, "rma descriptor by RRA");
	}
	if (node == N_HOST)
		bar_wr(tb, R + EXTOLL_RMA_POST, 1);
	else
		rra_wr_ok(tb, node, R + EXTOLL_RMA_POST, 1, 0, "rma post by RRA");
}

static void rma_check_rec(uint64_t q0, uint64_t q1, const RmaD &d, unsigned status, unsigned kind, uint16_t req,
			  const char *what)
{
	char w[160];
	snprintf(w, sizeof(w), "%s: record status", what);
	CHECK_EQ(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_STATUS, q0), status, w);
	snprintf(w, sizeof(w), "%s: record cookie, kind, length, nodes, valid", what);
	CHECK(EXTOLL_REC_GET(EXTOLL_RMA_NOTI_COOKIE, q0) == d.cookie && EXTOLL_REC_GET(EXTOLL_RMA_NOTI_KIND, q0) == kind &&
	      EXTOLL_REC_GET(EXTOLL_RMA_NOTI_LEN, q0) == d.len && EXTOLL_REC_GET(EXTOLL_RMA_NOTI_REQ_NODE, q1) == req &&
	      EXTOLL_REC_GET(EXTOLL_RMA_NOTI_SRC_NODE, q1) == d.sn &&
	      EXTOLL_REC_GET(EXTOLL_RMA_NOTI_DST_NODE, q1) == d.dn && EXTOLL_REC_GET(EXTOLL_RMA_NOTI_VALID, q1) == 1,
	      "%s (q0 0x%016" PRIx64 " q1 0x%016" PRIx64 ")", w, q0, q1);
}

// a record in host memory: wait for its valid bit
static bool rma_host_rec(Tb &tb, uint64_t a, uint64_t *q0, uint64_t *q1, unsigned timeout = 400000)
{
	bool ok = tb.wait_for([&] { return EXTOLL_REC_GET(EXTOLL_RMA_NOTI_VALID, tb.mem64(a + 8)) != 0; }, timeout);
	*q0 = tb.mem64(a);
	*q1 = tb.mem64(a + 8);
	return ok;
}

// a record in device memory, read through the aperture
static void rma_dev_rec(Tb &tb, uint64_t off, uint64_t *q0, uint64_t *q1)
{
	uint8_t b[16] = {0};
	ap_rd(tb, AP_MEM + off, b, 16);
	*q0 = *q1 = 0;
	for (int i = 0; i < 8; i++) {
		*q0 |= (uint64_t)b[i] << (8 * i);
		*q1 |= (uint64_t)b[8 + i] << (8 * i);
	}
}

static void rma_dev_rec_clear(Tb &tb, uint64_t off)
{
	uint8_t z[16] = {0};
	ap_wr(tb, AP_MEM + off, z, 16);
}

// the next notification-queue entry (an RMA record's dword 0): returns it, or ~0 on timeout
static uint64_t rma_entry(Tb &tb, unsigned timeout = 400000)
{
	uint64_t a = RING + 16 * (g_cons % 16);
	uint64_t want_phase = ((g_cons / 16) & 1) ? 0 : 1;
	bool ok = tb.wait_for([&] {
		return EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_PHASE, tb.mem64(a + 8 * EXTOLL_NOTIFY_ENT_PHASE_QW)) == want_phase;
	}, timeout);
	if (!ok)
		return ~0ull;
	uint64_t q0 = tb.mem64(a), q1 = tb.mem64(a + 8);
	g_cons++;
	bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
	return q0 | (q1 & 0xffff) << 0;   // data, offset in q0; the node checked by the caller from q1
}

static uint32_t rma_pat(uint64_t a) { return (uint32_t)(a * 0x9E3779B1u) ^ (uint32_t)(a >> 32) ^ 0x5a5a0000u; }

static uint64_t rma_rd(Tb &tb, uint16_t node, uint32_t reg)
{
	if (node == N_HOST)
		return bar_rd(tb, EXTOLL_RMA_BASE + reg);
	return rra_rd_ok(tb, node, EXTOLL_RMA_BASE + reg, "rma register by RRA");
}

static void test_rma(Tb &tb)
{
	static uint16_t cookie = 0x100;
	const uint64_t HALF = 0x80000;

	// The host NIC's smfu.ctrl.timeout back to its reset value (0x400), as the
	// driver leaves it: setup_smfu set 4 x 256 cycles to test the requester's
	// timeout quickly, and at the completer side (smfu_cpl2pkt, x 64 cycles)
	// that is 256..512 cycles, less than the RMA unit's reads of host memory
	// take with 8 in flight: some came back Completer Abort (RD_ERR).
	bar_wr(tb, EXTOLL_SMFU_BASE + EXTOLL_SMFU_CTRL, 0x400ull << 32);
	section("RMA: put host memory -> device memory, get it back (host NIC posts by BAR0), by content");
	for (uint64_t o = 0; o < 0x100000 + 0x2000; o += 4)
		tb.mem_set(RMA_HA + o, rma_pat(RMA_HA + o));
	struct { uint32_t len; uint64_t sa, da, db; } sz[] = {
		{8, 0x0, 0x0, 0x0}, {256, 0x40, 0x80, 0xc0}, {4100, 0x24, 0x38, 0x1f0}, {65536 + 12, 0x10c, 0xff8, 0x4},
		{1048576, 0x0, 0x0, 0x0}};
	uint64_t done0 = rma_rd(tb, N_HOST, EXTOLL_RMA_DONE) & 0xffffffff;
	uint64_t bytes0 = rma_rd(tb, N_HOST, EXTOLL_RMA_BYTES);
	uint64_t sum = 0;
	unsigned k = 0;
	for (auto &z : sz) {
		char what[96];
		snprintf(what, sizeof(what), "put %u B", z.len);
		RmaD p = {N_HOST, RMA_HA + z.sa, N_NAA, NAA_DEVMEM + RMA_DEV + z.da, z.len, cookie++, true, true,
			  RMA_REC + 32 * k, NAA_DEVMEM + RMA_DREC + 32 * k};
		tb.mem_clear(p.rnoti, 16);
		rma_dev_rec_clear(tb, RMA_DREC + 32 * k);
		rma_post(tb, p);
		if (z.len == 1048576) {
			// RRA requests of the same NIC while its RMA unit streams: both share local inport 0
			// (rma_port: the RRA unit's VC 0 packets, the RMA unit's reads on VC 0 too)
			for (unsigned r = 0; r < 16; r++) {
				rra_wr_ok(tb, N_NAA, EXTOLL_INFO_BASE + EXTOLL_INFO_SCRATCH, 0x5ca1ab1e00ull + r, 0, "RRA during a put");
				CHECK_EQ(rra_rd_ok(tb, N_NAA, EXTOLL_INFO_BASE + EXTOLL_INFO_SCRATCH, "RRA during a put"),
					 0x5ca1ab1e00ull + r, "RRA read back during a 1-MiB put");
			}
			CHECK(tb.top()->ovf == 0, "no network buffer overrun with RRA and RMA on one inport");
		}
		uint64_t q0, q1;
		CHECK(rma_host_rec(tb, p.rnoti, &q0, &q1), "%s: requester record in host memory", what);
		rma_check_rec(q0, q1, p, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_HOST, what);
		rma_dev_rec(tb, RMA_DREC + 32 * k, &q0, &q1);
		rma_check_rec(q0, q1, p, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_CMP, N_HOST, (std::string(what) + " (completer, device memory)").c_str());
		if (z.len <= 4100) {
			// device memory by the aperture (the host's reads: 256-B aligned pieces)
			unsigned bad = 0;
			for (uint32_t o = 0; o < z.len; o += 4) {
				uint8_t b[4];
				ap_rd(tb, AP_MEM + RMA_DEV + z.da + o, b, 4);
				uint32_t v = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
				bad += v != rma_pat(p.sa + o);
				if (o >= 64 && o + 64 < z.len)
					o += 60;   // spot checks inside large ranges
			}
			CHECK(bad == 0, "%s: %u device-memory dwords differ (aperture reads)", what, bad);
		}
		// get it back into another host buffer; its requester record into the notify window
		snprintf(what, sizeof(what), "get %u B", z.len);
		RmaD g = {N_NAA, p.da, N_HOST, RMA_HB + z.db, z.len, cookie++, true, true, RMA_WIN + 32 * k,
			  RMA_REC + 0x400 + 32 * k};
		tb.mem_clear(g.cnoti, 16);
		tb.mem_clear(g.da, z.len);
		rma_post(tb, g);
		uint64_t e = rma_entry(tb);
		CHECK(e != ~0ull, "%s: notification-queue entry", what);
		uint64_t a = RING + 16 * ((g_cons - 1) % 16);
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_DATA, tb.mem64(a)),
			 (uint64_t)g.cookie | (uint64_t)EXTOLL_RMA_ST_OK << 16 | (uint64_t)EXTOLL_RMA_KIND_REQ << 24,
			 "get: entry data = record dword 0 (cookie, status OK, kind REQ)");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_OFFSET, tb.mem64(a)), HALF + 32 * k, "get: entry offset >= 0x80000");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_NODE, tb.mem64(a + 8)), N_HOST, "get: entry node");
		CHECK(rma_host_rec(tb, g.cnoti, &q0, &q1), "%s: completer record in host memory", what);
		rma_check_rec(q0, q1, g, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_CMP, N_HOST, what);
		unsigned bad = 0;
		for (uint32_t o = 0; o < z.len; o += 4)
			bad += tb.mem32(g.da + o) != rma_pat(p.sa + o);
		CHECK(bad == 0, "%s: %u host dwords differ from the source after put + get", what, bad);
		CHECK_EQ(tb.mem32(g.da + z.len), 0, "get: the dword after the range untouched");
		sum += 2ull * z.len;
		k++;
	}
	CHECK_EQ((rma_rd(tb, N_HOST, EXTOLL_RMA_DONE) & 0xffffffff) - done0, 2 * k, "host NIC rma.done");
	CHECK_EQ(rma_rd(tb, N_HOST, EXTOLL_RMA_BYTES) - bytes0, sum, "host NIC rma.bytes");
	uint64_t st = rma_rd(tb, N_HOST, EXTOLL_RMA_STATUS);
	CHECK_EQ(st & 0x1ff, 4, "host NIC rma.status: 4 free, not busy");
	CHECK((rma_rd(tb, N_HOST, EXTOLL_RMA_STATS) & 0xff) >= 2, "host NIC rma.stats.rd_hwm: several reads in flight");

	section("RMA errors through the NICs: a source outside the NAA's windows (RD_ERR), a destination outside (WR_ERR), a bad descriptor");
	{
		const uint64_t OUT = NAA_DEVMEM + 0x04000000;   // above the prefetchable window
		RmaD g = {N_NAA, OUT, N_HOST, RMA_HB + 0x200000, 4096, cookie++, true, false, RMA_REC + 0x800, 0};
		tb.mem_clear(g.rnoti, 16);
		tb.mem_clear(g.da, 4096);
		rma_post(tb, g);
		uint64_t q0, q1;
		CHECK(rma_host_rec(tb, g.rnoti, &q0, &q1), "RD_ERR: requester record");
		rma_check_rec(q0, q1, g, EXTOLL_RMA_ST_RD_ERR, EXTOLL_RMA_KIND_REQ, N_HOST, "get from outside the windows");
		unsigned w = 0;
		for (uint32_t o = 0; o < 4096; o += 4)
			w += tb.mem32(g.da + o) != 0;
		CHECK_EQ(w, 0, "RD_ERR: nothing written at D");
		RmaD p = {N_HOST, RMA_HA, N_NAA, OUT, 512, cookie++, true, false, RMA_REC + 0x820, 0};
		tb.mem_clear(p.rnoti, 16);
		rma_post(tb, p);
		CHECK(rma_host_rec(tb, p.rnoti, &q0, &q1), "WR_ERR: requester record");
		rma_check_rec(q0, q1, p, EXTOLL_RMA_ST_WR_ERR, EXTOLL_RMA_KIND_REQ, N_HOST, "put outside the windows");
		RmaD b = {N_HOST, RMA_HA, N_NAA, NAA_DEVMEM, 6, cookie++, true, true, RMA_REC + 0x840, 0};
		tb.mem_clear(b.rnoti, 16);
		rma_post(tb, b);
		CHECK(rma_host_rec(tb, b.rnoti, &q0, &q1), "BAD_DESC: requester record");
		rma_check_rec(q0, q1, b, EXTOLL_RMA_ST_BAD_DESC, EXTOLL_RMA_KIND_REQ, N_HOST, "length 6");
		uint64_t er = rma_rd(tb, N_HOST, EXTOLL_RMA_ERRORS);
		CHECK(er >> 32 >= 1 && (er & 0xffffffff) >= 1, "rma.errors counts RD_ERR and BAD_DESC (0x%" PRIx64 ")", er);
		CHECK((rma_rd(tb, N_HOST, EXTOLL_RMA_WR_ERR) & 0xffffffff) >= 1, "rma.wr_err counted");
	}

	section("RMA posted at the NAA by RRA: device memory -> host memory, records in device memory and the host's queue");
	{
		RmaD d = {N_NAA, NAA_DEVMEM + RMA_DEV + 0x38, N_HOST, RMA_HB + 0x300000, 8192, cookie++, true, true,
			  NAA_DEVMEM + RMA_DREC + 0x800, RMA_WIN + 0x800};
		rma_dev_rec_clear(tb, RMA_DREC + 0x800);
		tb.mem_clear(d.da, 8192);
		uint64_t done_n = rma_rd(tb, N_NAA, EXTOLL_RMA_DONE) & 0xffffffff;
		rma_post(tb, d, N_NAA);
		uint64_t e = rma_entry(tb);
		CHECK(e != ~0ull, "NAA-posted: completer notification as a queue entry at the host");
		uint64_t a = RING + 16 * ((g_cons - 1) % 16);
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_DATA, tb.mem64(a)),
			 (uint64_t)d.cookie | (uint64_t)EXTOLL_RMA_KIND_CMP << 24, "NAA-posted: entry data (cookie, OK, kind CMP)");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_NODE, tb.mem64(a + 8)), N_NAA, "NAA-posted: entry node = the NAA");
		unsigned bad = 0;
		for (uint32_t o = 0; o < 8192; o += 4)   // the device memory holds the 1-MiB put's data
			bad += tb.mem32(d.da + o) != rma_pat(RMA_HA + 0x38 + o);
		CHECK(bad == 0, "NAA-posted: %u host dwords differ from the device memory's content", bad);
		uint64_t q0, q1;
		tb.drain(200);
		rma_dev_rec(tb, RMA_DREC + 0x800, &q0, &q1);
		rma_check_rec(q0, q1, d, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_NAA, "NAA-posted: requester record in device memory");
		CHECK_EQ((rma_rd(tb, N_NAA, EXTOLL_RMA_DONE) & 0xffffffff) - done_n, 1, "NAA rma.done");
	}

	section("RMA into host memory from another node's RMA unit: only inside the windows the host exposed (dma block, endpoint role)");
	{
		const uint32_t D = EXTOLL_DMA_BASE;
		const uint64_t EXP = RMA_HB + 0x600000;          // the exposed region: 2 pages, a guard page either side
		const uint64_t SA = NAA_DEVMEM + RMA_DEV + 0x38;  // device memory holding the 1-MiB put's data
		const uint32_t GUARD = 0xa5a5a5a5u;
		// window 0: the notify window's RMA records (write); window 1: the region (read, write)
		bar_wr(tb, D + EXTOLL_DMA_WIN_LIMIT_N(0), (WIN + EXTOLL_NQ_WIN_RMA_END - 1) & EXTOLL_DMA_WIN_LIMIT_LIMIT_MASK);
		bar_wr(tb, D + EXTOLL_DMA_WIN_BASE_N(0), (WIN + EXTOLL_NQ_WIN_RMA_OFF) | EXTOLL_DMA_WIN_BASE_WRITE_MASK);
		bar_wr(tb, D + EXTOLL_DMA_WIN_LIMIT_N(1), EXP + 0x1000);
		bar_wr(tb, D + EXTOLL_DMA_WIN_BASE_N(1), EXP | EXTOLL_DMA_WIN_BASE_READ_MASK | EXTOLL_DMA_WIN_BASE_WRITE_MASK);
		bar_wr(tb, D + EXTOLL_DMA_CTRL, EXTOLL_DMA_CTRL_ENFORCE_MASK);
		for (uint64_t o = 0; o < 0x4000; o += 4)
			tb.mem_set(EXP - 0x1000 + o, GUARD);
		uint64_t ref0 = bar_rd(tb, D + EXTOLL_DMA_REFUSED);
		uint64_t q0, q1;
		// the NAA's requester record in device memory: wait for its valid bit
		auto naa_rec = [&](uint64_t off) {
			for (int i = 0; i < 100; i++) {
				tb.drain(2000);
				rma_dev_rec(tb, off, &q0, &q1);
				if (EXTOLL_REC_GET(EXTOLL_RMA_NOTI_VALID, q1))
					return true;
			}
			return false;
		};
		auto guard_ok = [&](uint64_t from, uint64_t to) {
			unsigned bad = 0;
			for (uint64_t a = from; a < to; a += 4)
				bad += tb.mem32(a) != GUARD;
			return bad;
		};

		// inside: 8 KiB put by the NAA, the completer entry at the host
		RmaD in = {N_NAA, SA, N_HOST, EXP, 8192, cookie++, true, true, NAA_DEVMEM + RMA_DREC + 0xa00, RMA_WIN + 0xa00};
		rma_dev_rec_clear(tb, RMA_DREC + 0xa00);
		rma_post(tb, in, N_NAA);
		CHECK(rma_entry(tb) != ~0ull, "exposed: completer notification as a queue entry (window 0)");
		CHECK(naa_rec(RMA_DREC + 0xa00), "exposed: requester record in device memory");
		rma_check_rec(q0, q1, in, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_NAA, "put inside the exposed region");
		unsigned bad = 0;
		for (uint32_t o = 0; o < 8192; o += 4)
			bad += tb.mem32(EXP + o) != rma_pat(RMA_HA + 0x38 + o);
		CHECK(bad == 0, "exposed: %u dwords of the region differ from the device memory's", bad);

		// outside: the page after the region, the page before it, a put straddling its end
		struct { uint64_t da; uint32_t len; const char *what; } outs[] = {
			{EXP + 0x2000, 256, "put into the page after the region"},
			{EXP - 0x1000, 4096, "put into the page before the region"},
			{EXP + 0x2000 - 8, 16, "put straddling the region's end"},
		};
		for (unsigned k = 0; k < 3; k++) {
			RmaD o = {N_NAA, SA, N_HOST, outs[k].da, outs[k].len, cookie++, true, false,
				  NAA_DEVMEM + RMA_DREC + 0xa40 + 0x10 * k, 0};
			rma_dev_rec_clear(tb, RMA_DREC + 0xa40 + 0x10 * k);
			rma_post(tb, o, N_NAA);
			CHECK(naa_rec(RMA_DREC + 0xa40 + 0x10 * k), "%s: requester record", outs[k].what);
			rma_check_rec(q0, q1, o, EXTOLL_RMA_ST_WR_ERR, EXTOLL_RMA_KIND_REQ, N_NAA, outs[k].what);
		}
		CHECK_EQ(guard_ok(EXP - 0x1000, EXP) + guard_ok(EXP + 0x2000, EXP + 0x3000), 0u,
			 "nothing written outside the region (guard dwords changed)");
		// a get from host memory outside the region: the reads refused (UR): RD_ERR
		RmaD g = {N_HOST, EXP + 0x2000, N_NAA, NAA_DEVMEM + RMA_DEV + 0x300000, 256, cookie++, true, false,
			  NAA_DEVMEM + RMA_DREC + 0xa80, 0};
		rma_dev_rec_clear(tb, RMA_DREC + 0xa80);
		rma_post(tb, g, N_NAA);
		CHECK(naa_rec(RMA_DREC + 0xa80), "get outside the region: requester record");
		rma_check_rec(q0, q1, g, EXTOLL_RMA_ST_RD_ERR, EXTOLL_RMA_KIND_REQ, N_NAA, "get outside the region");
		// ... and inside: the region's data
		RmaD gi = {N_HOST, EXP, N_NAA, NAA_DEVMEM + RMA_DEV + 0x300000, 256, cookie++, true, false,
			   NAA_DEVMEM + RMA_DREC + 0xa90, 0};
		rma_dev_rec_clear(tb, RMA_DREC + 0xa90);
		rma_post(tb, gi, N_NAA);
		CHECK(naa_rec(RMA_DREC + 0xa90), "get inside the region: requester record");
		rma_check_rec(q0, q1, gi, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_NAA, "get inside the region");
		uint64_t ref1 = bar_rd(tb, D + EXTOLL_DMA_REFUSED);
		CHECK((ref1 >> 32) - (ref0 >> 32) >= 3 && (ref1 & 0xffffffff) - (ref0 & 0xffffffff) >= 4,
		      "dma.refused counts the refused writes and reads (0x%" PRIx64 " -> 0x%" PRIx64 ")", ref0, ref1);
		uint64_t last = bar_rd(tb, D + EXTOLL_DMA_LAST);
		CHECK(EXTOLL_REC_GET(EXTOLL_DMA_LAST_VALID, last) == 1,
		      "dma.last valid (0x%" PRIx64 ")", last);
		// the host's own RMA unit is not policed: a get into host memory outside every window
		RmaD own = {N_NAA, SA, N_HOST, RMA_HB + 0x700000, 4096, cookie++, true, false, RMA_REC + 0xa00, 0};
		tb.mem_clear(own.rnoti, 16);
		tb.mem_clear(own.da, 4096);
		rma_post(tb, own);
		CHECK(rma_host_rec(tb, own.rnoti, &q0, &q1), "own RMA unit: requester record in host memory (no window)");
		rma_check_rec(q0, q1, own, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_HOST, "own get into host memory outside the windows");
		bad = 0;
		for (uint32_t o = 0; o < 4096; o += 4)
			bad += tb.mem32(own.da + o) != rma_pat(RMA_HA + 0x38 + o);
		CHECK(bad == 0, "own RMA unit: %u dwords differ", bad);
		// enforcement off, windows closed: as the later sections expect
		bar_wr(tb, D + EXTOLL_DMA_CTRL, 0);
		for (int w = 0; w < 2; w++) {
			bar_wr(tb, D + EXTOLL_DMA_WIN_BASE_N(w), 0);
			bar_wr(tb, D + EXTOLL_DMA_WIN_LIMIT_N(w), 0);
		}
	}

	section("RMA descriptors from the accelerator: its DMA writes into the NAA's rma.win window post them, its reads see rma.status");
	{
		const uint64_t WINB = 0x7f00000000ull;   // device-side address of the window (high: no host memory there)
		const uint32_t STAGE = 0x8000;           // the descriptor staged in device memory
		rra_wr_ok(tb, N_NAA, EXTOLL_RMA_BASE + EXTOLL_RMA_WIN, WINB | 1, 0, "naa rma.win");
		RmaD d = {N_NAA, NAA_DEVMEM + RMA_DEV + 0x38, N_HOST, RMA_HB + 0x400000, 4096, cookie++, true, true,
			  NAA_DEVMEM + RMA_DREC + 0x900, RMA_WIN + 0x900};
		uint64_t w[6] = {(uint64_t)d.sn << 48 | d.sa, (uint64_t)d.dn << 48 | d.da, rma_len_word(d), d.rnoti, d.cnoti, 1};
		uint8_t b[48];
		for (int i = 0; i < 48; i++)
			b[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
		ap_wr(tb, AP_MEM + STAGE, b, 48);
		rma_dev_rec_clear(tb, RMA_DREC + 0x900);
		tb.mem_clear(d.da, 4096);
		uint64_t done_n = rma_rd(tb, N_NAA, EXTOLL_RMA_DONE) & 0xffffffff;
		size_t m0 = tb.mwrs.size();
		// the accelerator's D2H job: 48 bytes of device memory to the window at offset 0x08 (d_src .. post)
		job(tb, ACCEL_OP_D2H, WINB + EXTOLL_RMA_D_SRC, STAGE, 48);
		CHECK(wait_entry(tb, g_cons) >= 0, "window: the job's interrupt");
		g_cons++;
		bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
		uint64_t e = rma_entry(tb);
		CHECK(e != ~0ull, "accelerator-posted: the completer record as a queue entry at the host");
		uint64_t a = RING + 16 * ((g_cons - 1) % 16);
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_DATA, tb.mem64(a)),
			 (uint64_t)d.cookie | (uint64_t)EXTOLL_RMA_KIND_CMP << 24, "accelerator-posted: entry data (cookie, OK, CMP)");
		unsigned bad = 0, leaked = 0;
		for (uint32_t o = 0; o < 4096; o += 4)
			bad += tb.mem32(d.da + o) != rma_pat(RMA_HA + 0x38 + o);
		CHECK(bad == 0, "accelerator-posted: %u host dwords differ from the device memory", bad);
		for (size_t k = m0; k < tb.mwrs.size(); k++)
			leaked += tb.mwrs[k].addr >= WINB && tb.mwrs[k].addr < WINB + 4096;
		CHECK_EQ(leaked, 0, "window writes not passed through to the host");
		uint64_t q0, q1;
		tb.drain(100);
		rma_dev_rec(tb, RMA_DREC + 0x900, &q0, &q1);
		rma_check_rec(q0, q1, d, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_NAA, "accelerator-posted: requester record in device memory");
		CHECK_EQ((rma_rd(tb, N_NAA, EXTOLL_RMA_DONE) & 0xffffffff) - done_n, 1, "accelerator-posted: NAA rma.done");
		// reads through the window: the block header and rma.status into device memory
		job(tb, ACCEL_OP_H2D, WINB, STAGE + 0x100, 64);
		CHECK(wait_entry(tb, g_cons) >= 0, "window read: the job's interrupt");
		g_cons++;
		bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
		CHECK_EQ(acc_rd32(tb, ACCEL_REG_JOB_STATUS) & ACCEL_JOB_ERROR, 0, "window read: job without error");
		uint8_t r[64];
		ap_rd(tb, AP_MEM + STAGE + 0x100, r, 64);
		uint64_t hdr = 0, st = 0;
		for (int i = 0; i < 8; i++) {
			hdr |= (uint64_t)r[i] << (8 * i);
			st |= (uint64_t)r[EXTOLL_RMA_STATUS + i] << (8 * i);
		}
		CHECK_EQ(hdr & 0xffffffff, EXTOLL_RMA_TYPE | EXTOLL_RMA_VER_MINOR << 16 | EXTOLL_RMA_VER_MAJOR << 24,
			 "window read: rma block header");
		CHECK_EQ(st & 0x1ff, 4, "window read: rma.status (4 free, idle)");
		// the accelerator's RMA send job (docs/accelerator.md "RMA send"): the device builds the
		// descriptor itself (source: its BAR2 at the NAA) and waits for the requester record
		acc_wr32(tb, ACCEL_REG_RMA_WIN_LO, (uint32_t)WINB);
		acc_wr32(tb, ACCEL_REG_RMA_WIN_HI, (uint32_t)(WINB >> 32));
		acc_wr32(tb, ACCEL_REG_RMA_NODE, N_NAA);
		for (uint32_t len : {4096u, 65536u, 1u << 20}) {
			RmaD j = {N_NAA, NAA_DEVMEM + RMA_DEV, N_HOST, RMA_HB + 0x500000, len, cookie++, true, true,
				  NAA_DEVMEM + RMA_DREC + 0xa00, RMA_HA + 0x180000};
			tb.mem_clear(j.da, len);
			tb.mem_clear(j.cnoti, 16);
			acc_wr32(tb, ACCEL_REG_JOB_RMA, N_HOST | (uint32_t)j.cookie << 16);
			acc_wr32(tb, ACCEL_REG_JOB_RNOTI, RMA_DREC + 0xa00);
			acc_wr32(tb, ACCEL_REG_JOB_CNOTI_LO, (uint32_t)j.cnoti);
			acc_wr32(tb, ACCEL_REG_JOB_CNOTI_HI, (uint32_t)(j.cnoti >> 32));
			job(tb, ACCEL_OP_RMA, j.da, RMA_DEV, len);
			uint64_t q0, q1;
			CHECK(rma_host_rec(tb, j.cnoti, &q0, &q1), "RMA send %u B: completer record in host memory", len);
			rma_check_rec(q0, q1, j, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_CMP, N_NAA, "RMA send: completer record");
			CHECK(wait_entry(tb, g_cons, 400000) >= 0, "RMA send %u B: the job's interrupt after the record", len);
			g_cons++;
			bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
			uint32_t jst = acc_rd32(tb, ACCEL_REG_JOB_STATUS), cyc = acc_rd32(tb, ACCEL_REG_JOB_CYCLES);
			CHECK((jst & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR)) == ACCEL_JOB_DONE && acc_rd32(tb, ACCEL_REG_RESULT_LO) == len,
			      "RMA send %u B: job done, RESULT = length (status 0x%x)", len, jst);
			unsigned bad = 0;
			for (uint32_t o = 0; o < len; o += 4)   // the device memory holds the 1-MiB put's data
				bad += tb.mem32(j.da + o) != rma_pat(RMA_HA + o);
			CHECK(bad == 0, "RMA send %u B: %u host dwords differ from the device memory", len, bad);
			rma_dev_rec(tb, RMA_DREC + 0xa00, &q0, &q1);
			rma_check_rec(q0, q1, j, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_NAA, "RMA send: requester record");
			printf("  RMA send job %7u B, device memory -> host memory: %u device cycles, %.2f B/cycle\n", len, cyc,
			       (double)len / cyc);
		}
		// disabled: the same write goes to the host as before
		rra_wr_ok(tb, N_NAA, EXTOLL_RMA_BASE + EXTOLL_RMA_WIN, WINB, 0, "naa rma.win off");
		job(tb, ACCEL_OP_D2H, WINB + EXTOLL_RMA_D_SRC, STAGE, 48);
		CHECK(wait_entry(tb, g_cons) >= 0, "window off: the job's interrupt");
		g_cons++;
		bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
		CHECK_EQ(tb.mem64(WINB + EXTOLL_RMA_D_SRC), w[0], "window off: the write reached host memory");
		CHECK_EQ((rma_rd(tb, N_NAA, EXTOLL_RMA_DONE) & 0xffffffff) - done_n, 4, "window off: no descriptor posted");
	}

	section("RMA third party: the host NIC copies device memory to device memory on the NAA");
	{
		RmaD d = {N_NAA, NAA_DEVMEM + RMA_DEV + 0x38, N_NAA, NAA_DEVMEM + 0x20014, 4100, cookie++,
			  true, false, RMA_REC + 0x860, 0};
		tb.mem_clear(d.rnoti, 16);
		rma_post(tb, d);
		uint64_t q0, q1;
		CHECK(rma_host_rec(tb, d.rnoti, &q0, &q1), "third party: requester record");
		rma_check_rec(q0, q1, d, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_HOST, "third party");
		unsigned bad = 0;
		for (uint32_t o = 0; o < 4100; o += 4) {
			uint8_t b[4];
			ap_rd(tb, AP_MEM + 0x20014 + o, b, 4);
			uint32_t v = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
			bad += v != rma_pat(RMA_HA + 0x38 + o);
			if (o >= 64 && o + 64 < 4100)
				o += 60;
		}
		CHECK(bad == 0, "third party: %u device dwords differ", bad);
	}
}

// ---------------------------------------------------------------------------
// Test
// ---------------------------------------------------------------------------
// ---------------------------------------------------------------------------
// DMA windows (docs/security.md): the accelerator's DMA and MSIs reach the
// holder only inside the windows it granted on the NAA (dma.*)
// ---------------------------------------------------------------------------
static void dma_grant(Tb &tb, unsigned i, uint64_t first, uint64_t last, bool rd, bool wr)
{
	uint64_t v = (first & EXTOLL_DMA_WIN_BASE_BASE_MASK) | (rd ? EXTOLL_DMA_WIN_BASE_READ_MASK : 0) |
		     (wr ? EXTOLL_DMA_WIN_BASE_WRITE_MASK : 0);
	rra_wr_ok(tb, N_NAA, EXTOLL_DMA_BASE + EXTOLL_DMA_WIN_LIMIT_N(i), last & EXTOLL_DMA_WIN_LIMIT_LIMIT_MASK, 0,
		  "naa dma.win_limit");
	rra_wr_ok(tb, N_NAA, EXTOLL_DMA_BASE + EXTOLL_DMA_WIN_BASE_N(i), v, 0, "naa dma.win_base");
}

static uint64_t dma_refused(Tb &tb, bool wr)
{
	uint64_t v = rra_rd_ok(tb, N_NAA, EXTOLL_DMA_BASE + EXTOLL_DMA_REFUSED, "naa dma.refused");
	return wr ? EXTOLL_REC_GET(EXTOLL_DMA_REFUSED_WRITES, v) : EXTOLL_REC_GET(EXTOLL_DMA_REFUSED_READS, v);
}

// wait for the job to end; its status
static uint32_t job_wait(Tb &tb)
{
	uint32_t js = 0;
	for (unsigned i = 0; i < 200; i++) {
		js = acc_rd32(tb, ACCEL_REG_JOB_STATUS);
		if (js & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR))
			break;
		tb.idle(100);
	}
	return js;
}

// an entry arrived for the job (its MSI passed): consume it
static bool take_entry(Tb &tb, unsigned timeout)
{
	if (wait_entry(tb, g_cons, timeout) < 0)
		return false;
	g_cons++;
	bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
	bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
	return true;
}

static void test_dma_win(Tb &tb)
{
	section("DMA windows: the accelerator's DMA and MSIs reach the holder only inside its grants (dma.*)");
	const uint32_t D = EXTOLL_DMA_BASE;
	const unsigned LEN = 4096;
	const uint64_t HIN = HBUF + 0x8000;      // inside the granted window
	const uint64_t HOUT = HBUF + 0x20000;    // outside every window
	const uint32_t POISON = 0xdeadbeefu;
	rra_wr_ok(tb, N_NAA, EXTOLL_OWN_BASE + EXTOLL_OWN_CLAIM, EXTOLL_OWN_CLAIM_OP_CLAIM, 0, "claim the NAA");
	dma_grant(tb, 0, HBUF, HBUF + 0xffff, true, true);   // the DMA buffers
	dma_grant(tb, 1, WIN, WIN + 0xfffff, false, true);   // the notify window: MSIs
	rra_wr_ok(tb, N_NAA, D + EXTOLL_DMA_CTRL, EXTOLL_DMA_CTRL_ENFORCE_MASK, 0, "naa dma.ctrl.enforce = 1");
	uint64_t w0 = dma_refused(tb, true), r0 = dma_refused(tb, false);

	// inside: a D2H job writes the host buffer, its MSI arrives
	tb.mem_clear(HIN, LEN);
	job(tb, ACCEL_OP_D2H, HIN, 0x8000, LEN);
	CHECK(take_entry(tb, 20000), "inside the grant: D2H job's notification entry");
	CHECK(devmem_equals(tb, 0x8000, HIN, LEN), "inside the grant: host buffer = device memory");
	CHECK(dma_refused(tb, true) == w0 && dma_refused(tb, false) == r0, "inside the grant: nothing refused");

	// a write outside: dropped, host memory untouched, counted; the job's MSI still arrives
	for (unsigned i = 0; i < LEN; i += 4)
		tb.mem_set(HOUT + i, POISON);
	size_t m0 = tb.mwrs.size();
	job(tb, ACCEL_OP_D2H, HOUT, 0x8000, LEN);
	CHECK(take_entry(tb, 20000), "write outside: the job's MSI (notify window granted) arrives");
	unsigned hits = 0;
	for (size_t k = m0; k < tb.mwrs.size(); k++)
		if (tb.mwrs[k].addr >= HOUT && tb.mwrs[k].addr < HOUT + LEN)
			hits++;
	bool untouched = true;
	for (unsigned i = 0; i < LEN; i += 4)
		if (tb.mem32(HOUT + i) != POISON)
			untouched = false;
	CHECK(hits == 0 && untouched, "write outside: no MWr reached the host (%u), host memory untouched", hits);
	uint64_t w1 = dma_refused(tb, true);
	CHECK(w1 > w0, "write outside: dma.refused.writes counted (%" PRIu64 " -> %" PRIu64 ")", w0, w1);
	uint64_t last = rra_rd_ok(tb, N_NAA, D + EXTOLL_DMA_LAST, "naa dma.last");
	uint64_t la = last & EXTOLL_DMA_LAST_ADDR_MASK;
	CHECK(EXTOLL_REC_GET(EXTOLL_DMA_LAST_VALID, last) && EXTOLL_REC_GET(EXTOLL_DMA_LAST_WRITE, last) && la >= HOUT &&
		      la < HOUT + LEN,
	      "dma.last: a write inside the refused buffer (0x%" PRIx64 ")", last);

	// a read outside: answered UR, the job fails cleanly
	job(tb, ACCEL_OP_H2D, HOUT, 0x9000, LEN);
	uint32_t js = job_wait(tb);
	CHECK(js & ACCEL_JOB_ERROR, "read outside: the device got an error completion, its job failed (status 0x%x)", js);
	take_entry(tb, 4000);   // the error interrupt
	uint64_t r1 = dma_refused(tb, false);
	CHECK(r1 > r0, "read outside: dma.refused.reads counted (%" PRIu64 " -> %" PRIu64 ")", r0, r1);
	last = rra_rd_ok(tb, N_NAA, D + EXTOLL_DMA_LAST, "naa dma.last");
	CHECK(!EXTOLL_REC_GET(EXTOLL_DMA_LAST_WRITE, last) && (last & EXTOLL_DMA_LAST_ADDR_MASK) >= HOUT,
	      "dma.last: a read (0x%" PRIx64 ")", last);

	// the MSI without the notify window: refused, no entry
	uint32_t p0 = (uint32_t)bar_rd(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_PROD);
	rra_wr_ok(tb, N_NAA, D + EXTOLL_DMA_WIN_BASE_N(1), 0, 0, "revoke the notify window");
	w1 = dma_refused(tb, true);
	job(tb, ACCEL_OP_CRC, 0, 0x8000, 64);
	js = job_wait(tb);
	tb.idle(2000);
	CHECK((js & ACCEL_JOB_DONE) && (uint32_t)bar_rd(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_PROD) == p0,
	      "MSI outside every window: job done (0x%x), no notification entry", js);
	CHECK_EQ(dma_refused(tb, true), w1 + 1, "the MSI counted as a refused write");
	last = rra_rd_ok(tb, N_NAA, D + EXTOLL_DMA_LAST, "naa dma.last");
	CHECK_EQ(last & EXTOLL_DMA_LAST_ADDR_MASK, WIN + 0x40, "dma.last: the MSI's address");

	// granted again: the job passes
	dma_grant(tb, 1, WIN, WIN + 0xfffff, false, true);
	tb.mem_clear(HIN, LEN);
	job(tb, ACCEL_OP_D2H, HIN, 0x8000, LEN);
	CHECK(take_entry(tb, 20000), "granted again: the job's MSI arrives");
	CHECK(devmem_equals(tb, 0x8000, HIN, LEN), "granted again: host buffer = device memory");

	// release: the hardware clears the grants
	rra_wr_ok(tb, N_NAA, EXTOLL_OWN_BASE + EXTOLL_OWN_CLAIM, EXTOLL_OWN_CLAIM_OP_RELEASE, 0, "release the NAA");
	uint64_t b0 = rra_rd_ok(tb, N_NAA, D + EXTOLL_DMA_WIN_BASE_N(0), "naa dma.win_base0");
	CHECK(!(b0 & (EXTOLL_DMA_WIN_BASE_READ_MASK | EXTOLL_DMA_WIN_BASE_WRITE_MASK)),
	      "released: window 0's permissions cleared by the hardware (0x%" PRIx64 ")", b0);

	// enforcement off: the old behaviour (everything passes)
	rra_wr_ok(tb, N_NAA, D + EXTOLL_DMA_CTRL, 0, 0, "naa dma.ctrl.enforce = 0");
	job(tb, ACCEL_OP_D2H, HOUT, 0x8000, LEN);
	CHECK(take_entry(tb, 20000), "enforcement off: the job's MSI arrives");
	CHECK(devmem_equals(tb, 0x8000, HOUT, LEN), "enforcement off: the write anywhere reaches host memory");
}

// ---------------------------------------------------------------------------
// Mixed stress (issue 9, docs/network.md "The protocol part"): host aperture
// writes and reads, the device's DMA reads and writes of host memory, its
// MSI-X and BAR0/RRA accesses at once, while every sink the network may wait
// on is held: the host takes the NIC's TLPs slowly (ready 30 %), answers the
// NIC's reads of host memory only when the test lets it (the accelerator's
// DMA tags all outstanding, its job stuck), and the notification ring is full
// with an event held. The other direction keeps working meanwhile, and once
// the host lets go every job, every entry and every byte arrives.
// ---------------------------------------------------------------------------
static bool ap_roundtrip(Tb &tb, uint64_t addr, unsigned r)
{
	uint8_t w[64], g[64];
	for (unsigned i = 0; i < 64; i++)
		w[i] = (uint8_t)(r * 37 + i * 11 + 1);
	ap_wr(tb, addr, w, 64);
	memset(g, 0, sizeof(g));
	return ap_rd(tb, addr, g, 64, nullptr, 50000) && !memcmp(w, g, 64);
}

static void test_stress(Tb &tb)
{
	section("mixed stress: aperture traffic, DMA reads and writes, MSI-X, BAR0 and RRA with the host's reads held, a full ring and a slow host");
	const uint32_t N = EXTOLL_NOTIFY_BASE;
	const unsigned LEN = 16384, ROUNDS = 4;
	const uint64_t HB = HBUF + 0x40000, HB2 = HBUF + 0x80000;
	const uint32_t DOFF = 0x20000, APOFF = 0x40000;
	double rp = tb.drv().ready_prob;
	tb.drv().ready_prob = 0.3;
	// the host NIC's completion timeout for its reads of host memory at the
	// clamp (2 M cycles): the host holds them, it does not lose them
	bar_wr(tb, EXTOLL_SMFU_BASE + EXTOLL_SMFU_CTRL, 0x2000ull << 32);
	bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
	uint64_t fs0 = bar_rd(tb, N + EXTOLL_NOTIFY_FULL_STALLS) & 0xffffffff;
	uint32_t base = g_cons;

	// 15 events leave the ring one entry short of full
	for (unsigned j = 0; j < 15; j++) {
		job(tb, ACCEL_OP_CRC, 0, 0x8000, 64);
		CHECK(wait_entry(tb, base + j, 50000) >= 0, "stress: CRC event %u written", j);
	}

	// the device reads 16 KiB of host memory; the host answers nothing yet
	for (unsigned i = 0; i < LEN; i += 4)
		tb.mem_set(HB + i, 0x3c000000u ^ (i * 0x00030507u));
	tb.defer_mrd = true;
	job(tb, ACCEL_OP_H2D, HB, DOFF, LEN);
	size_t held = 0;
	uint64_t c_hold = tb.cycle();
	for (unsigned k = 0; k < 40; k++) {
		tb.idle(100);
		if (tb.deferred.size() && tb.deferred.size() == held)
			break;
		held = tb.deferred.size();
	}
	CHECK(held >= 4, "stress: the device's reads of host memory stop at its tags (%zu MRd held by the host)", held);

	// meanwhile: aperture writes and reads, the accelerator's registers, BAR0, RRA
	unsigned ok = 0;
	for (unsigned r = 0; r < ROUNDS; r++)
		ok += ap_roundtrip(tb, AP_MEM + APOFF + 64 * r, r);
	CHECK_EQ(ok, ROUNDS, "stress: aperture writes and reads answered while the device's DMA reads wait");
	CHECK_EQ(acc_rd32(tb, ACCEL_REG_ID), ACCEL_MAGIC, "stress: accelerator ID read while its DMA waits");
	CHECK_EQ(bar_rd(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_ID) & EXTOLL_INFO_ID_MAGIC_MASK, EXTOLL_INFO_ID_MAGIC_RESET,
		 "stress: BAR0 read of info.id answered");
	rra_rd_ok(tb, N_NAA, EXTOLL_SMFU_BASE + EXTOLL_SMFU_UP_REQS, "stress: RRA read of the NAA while its device waits");
	uint32_t js = acc_rd32(tb, ACCEL_REG_JOB_STATUS);
	CHECK(!(js & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR)), "stress: the H2D job still waits for host memory (status 0x%x)", js);
	CHECK_EQ(tb.deferred.size(), held, "stress: no read of host memory beyond the device's tags");
	printf("   held the device's reads for %" PRIu64 " cycles (its completion timeout: 4096 idle cycles)\n",
	       tb.cycle() - c_hold);

	// the host answers, a few reads at a time, while aperture traffic goes on;
	// the job's event takes the ring's last entry
	unsigned r = ROUNDS, rel = 0;
	tb.defer_mrd = false;
	for (unsigned k = 0; k < 400 && !tb.deferred.empty(); k++) {
		rel += tb.release_mrd(2);
		tb.defer_mrd = true;        // later reads wait again until the next round
		ok += ap_roundtrip(tb, AP_MEM + APOFF + 64 * (r % 64), r);
		r++;
		tb.defer_mrd = false;
		tb.idle(100);
	}
	tb.defer_mrd = false;
	rel += tb.release_mrd(~0u);
	CHECK(wait_entry(tb, base + 15, 100000) >= 0, "stress: H2D event written (%u reads answered late)", rel);
	CHECK_EQ(ok, r, "stress: aperture round trips during the release");
	js = acc_rd32(tb, ACCEL_REG_JOB_STATUS);
	CHECK((js & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR)) == ACCEL_JOB_DONE, "stress: H2D job status 0x%x", js);
	uint64_t prod = bar_rd(tb, N + EXTOLL_NOTIFY_PROD) & 0xffffffff;
	CHECK_EQ(prod - base, 16, "stress: ring full");

	// the ring is full: the device writes host memory, its event is held.
	// Completions from that device keep PCIe's order behind its posted writes
	// (Base Spec 2.4.1, table 2-40: a completion must not pass a posted
	// request), so an aperture read of it is answered once software drains
	// the ring; the NIC's own BAR0 and RRA to the NAA go on meanwhile
	tb.mem_clear(HB2, LEN);
	job(tb, ACCEL_OP_D2H, HB2, DOFF, LEN);
	uint64_t fs1 = fs0;
	for (unsigned k = 0; k < 200 && fs1 == fs0; k++) {
		tb.idle(200);
		fs1 = bar_rd(tb, N + EXTOLL_NOTIFY_FULL_STALLS) & 0xffffffff;
	}
	CHECK(fs1 > fs0, "stress: the D2H event held at the full ring (notify.full_stalls +%" PRIu64 ")", fs1 - fs0);
	tb.idle(2000);
	prod = bar_rd(tb, N + EXTOLL_NOTIFY_PROD) & 0xffffffff;
	CHECK_EQ(prod - base, 16, "stress: prod stands at the full ring");
	bool same = true;
	for (unsigned i = 0; i < LEN; i += 4)
		if (tb.mem32(HB2 + i) != tb.mem32(HB + i))
			same = false;
	CHECK(same, "stress: D2H data in host memory before its event (= the H2D source)");
	rra_rd_ok(tb, N_NAA, EXTOLL_SMFU_BASE + EXTOLL_SMFU_UP_REQS, "stress: RRA read of the NAA while its event is held");
	struct tlp t, c;
	uint8_t tag = tb.next_tag();
	tlp_mrd(&t, AP_REGS + ACCEL_REG_JOB_STATUS, 1, 0xf, 0, HOST_ID, tag);
	tb.drv().send(t);
	bool early = tb.wait_cpl(&c, 3000);
	CHECK(!early, "stress: an aperture read of the device waits behind its held event");
	unsigned r0 = tb.ring_mwrs;

	// software drains the ring: the held event arrives, then the read's answer
	g_cons = base + 16;
	bar_wr(tb, N + EXTOLL_NOTIFY_CONS, g_cons);
	CHECK(wait_entry(tb, base + 16, 50000) >= 0, "stress: the held D2H event written after cons advanced");
	if (!early) {
		bool got = tb.wait_cpl(&c, 20000);
		CHECK(got && c.tag == tag && c.len_dw == 1 &&
		      (c.payload[0] & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR)) == ACCEL_JOB_DONE,
		      "stress: the waiting read answered after the event: D2H job done (0x%x)", got ? c.payload[0] : 0);
		CHECK(got && tb.cpl_ring.count(tag) && tb.cpl_ring[tag] > r0,
		      "stress: ... and behind the event's entry");
	}
	CHECK(devmem_equals(tb, DOFF, HB, LEN), "stress: device memory = the H2D source (aperture reads)");
	ok = 0;
	for (unsigned k = 0; k < 4; k++)
		ok += ap_roundtrip(tb, AP_MEM + APOFF + 64 * k, 100 + k);
	CHECK_EQ(ok, 4, "stress: aperture writes and reads after the ring was drained");
	g_cons = base + 17;
	bar_wr(tb, N + EXTOLL_NOTIFY_CONS, g_cons);
	bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
	job(tb, ACCEL_OP_CRC, 0, 0x8000, 64);
	CHECK(wait_entry(tb, g_cons, 50000) >= 0, "stress: an event after the stress");
	g_cons++;
	bar_wr(tb, N + EXTOLL_NOTIFY_CONS, g_cons);
	bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
	tb.drv().ready_prob = rp;
	bar_wr(tb, EXTOLL_SMFU_BASE + EXTOLL_SMFU_CTRL, 4ull << 32);
	tb.drain();
}

// ---------------------------------------------------------------------------
// smfu_in's own tag limit on a whole NIC pair (issue 9): the host NIC's
// pass-through receiver (smfu_in MODE 1, NTAGS = 16) toward host memory, with
// host memory holding every MRd (tb.defer_mrd). The NAA's RMA unit gets 8 KiB
// of host memory (8 reads in flight: ctrl.max_rd) and the accelerator reads
// host memory (H2D job, its 8 DMA tags): 16 MRd outstanding at the host, all
// of smfu_in's tags. Then the host's own RMA unit gets device memory into host
// memory, two descriptors: the first one's write lands, its flush read (a
// 1-dword SMFU_RD of its last dword, sent behind the write) is the 17th read
// and finds no tag: it parks in smfu_in, and the second descriptor's four
// 256-byte writes, sent after it, must pass it (PCIe 2.4.1: posted may pass
// non-posted) and land while host memory still holds all 16. Host memory then
// answers one read at a time (the accelerator's first: its DMA timeout is 4096
// idle cycles), later reads wait again; the test counts the MRd outstanding at
// the host all the way: exactly 16 at the peak, never more. At the end every
// transfer's data, the records, the job's event, and normal traffic.
// ---------------------------------------------------------------------------
static void test_in_tags(Tb &tb)
{
	section("smfu_in tag limit at the host NIC: 16 MRd of host memory held, a 17th read parks, the writes behind it land");
	const uint64_t TA = 0x400000000ull;          // NAA RMA source (host memory, 8 KiB)
	const uint64_t TH = 0x410000000ull;          // accelerator H2D source (host memory)
	const uint64_t TC = 0x420000000ull;          // host RMA desc 1 destination (256 B)
	const uint64_t TD = 0x420001000ull;          // host RMA desc 2 destination (1 KiB)
	const uint32_t SOFF = 0x180000;              // device memory: the host RMA's source (1280 B)
	const uint32_t GOFF = 0x1c0000;              // device memory: the NAA RMA's destination
	const uint32_t HOFF = 0x1d0000;              // device memory: the H2D job's destination
	const uint32_t ALEN = 8192, HLEN = 1024;
	static uint16_t cookie = 0x700;
	for (uint32_t o = 0; o < ALEN; o += 4)
		tb.mem_set(TA + o, 0x7a000000u ^ (o * 0x00010203u));
	for (uint32_t o = 0; o < HLEN; o += 4)
		tb.mem_set(TH + o, 0x7b000000u ^ (o * 0x00050301u));
	tb.mem_clear(TC, 256 + 16);
	tb.mem_clear(TD, 1024 + 16);
	uint8_t src[1280];
	for (unsigned i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 29 + 7 + (i >> 8));
	for (unsigned o = 0; o < sizeof(src); o += 256)
		ap_wr(tb, AP_MEM + SOFF + o, src + o, 256);
	tb.drain(200);
	auto src32 = [&](uint32_t o) { return (uint32_t)src[o] | src[o + 1] << 8 | src[o + 2] << 16 | (uint32_t)src[o + 3] << 24; };
	auto held_stable = [&](unsigned want, unsigned max_rounds) {
		size_t last = ~(size_t)0;
		for (unsigned k = 0; k < max_rounds; k++) {
			tb.idle(100);
			if (tb.deferred.size() == last && last >= want)
				break;
			last = tb.deferred.size();
		}
		return tb.deferred.size();
	};
	unsigned out0 = tb.mrd_count - tb.mrd_answered;
	CHECK_EQ(out0, 0u, "tags: no MRd of host memory outstanding before");
	tb.mrd_out_peak = out0;
	bar_wr(tb, EXTOLL_SMFU_BASE + EXTOLL_SMFU_CTRL, 0x2000ull << 32);   // the host holds, it does not lose

	// the NAA's RMA unit: get 8 KiB of host memory, 8 reads in flight
	tb.defer_mrd = true;
	rra_wr_ok(tb, N_NAA, EXTOLL_RMA_BASE + EXTOLL_RMA_CTRL, 8 | 0x400ull << EXTOLL_RMA_CTRL_TIMEOUT_SHIFT, 0,
		  "naa rma.ctrl: max_rd 8");
	RmaD g = {N_HOST, TA, N_NAA, NAA_DEVMEM + GOFF, ALEN, cookie++, true, false, NAA_DEVMEM + RMA_DREC + 0xc00, 0};
	rma_dev_rec_clear(tb, RMA_DREC + 0xc00);
	rma_post(tb, g, N_NAA);
	size_t h1 = held_stable(8, 40);
	CHECK_EQ(h1, 8u, "tags: the NAA's RMA unit holds 8 reads of host memory");
	// the accelerator's DMA reads of host memory: its 8 tags
	job(tb, ACCEL_OP_H2D, TH, HOFF, HLEN);
	uint64_t c_acc = tb.cycle();
	size_t h2 = held_stable(16, 40);
	unsigned mrd16 = tb.mrd_count;
	unsigned by_len[2] = {0, 0};
	for (auto &r : tb.deferred)
		by_len[r.len_dw == 64]++;
	printf("   held: %u MRd of 256 B, %u of 128 B (the NAA splits the accelerator's 256-byte reads at its MPS)\n",
	       by_len[1], by_len[0]);
	printf("   MRd of host memory held: %zu (RMA %zu, accelerator %zu), peak outstanding %u\n", h2, h1, h2 - h1,
	       tb.mrd_out_peak - out0);
	CHECK_EQ(h2, 16u, "tags: 16 MRd of host memory outstanding (the accelerator's 8 added)");

	// the host's RMA unit: two gets of device memory into host memory
	tb.mrd_log.clear();
	tb.log_mrd = true;
	RmaD d1 = {N_NAA, NAA_DEVMEM + SOFF, N_HOST, TC, 256, cookie++, true, false, RMA_REC + 0xc00, 0};
	RmaD d2 = {N_NAA, NAA_DEVMEM + SOFF + 256, N_HOST, TD, 1024, cookie++, true, false, RMA_REC + 0xc20, 0};
	tb.mem_clear(d1.rnoti, 16);
	tb.mem_clear(d2.rnoti, 16);
	rma_post(tb, d1);
	rma_post(tb, d2);
	auto landed = [&](uint64_t a, uint32_t so, uint32_t len) {
		for (uint32_t o = 0; o < len; o += 4)
			if (tb.mem32(a + o) != src32(so + o))
				return false;
		return true;
	};
	bool d2_in = tb.wait_for([&] { return landed(TD, 256, 1024); }, 20000);
	uint64_t c_d2 = tb.cycle();
	tb.idle(200);
	bool flush_seen = false;
	for (auto &r : tb.mrd_log)
		flush_seen = flush_seen || (r.addr >= TC && r.addr < TC + 256);
	CHECK(landed(TC, 0, 256), "tags: the first descriptor's write (before the parked read) lands");
	CHECK(d2_in, "tags: the second descriptor's 4 writes, sent behind the parked flush read, land while host memory holds 16 reads");
	CHECK(tb.deferred.size() == 16 && tb.mrd_count == mrd16 && !flush_seen,
	      "tags: ... and the flush read has not reached host memory (%zu held, %u new MRd)", tb.deferred.size(),
	      tb.mrd_count - mrd16);
	CHECK_EQ(tb.mrd_out_peak - out0, 16u, "tags: peak MRd outstanding at the host so far");
	printf("   waited for the second descriptor's data until %" PRIu64 " cycles after the accelerator's job started\n", c_d2 - c_acc);

	// host memory answers one read at a time (the accelerator's first),
	// later reads wait again; every freed tag is taken at once
	unsigned rel = 0, steps = 0;
	uint64_t c_rel = tb.cycle();
	auto is_acc = [&](uint64_t a) { return a >= TH && a < TH + HLEN; };
	while (!tb.deferred.empty() && steps < 2000) {
		unsigned k = tb.release_where(is_acc, 1);
		if (!k)
			k = tb.release_mrd(1);
		rel += k;
		steps++;
		tb.idle(40);
	}
	uint64_t flush_at = 0;
	for (auto &r : tb.mrd_log)
		if (!flush_at && r.addr >= TC && r.addr < TC + 256)
			flush_at = r.cycle;
	CHECK(flush_at > c_d2, "tags: the parked flush read reached host memory after the later writes had landed (%" PRIu64
	      " > %" PRIu64 ")", flush_at, c_d2);
	tb.defer_mrd = false;
	tb.log_mrd = false;
	rel += tb.release_mrd(~0u);
	printf("   %u reads answered one at a time over %" PRIu64 " cycles, peak MRd outstanding %u\n", rel,
	       tb.cycle() - c_rel, tb.mrd_out_peak - out0);

	// everything completes
	uint32_t js = job_wait(tb);
	CHECK((js & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR)) == ACCEL_JOB_DONE, "tags: the H2D job completes (status 0x%x)", js);
	CHECK(take_entry(tb, 50000), "tags: the H2D job's event");
	uint64_t q0, q1;
	CHECK(rma_host_rec(tb, d1.rnoti, &q0, &q1), "tags: host RMA get 1: requester record");
	rma_check_rec(q0, q1, d1, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_HOST, "tags: get 1 (flush read parked)");
	CHECK(rma_host_rec(tb, d2.rnoti, &q0, &q1), "tags: host RMA get 2: requester record");
	rma_check_rec(q0, q1, d2, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_HOST, "tags: get 2 (writes passed)");
	bool nrec = false;
	for (int i = 0; i < 100 && !nrec; i++) {
		tb.drain(2000);
		rma_dev_rec(tb, RMA_DREC + 0xc00, &q0, &q1);
		nrec = EXTOLL_REC_GET(EXTOLL_RMA_NOTI_VALID, q1) != 0;
	}
	CHECK(nrec, "tags: NAA RMA get: requester record in device memory");
	rma_check_rec(q0, q1, g, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_NAA, "tags: NAA get of host memory");
	CHECK(landed(TC, 0, 256) && landed(TD, 256, 1024) && tb.mem32(TC + 256) == 0 && tb.mem32(TD + 1024) == 0,
	      "tags: host memory holds both gets' data, nothing past them");
	CHECK(devmem_equals(tb, GOFF, TA, ALEN), "tags: device memory = the NAA RMA's source (8 KiB)");
	CHECK(devmem_equals(tb, HOFF, TH, HLEN), "tags: device memory = the H2D job's source (1 KiB)");
	CHECK_EQ(tb.mrd_count - tb.mrd_answered, out0, "tags: every MRd of host memory answered");
	CHECK_EQ(tb.mrd_out_peak - out0, 16u, "tags: MRd outstanding at the host: exactly 16 at the peak, never more");
	// normal traffic afterwards
	unsigned ok = 0;
	for (unsigned k = 0; k < 4; k++)
		ok += ap_roundtrip(tb, AP_MEM + 0x1e0000 + 64 * k, 200 + k);
	CHECK_EQ(ok, 4u, "tags: aperture writes and reads afterwards");
	RmaD d3 = {N_NAA, NAA_DEVMEM + SOFF, N_HOST, TC + 0x800, 1280, cookie++, true, false, RMA_REC + 0xc40, 0};
	tb.mem_clear(d3.rnoti, 16);
	rma_post(tb, d3);
	CHECK(rma_host_rec(tb, d3.rnoti, &q0, &q1), "tags: a host RMA get afterwards: requester record");
	rma_check_rec(q0, q1, d3, EXTOLL_RMA_ST_OK, EXTOLL_RMA_KIND_REQ, N_HOST, "tags: get afterwards");
	CHECK(landed(TC + 0x800, 0, 1280), "tags: its data");
	rra_wr_ok(tb, N_NAA, EXTOLL_RMA_BASE + EXTOLL_RMA_CTRL, 0x400ull << EXTOLL_RMA_CTRL_TIMEOUT_SHIFT, 0,
		  "naa rma.ctrl back");
	bar_wr(tb, EXTOLL_SMFU_BASE + EXTOLL_SMFU_CTRL, 0x400ull << 32);
	tb.drain();
}

static void test(Tb &tb)
{
	section("setup: host NIC, tables, root port + accelerator through the tunnel, SMFU both sides, ring");
	setup_host(tb, AP);
	// MPS 256 B (the most Device Capabilities allows), as Linux programs it
	// under a root port with the same MPSS: the 256-B aperture writes below
	// fit it. Device Control 0x2930: MRRS 512 B, Extended Tag, MPS 256 B.
	cfg_wr(tb, 0x48, 0x2930);
	tb.drv().link().devctl(0x2930);
	setup_tables(tb);
	setup_smfu(tb, true);

	section("aperture -> accelerator BAR0: ID register through interval 1");
	CHECK_EQ(acc_rd32(tb, ACCEL_REG_ID), ACCEL_MAGIC, "accel ID via the aperture");

	section("aperture writes and reads of device memory: 1/2/4/8/64/256 bytes");
	{
		std::mt19937 rng(7);
		struct { uint64_t off; unsigned size; } acc[] = {
			{0x1000, 1}, {0x1003, 1}, {0x1006, 2}, {0x1010, 4}, {0x1018, 8}, {0x1104, 4},
			{0x2000, 64}, {0x3000, 256}, {0x3ffff8, 8}, {0x10040, 64}};
		for (auto &x : acc) {
			uint8_t w[256], r[256];
			for (unsigned i = 0; i < x.size; i++)
				w[i] = (uint8_t)rng();
			ap_wr(tb, AP_MEM + x.off, w, x.size);
			memset(r, 0, sizeof(r));
			bool ok = ap_rd(tb, AP_MEM + x.off, r, x.size);
			CHECK(ok && !memcmp(w, r, x.size), "%u bytes at device offset 0x%" PRIx64 ": read back differs",
			      x.size, x.off);
		}
		// neighbours of the 1-byte writes untouched
		uint8_t r[8];
		ap_rd(tb, AP_MEM + 0x1000, r, 8);
		uint8_t w[1];
		ap_rd(tb, AP_MEM + 0x1003, w, 1);
		CHECK_EQ(r[3], w[0], "byte 3 consistent between an 8-byte and a 1-byte read");
		uint64_t hits = bar_rd(tb, EXTOLL_SMFU_BASE + EXTOLL_SMFU_EG_HITS) & 0xffffffff;
		CHECK(hits >= 22, "smfu.eg_hits counted (%" PRIu64 ")", hits);
		uint64_t in = rra_rd_ok(tb, N_NAA, EXTOLL_SMFU_BASE + EXTOLL_SMFU_IN_REQS, "naa in_reqs") & 0xffffffff;
		CHECK(in >= 22, "naa smfu.in_reqs counted (%" PRIu64 ")", in);
	}

	section("ownership: a held NAA takes SMFU requests from its holder only (reads UR, writes dropped, counted), and from the node its holder grants (own.peer)");
	{
		const uint32_t RT = EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_RT_ENTRY, NODE = EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_NODE;
		const uint32_t CLAIM = EXTOLL_OWN_BASE + EXTOLL_OWN_CLAIM, DEN = EXTOLL_OWN_BASE + EXTOLL_OWN_DENIED_SMFU;
		const uint16_t N_OTHER = 6;   // the host NIC sends under another id (router.node set by BAR0)
		unsigned nm = hops() - 1;
		// the way back to N_OTHER is the host's
		bar_wr(tb, RT, rt_entry(N_OTHER, 15, 7));
		for (unsigned k = 0; k < nm; k++)
			rra_wr_ok(tb, N_MIDS[k], RT, rt_entry(N_OTHER, 15, 1), route_n(k + 1), "mid: table (other)");
		rra_wr_ok(tb, N_NAA, RT, rt_entry(N_OTHER, 15, 1), route_n(hops()), "naa: table (other)");
		auto as_node = [&](uint16_t id) {   // then a read, so the aperture requests after it carry the id
			bar_wr(tb, NODE, id == N_HOST ? 0 : (uint64_t)id << EXTOLL_ROUTER_NODE_ID_SHIFT | EXTOLL_ROUTER_NODE_VALID_MASK);
			bar_rd(tb, NODE);
		};
		const uint64_t OFF = 0x7000;
		uint8_t w[8] = {1, 2, 3, 4, 5, 6, 7, 8}, x[8] = {0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee}, r[8];
		// free: anyone; held by the host: the host
		as_node(N_OTHER);
		ap_wr(tb, AP_MEM + OFF, w, 8);
		unsigned st = 99;
		CHECK(ap_rd(tb, AP_MEM + OFF, r, 8, &st) && st == TLP_CPL_SC && !memcmp(r, w, 8),
		      "a free NAA: another node's write and read served (status %u)", st);
		as_node(N_HOST);
		rra_wr_ok(tb, N_NAA, CLAIM, EXTOLL_OWN_CLAIM_OP_CLAIM, 0, "claim as the host");
		uint64_t d0 = rra_rd_ok(tb, N_NAA, DEN, "naa own.denied_smfu") & 0xffffffff;
		st = 99;
		CHECK(ap_rd(tb, AP_MEM + OFF, r, 8, &st) && st == TLP_CPL_SC && !memcmp(r, w, 8),
		      "held: the holder's read served (status %u)", st);
		as_node(N_OTHER);
		ap_wr(tb, AP_MEM + OFF, x, 8);
		st = 99;
		bool ok = ap_rd(tb, AP_MEM + OFF, r, 8, &st);
		CHECK(ok && st == TLP_CPL_UR, "held: another node's read answered UR (ok %d status %u)", ok, st);
		st = 99;
		ok = ap_rd(tb, AP_REGS + ACCEL_REG_ID, r, 4, &st);
		CHECK(ok && st == TLP_CPL_UR, "held: another node's read of the accelerator's ID register answered UR (ok %d status %u)",
		      ok, st);
		as_node(N_HOST);
		st = 99;
		CHECK(ap_rd(tb, AP_MEM + OFF, r, 8, &st) && st == TLP_CPL_SC && !memcmp(r, w, 8),
		      "another node's write dropped: the holder reads its own bytes (status %u)", st);
		uint64_t d1 = rra_rd_ok(tb, N_NAA, DEN, "naa own.denied_smfu") & 0xffffffff;
		CHECK_EQ(d1 - d0, 3, "own.denied_smfu: a write and two reads");
		// the holder's grant (own.peer, docs/security.md): the granted node passes
		const uint32_t PEER = EXTOLL_OWN_BASE + EXTOLL_OWN_PEER;
		rra_wr_ok(tb, N_NAA, PEER, EXTOLL_OWN_PEER_EN_MASK | N_OTHER, 0, "grant the other node (own.peer)");
		CHECK_EQ(rra_rd_ok(tb, N_NAA, PEER, "own.peer") & 0xffffffff, EXTOLL_OWN_PEER_EN_MASK | N_OTHER,
			 "own.peer reads the grant");
		as_node(N_OTHER);
		ap_wr(tb, AP_MEM + OFF, x, 8);
		st = 99;
		CHECK(ap_rd(tb, AP_MEM + OFF, r, 8, &st) && st == TLP_CPL_SC && !memcmp(r, x, 8),
		      "granted: the other node's write and read served (status %u)", st);
		as_node(N_HOST);
		CHECK_EQ((rra_rd_ok(tb, N_NAA, DEN, "naa own.denied_smfu") & 0xffffffff) - d1, 0,
			 "granted: nothing denied");
		// the grant ends with the holding: released, en reads 0; claimed again, refused again
		rra_wr_ok(tb, N_NAA, CLAIM, EXTOLL_OWN_CLAIM_OP_RELEASE, 0, "release as the host (grant set)");
		CHECK_EQ(rra_rd_ok(tb, N_NAA, PEER, "own.peer after release") & EXTOLL_OWN_PEER_EN_MASK, 0,
			 "released: own.peer.en cleared by the hardware");
		rra_wr_ok(tb, N_NAA, CLAIM, EXTOLL_OWN_CLAIM_OP_CLAIM, 0, "claim as the host again");
		as_node(N_OTHER);
		st = 99;
		ok = ap_rd(tb, AP_MEM + OFF, r, 8, &st);
		CHECK(ok && st == TLP_CPL_UR, "claimed again: no grant, the other node's read answered UR (ok %d status %u)",
		      ok, st);
		as_node(N_HOST);
		rra_wr_ok(tb, N_NAA, CLAIM, EXTOLL_OWN_CLAIM_OP_RELEASE, 0, "release as the host");
	}

	section("aperture reads longer than the host's MPS: completions split at MPS and 128-B RCB (2.2.2, 2.3.1.1)");
	{
		// The host's Device Control back to MPS 128 B (0x2910); MRRS 512 B.
		// The link checker (MPS 128, RCB 128) fails any larger completion or
		// a split off a 128-byte boundary; ap_rd reassembles in order.
		cfg_wr(tb, 0x48, 0x2910);
		tb.drv().link().devctl(0x2910);
		std::mt19937 rng(11);
		struct { uint64_t off; unsigned size; } acc[] = {
			{0x5000, 256}, {0x5140, 256}, {0x5204, 192}, {0x6000, 512}, {0x6e40, 448}};
		for (auto &x : acc) {
			uint8_t w[512], r[512];
			for (unsigned i = 0; i < x.size; i++)
				w[i] = (uint8_t)rng();
			for (unsigned o = 0; o < x.size; o += 128)   // writes within MPS too
				ap_wr(tb, AP_MEM + x.off + o, w + o, x.size - o < 128 ? x.size - o : 128);
			memset(r, 0, sizeof(r));
			unsigned n = 0, st = 0;
			bool ok = ap_rd(tb, AP_MEM + x.off, r, x.size, &st, 5000, &n);
			CHECK(ok && st == TLP_CPL_SC && !memcmp(w, r, x.size),
			      "%u-byte read at device offset 0x%" PRIx64 ": read back differs", x.size, x.off);
			unsigned want = (unsigned)(((x.off + x.size + 127) / 128) - x.off / 128);
			CHECK(n == want, "%u-byte read at 0x%" PRIx64 ": %u completions, want %u (one per 128-B block)",
			      x.size, x.off, n, want);
		}
		cfg_wr(tb, 0x48, 0x2930);
		tb.drv().link().devctl(0x2930);
	}

	section("read of an interval whose node does not exist: CA after the timeout, counted");
	{
		uint64_t t0 = bar_rd(tb, EXTOLL_SMFU_BASE + EXTOLL_SMFU_TIMEOUTS) & 0xffffffff;
		uint8_t r[4];
		unsigned st = 0;
		uint64_t c0 = tb.cycle();
		bool ok = ap_rd(tb, AP_NONE + 0x10, r, 4, &st, 4000);
		uint64_t dt = tb.cycle() - c0;
		CHECK(ok && st == TLP_CPL_CA, "want a CA completion (ok %d status %u)", ok, st);
		CHECK(dt >= 4 * 256 && dt < 4 * 256 + 400, "CA after the timeout (%" PRIu64 " cycles)", dt);
		uint64_t t1 = bar_rd(tb, EXTOLL_SMFU_BASE + EXTOLL_SMFU_TIMEOUTS) & 0xffffffff;
		CHECK_EQ(t1 - t0, 1, "smfu.timeouts");
		CHECK_EQ(acc_rd32(tb, ACCEL_REG_ID), ACCEL_MAGIC, "aperture works after the timeout");
	}

	section("accelerator setup through the aperture: MSI-X entry 0 -> notification window");
	acc_wr32(tb, ACCEL_MSIX_TABLE + 0, (uint32_t)(WIN + 0x40));
	acc_wr32(tb, ACCEL_MSIX_TABLE + 4, (uint32_t)((WIN + 0x40) >> 32));
	acc_wr32(tb, ACCEL_MSIX_TABLE + 8, MSI_DATA);
	acc_wr32(tb, ACCEL_MSIX_TABLE + 12, 0);
	acc_wr32(tb, ACCEL_REG_IRQ_VECTOR, 0);
	acc_wr32(tb, ACCEL_REG_IRQ_ENABLE, ACCEL_IRQ_DONE | ACCEL_IRQ_ERROR);
	CHECK_EQ(acc_rd32(tb, ACCEL_MSIX_TABLE + 8), MSI_DATA, "MSI-X data read back");

	section("DMA host -> device (4 KiB), then device -> host (4 KiB), notifications after the data");
	{
		const unsigned LEN = 4096;
		for (unsigned i = 0; i < LEN; i += 4)
			tb.mem_set(HBUF + i, 0x5a000000u ^ (i * 0x01010101u));
		unsigned mrd0 = tb.mrd_count;
		job(tb, ACCEL_OP_H2D, HBUF, 0x8000, LEN);
		int e = wait_entry(tb, g_cons);
		CHECK(e >= 0, "H2D: notification entry %u (%d)", g_cons, e);
		CHECK(tb.mrd_count > mrd0, "H2D: the host NIC read host memory (%u MRd)", tb.mrd_count - mrd0);
		uint64_t ent = RING + 16 * (g_cons % 16);
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_NODE, tb.mem64(ent + 8 * EXTOLL_NOTIFY_ENT_NODE_QW)), N_NAA,
			 "entry source node");
		CHECK_EQ(EXTOLL_REC_GET(EXTOLL_NOTIFY_ENT_OFFSET, tb.mem64(ent + 8 * EXTOLL_NOTIFY_ENT_OFFSET_QW)), 0x40,
			 "entry window offset");
		CHECK(tb.top()->intx, "host NIC intx with irq_enable.notify");
		uint64_t st = bar_rd(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS);
		CHECK(st & EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK, "irq_status.notify set");
		bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
		g_cons++;
		bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
		tb.drain(20);
		CHECK(!tb.top()->intx, "intx low after clearing irq_status.notify");
		uint32_t js = acc_rd32(tb, ACCEL_REG_JOB_STATUS);
		CHECK((js & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR)) == ACCEL_JOB_DONE, "H2D job status 0x%x", js);
		bool same = devmem_equals(tb, 0x8000, HBUF, LEN);
		CHECK(same, "H2D: device memory = host buffer (read through the aperture)");

		// device -> host into a second buffer
		const uint64_t HB2 = HBUF + 0x10000;
		tb.mem_clear(HB2, LEN);
		size_t m0 = tb.mwrs.size();
		job(tb, ACCEL_OP_D2H, HB2, 0x8000, LEN);
		e = wait_entry(tb, g_cons);
		CHECK(e >= 0, "D2H: notification entry %u", g_cons);
		int last_data = -1;
		unsigned bytes = 0;
		for (size_t k = m0; k < tb.mwrs.size(); k++)
			if (tb.mwrs[k].addr >= HB2 && tb.mwrs[k].addr < HB2 + LEN) {
				last_data = (int)k;
				bytes += 4 * tb.mwrs[k].len_dw;
			}
		CHECK_EQ(bytes, LEN, "D2H: bytes written to host memory");
		CHECK(e > last_data, "notification MWr (%d) after the last data MWr (%d)", e, last_data);
		same = true;
		for (unsigned i = 0; i < LEN; i += 4)
			if (tb.mem32(HB2 + i) != tb.mem32(HBUF + i))
				same = false;
		CHECK(same, "D2H: host buffer = device memory");
		g_cons++;
		bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
		bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
		uint64_t up = rra_rd_ok(tb, N_NAA, EXTOLL_SMFU_BASE + EXTOLL_SMFU_UP_REQS, "naa up_reqs") & 0xffffffff;
		CHECK(up >= 2 * LEN / 256, "naa smfu.up_reqs counted (%" PRIu64 ")", up);
	}

	test_stress(tb);

	section("Extended Tag Field Enable clear: pass-through reads of host memory use 5-bit tags (2.2.6.2)");
	{
		// Device Control 0x2830: Extended Tag off (MPS 256 B, MRRS 512 B).
		// The link checker (ext_tag off) fails any tag above 0x1f; the
		// completions must still find their way back to the SMFU (the
		// completion split of the endpoint side routes tags 0x10..0x1f there).
		cfg_wr(tb, 0x48, 0x2830);
		tb.drv().link().devctl(0x2830);
		const unsigned LEN = 2048;
		const uint64_t HB3 = HBUF + 0x20000;
		for (unsigned i = 0; i < LEN; i += 4)
			tb.mem_set(HB3 + i, 0xc3000000u ^ (i * 0x00010203u));
		unsigned mrd0 = tb.mrd_count;
		tb.mrd_tag_max = 0;
		job(tb, ACCEL_OP_H2D, HB3, 0xa000, LEN);
		int e = wait_entry(tb, g_cons);
		CHECK(e >= 0, "H2D with Extended Tag off: notification entry %u (%d)", g_cons, e);
		CHECK(tb.mrd_count - mrd0 >= LEN / 512, "H2D with Extended Tag off: %u MRd to host memory",
		      tb.mrd_count - mrd0);
		CHECK(tb.mrd_tag_max >= 0x10 && tb.mrd_tag_max <= 0x1f,
		      "MRd tags within 0x10..0x1f with Extended Tag off (highest 0x%x)", tb.mrd_tag_max);
		uint32_t js = acc_rd32(tb, ACCEL_REG_JOB_STATUS);
		CHECK((js & (ACCEL_JOB_DONE | ACCEL_JOB_ERROR)) == ACCEL_JOB_DONE, "H2D job status 0x%x", js);
		CHECK(devmem_equals(tb, 0xa000, HB3, LEN), "H2D with Extended Tag off: device memory = host buffer");
		g_cons++;
		bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
		bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
		cfg_wr(tb, 0x48, 0x2930);
		tb.drv().link().devctl(0x2930);
	}

	section("ring full: events held until cons advances, nothing lost, phases");
	{
		const uint32_t N = EXTOLL_NOTIFY_BASE;
		uint64_t fs0 = bar_rd(tb, N + EXTOLL_NOTIFY_FULL_STALLS) & 0xffffffff;
		uint32_t base = g_cons;
		const unsigned NJ = 19;   // 16 fit, 3 are held
		for (unsigned j = 0; j < NJ; j++) {
			job(tb, ACCEL_OP_CRC, 0, 0x8000, 64);
			tb.drain(300);
		}
		tb.idle(500);
		uint64_t prod = bar_rd(tb, N + EXTOLL_NOTIFY_PROD) & 0xffffffff;
		CHECK_EQ(prod - base, 16, "prod stops at a full ring");
		uint64_t fs1 = bar_rd(tb, N + EXTOLL_NOTIFY_FULL_STALLS) & 0xffffffff;
		CHECK(fs1 - fs0 >= 1, "notify.full_stalls counted (%" PRIu64 ")", fs1 - fs0);
		g_cons = base + 16;
		bar_wr(tb, N + EXTOLL_NOTIFY_CONS, g_cons);
		for (unsigned j = 16; j < NJ; j++)
			CHECK(wait_entry(tb, base + j) >= 0, "held event %u written after cons advanced", j);
		prod = bar_rd(tb, N + EXTOLL_NOTIFY_PROD) & 0xffffffff;
		CHECK_EQ(prod - base, NJ, "all events written");
		g_cons = base + NJ;
		bar_wr(tb, N + EXTOLL_NOTIFY_CONS, g_cons);
		CHECK_EQ(acc_rd32(tb, ACCEL_REG_JOB_COUNT) >= NJ, 1, "accelerator ran every job");
	}

	section("disabled ring: events dropped (prod stands still), the path keeps working");
	{
		const uint32_t N = EXTOLL_NOTIFY_BASE;
		bar_wr(tb, N + EXTOLL_NOTIFY_RING_CTRL, 4u << 8);
		uint64_t p0 = bar_rd(tb, N + EXTOLL_NOTIFY_PROD) & 0xffffffff;
		job(tb, ACCEL_OP_CRC, 0, 0x8000, 64);
		tb.drain(500);
		CHECK_EQ(acc_rd32(tb, ACCEL_REG_ID), ACCEL_MAGIC, "aperture read after a dropped event");
		uint64_t p1 = bar_rd(tb, N + EXTOLL_NOTIFY_PROD) & 0xffffffff;
		CHECK_EQ(p1, p0, "prod unchanged with the ring disabled");
		bar_wr(tb, N + EXTOLL_NOTIFY_RING_CTRL, 1 | 4u << 8);
		job(tb, ACCEL_OP_CRC, 0, 0x8000, 64);
		CHECK(wait_entry(tb, g_cons) >= 0, "event after re-enabling");
		g_cons++;
		bar_wr(tb, N + EXTOLL_NOTIFY_CONS, g_cons);
	}

	// docs/pcie-rules.md row 6: prod and the interrupt advance only once the
	// entry's MWr has left the NIC: intx rises after the entry's last beat was
	// taken, and a BAR0 read that returns the new prod completes behind it
	section("notification race: intx and a BAR0 read of the new notify.prod come after the entry");
	{
		const uint32_t N = EXTOLL_NOTIFY_BASE;
		double rp = tb.drv().ready_prob;
		tb.drv().ready_prob = 0.2;           // the host takes the NIC's TLPs slowly
		unsigned checked = 0, bad = 0, moved = 0, early_irq = 0;
		bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
		tb.drain();
		for (unsigned j = 0; j < 8; j++) {
			uint32_t p0 = (uint32_t)bar_rd(tb, N + EXTOLL_NOTIFY_PROD);
			unsigned r0 = tb.ring_mwrs;
			uint64_t rise0 = tb.intx_rise;
			job(tb, ACCEL_OP_CRC, 0, 0x8000, 64);
			uint32_t p = p0;
			for (unsigned k = 0; k < 300 && p == p0; k++) {
				struct tlp t, c;
				for (unsigned q = 0; q < 4; q++) {   // four reads of prod back to back
					tlp_mrd(&t, BAR0 + N + EXTOLL_NOTIFY_PROD, 2, 0xf, 0xf, HOST_ID, (uint8_t)(0x78 + q));
					tb.drv().send(t);
				}
				for (unsigned q = 0; q < 4; q++) {
					if (!tb.wait_cpl(&c)) {
						bad++;
						break;
					}
					uint32_t v = c.payload[0];
					unsigned seen = tb.cpl_ring.count(c.tag) ? tb.cpl_ring[c.tag] : 0;
					if (v - p0 > seen - r0)
						bad++;       // prod ahead of the entries delivered before this completion
					checked++;
					p = v;
				}
			}
			moved += p != p0;
			CHECK(wait_entry(tb, g_cons) >= 0, "race event %u: entry written", j);
			tb.idle(20);
			if (tb.intx_rise == rise0 || tb.intx_rise <= tb.ring_eop) {
				early_irq++;
				printf("   event %u: intx rise %" PRIu64 " (before %" PRIu64 "), entry eop %" PRIu64 "\n", j,
				       tb.intx_rise, rise0, tb.ring_eop);
			}      // no new rise, or intx rose before the entry's last beat was taken
			g_cons++;
			bar_wr(tb, N + EXTOLL_NOTIFY_CONS, g_cons);
			bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
		}
		tb.drv().ready_prob = rp;
		CHECK(moved == 8 && checked > 8 && bad == 0,
		      "8 events, %u reads of prod: none returned a prod ahead of the entries before it (%u bad)", checked, bad);
		CHECK(early_irq == 0, "intx rose after the entry's last beat was taken, every event (%u early)", early_irq);
	}

	test_dma_win(tb);

	// held by the host, as after an attach: the NAA's own RMA unit (the
	// NAA-posted and third-party sections) still reaches its device memory;
	// the DMA windows enforced as naa_bus grants them (host memory: here all
	// of the model's addresses below 512 GiB, the descriptor window's "off"
	// check writes host memory at 0x7f00000000; and the notify window): the
	// RMA unit's traffic does not pass the table, the accelerator's
	// (descriptor window, DMA) stays inside its grants
	rra_wr_ok(tb, N_NAA, EXTOLL_OWN_BASE + EXTOLL_OWN_CLAIM, EXTOLL_OWN_CLAIM_OP_CLAIM, 0, "claim the NAA for the RMA sections");
	dma_grant(tb, 0, 0, 0x7fffffffffull, true, true);
	dma_grant(tb, 1, WIN, WIN + 0xfffff, false, true);
	rra_wr_ok(tb, N_NAA, EXTOLL_DMA_BASE + EXTOLL_DMA_CTRL, EXTOLL_DMA_CTRL_ENFORCE_MASK, 0, "naa dma.ctrl.enforce = 1");
	uint64_t ref0 = rra_rd_ok(tb, N_NAA, EXTOLL_DMA_BASE + EXTOLL_DMA_REFUSED, "naa dma.refused");
	test_rma(tb);
	CHECK_EQ(rra_rd_ok(tb, N_NAA, EXTOLL_DMA_BASE + EXTOLL_DMA_REFUSED, "naa dma.refused"), ref0,
		 "RMA sections with the windows enforced: nothing refused");
	rra_wr_ok(tb, N_NAA, EXTOLL_OWN_BASE + EXTOLL_OWN_CLAIM, EXTOLL_OWN_CLAIM_OP_RELEASE, 0, "release the NAA after the RMA sections");
	rra_wr_ok(tb, N_NAA, EXTOLL_DMA_BASE + EXTOLL_DMA_CTRL, 0, 0, "naa dma.ctrl.enforce = 0");
	test_in_tags(tb);
}

// ---------------------------------------------------------------------------
// Bench
// ---------------------------------------------------------------------------
// RMA put / get between host memory and the NAA's device memory (docs/rma.md, docs/benchmarks.md)
static void bench_rma(Tb &tb)
{
	printf("  RMA (host NIC posts by BAR0; latency: the post's MWr header into the host NIC -> the requester\n"
	       "  record's MWr header out of it; B/cycle = bytes / latency; format bound 15.06 B/cycle: 256-B\n"
	       "  SMFU_WR of 17 flits)\n");
	for (uint64_t o = 0; o < 0x100000; o += 4)
		tb.mem_set(RMA_HA + o, rma_pat(RMA_HA + o));
	static uint16_t cookie = 0x800;
	if (getenv("TB_RMA_DIAG2")) {   // diagnostics: the device's sink rate for a long aperture stream
		uint8_t w[256] = {0};
		tb.d_in_t.clear();
		tb.diag = true;
		for (unsigned k = 0; k < 2000; k++)
			ap_wr(tb, AP_MEM + 0x100000 + (uint64_t)(k % 1024) * 256, w, 256);
		tb.drain(500);
		tb.diag = false;
		size_t nd = tb.d_in_t.size();
		printf("  diag2: %zu device TLPs, interval first/middle/last 300: %.1f %.1f %.1f\n", nd,
		       (double)(tb.d_in_t[299] - tb.d_in_t[0]) / 299, (double)(tb.d_in_t[nd / 2 + 299] - tb.d_in_t[nd / 2]) / 299,
		       (double)(tb.d_in_t[nd - 1] - tb.d_in_t[nd - 300]) / 299);
	}
	if (getenv("TB_RMA_MAXRD"))
		bar_wr(tb, EXTOLL_RMA_BASE + EXTOLL_RMA_CTRL, strtoul(getenv("TB_RMA_MAXRD"), nullptr, 0) | 0x400ull << 16);
	for (unsigned rcb : {64u, 256u}) {
		tb.host_rcb = rcb;
		printf("  host memory answers with CplD of %u B (RCB split)\n", rcb);
		printf("  | bytes | put host -> NAA: cycles | B/cycle | %% of bound | get NAA -> host: cycles | B/cycle | %% of bound |\n");
		printf("  |---|---|---|---|---|---|---|\n");
		for (uint32_t n : {8u, 64u, 256u, 1024u, 4096u, 16384u, 65536u, 262144u, 1048576u}) {
			uint64_t lat[2];
			for (int dir = 0; dir < 2; dir++) {
				RmaD d = dir == 0 ? RmaD{N_HOST, RMA_HA, N_NAA, NAA_DEVMEM + RMA_DEV, n, cookie++, true, false,
							 RMA_REC, 0}
						  : RmaD{N_NAA, NAA_DEVMEM + RMA_DEV, N_HOST, RMA_HB, n, cookie++, true, false,
							 RMA_REC, 0};
				tb.mem_clear(d.rnoti, 16);
				tb.drain(50);
				size_t m0 = tb.mwrs.size();
				tb.h_tx_flits = 0;
				tb.d_in_tlps = 0;
				tb.d_in_t.clear();
				tb.s_sop_t.clear();
				tb.diag = n == 1048576 && getenv("TB_RMA_DIAG");
				rma_post(tb, d);
				tb.drain(0);
				uint64_t t0 = tb.s_sop;   // the post's MWr
				uint64_t q0, q1;
				bool ok = rma_host_rec(tb, d.rnoti, &q0, &q1, 2000000);
				CHECK(ok && EXTOLL_REC_GET(EXTOLL_RMA_NOTI_STATUS, q0) == EXTOLL_RMA_ST_OK, "bench: RMA %u B", n);
				tb.idle(2);
				uint64_t t1 = 0;
				for (size_t k = m0; k < tb.mwrs.size(); k++)
					if (tb.mwrs[k].addr == d.rnoti)
						t1 = tb.mwrs[k].cycle;
				lat[dir] = t1 - t0;
				if (n == 1048576 && dir == 0)
					printf("  (put 1 MiB: %" PRIu64 " flits on the host's X+ link in %" PRIu64 " cycles = %.2f flits/cycle; "
					       "%" PRIu64 " TLPs into the device in %" PRIu64 " cycles = %.2f B/cycle)\n",
					       tb.h_tx_flits, tb.h_tx_last - tb.h_tx_first + 1,
					       (double)tb.h_tx_flits / (tb.h_tx_last - tb.h_tx_first + 1), tb.d_in_tlps,
					       tb.d_in_last - tb.d_in_first + 1, (double)n / (tb.d_in_last - tb.d_in_first + 1));
				if (n == 1048576 && dir == 0 && getenv("TB_RMA_DIAG")) {
					auto iv = [](const std::vector<uint64_t> &v, size_t a, size_t b) {
						return b > a && b <= v.size() ? (double)(v[b - 1] - v[a]) / (b - 1 - a) : 0.0;
					};
					size_t nd = tb.d_in_t.size(), ns = tb.s_sop_t.size();
					printf("  diag: device TLP interval first/middle/last 500: %.1f %.1f %.1f; host s_tlp sop interval: %.1f %.1f %.1f\n",
					       iv(tb.d_in_t, 0, 500), iv(tb.d_in_t, nd / 2, nd / 2 + 500), iv(tb.d_in_t, nd - 500, nd),
					       iv(tb.s_sop_t, 0, 500), iv(tb.s_sop_t, ns / 2, ns / 2 + 500), iv(tb.s_sop_t, ns - 500, ns));
				}
				if (n == 1048576 && dir == 1)
					printf("  (get 1 MiB: %" PRIu64 " flits on the host's X+ link: the reads)\n", tb.h_tx_flits);
			}
			double bound = 256.0 / 17;   // 15.06: 256 B in 17 flits
			double pb = (double)n / lat[0], gb = (double)n / lat[1];
			printf("  | %u | %" PRIu64 " | %.2f | %.1f%% | %" PRIu64 " | %.2f | %.1f%% |\n", n, lat[0], pb,
			       100 * pb / bound, lat[1], gb, 100 * gb / bound);
		}
	}
	tb.host_rcb = 64;
}

static void bench(Tb &tb)
{
	setup_host(tb, AP);
	setup_tables(tb);
	setup_smfu(tb, false);
	// Max_Payload_Size 256 B on both links (Device Control of the host NIC and of the
	// NAA's root port; at the reset value 128 B the SMFU splits every 256-byte write
	// into two MWr, PCIe Base Spec. 2.2.2)
	cfg_wr(tb, 0x48, 0x2930);
	tb.drv().link().devctl(0x2930);
	tun_wr(tb, 0, 0x0000, 0x048, 0x2930, "rp DevCtl MPS 256, Extended Tag");
	printf("bench tb_nic_smfu: HOPS=%u, link wire delay %d cycles per direction, no back-pressure, MPS 256 B\n",
	       hops(), TB_DELAY);

	// streaming posted writes through the aperture
	for (unsigned size : {64u, 256u}) {
		const unsigned NW = 200;
		uint8_t w[256];
		for (unsigned i = 0; i < size; i++)
			w[i] = (uint8_t)i;
		tb.drain(100);
		tb.h_tx_flits = 0;
		for (unsigned k = 0; k < NW; k++)
			ap_wr(tb, AP_MEM + 0x100000 + (uint64_t)k * size, w, size);
		tb.drain(200);
		uint64_t span = tb.h_tx_last - tb.h_tx_first + 1;
		double bpc = (double)NW * size / span;
		double fmt = (double)size / (1 + size / 16);
		printf("  posted writes %3u B: %u writes, %" PRIu64 " flits in %" PRIu64 " cycles on the host link: "
		       "%.2f B/cycle = %.1f%% of the packet format (%.2f), %.1f%% of the raw link\n",
		       size, NW, tb.h_tx_flits, span, bpc, 100 * bpc / fmt, fmt, 100 * bpc / 16);
		uint8_t r[256];
		ap_rd(tb, AP_MEM + 0x100000 + (uint64_t)(NW - 1) * size, r, size);
		CHECK(!memcmp(r, w, size), "bench: last streamed write arrived");
	}

	// remote 4-byte read, with breakdown
	{
		tb.drain(100);
		uint8_t r[4];
		ap_rd(tb, AP_MEM + 0x40, r, 4);   // warm
		tb.drain(50);
		uint64_t t0c = tb.cycle();
		ap_rd(tb, AP_MEM + 0x80, r, 4);
		(void)t0c;
		uint64_t t0 = tb.s_sop, t1 = tb.m_sop;
		uint64_t h_out = tb.p_h_tx - t0, net1 = tb.p_n_rx - tb.p_h_tx, n_in = tb.p_d_in - tb.p_n_rx;
		uint64_t dev = tb.p_d_out - tb.p_d_in, n_out = tb.p_n_tx - tb.p_d_out;
		uint64_t net2 = tb.p_h_rx - tb.p_n_tx, h_in = t1 - tb.p_h_rx;
		printf("  remote 4-byte read (device memory): %" PRIu64 " cycles, MRd header into the host NIC -> CplD header out\n",
		       t1 - t0);
		printf("    host NIC out %" PRIu64 " | network %" PRIu64 " | NAA NIC in (incl. root port) %" PRIu64
		       " | device %" PRIu64 " | NAA NIC out (incl. root port) %" PRIu64 " | network %" PRIu64
		       " | host NIC in %" PRIu64 "\n", h_out, net1, n_in, dev, n_out, net2, h_in);
		printf("    NIC logic %" PRIu64 ", network %" PRIu64 ", device %" PRIu64 "\n", h_out + n_in + n_out + h_in,
		       net1 + net2, dev);
	}

	// accelerator MSI -> notification MWr / intx; DMA into host memory
	{
		acc_wr32(tb, ACCEL_MSIX_TABLE + 0, (uint32_t)(WIN + 0x40));
		acc_wr32(tb, ACCEL_MSIX_TABLE + 4, (uint32_t)((WIN + 0x40) >> 32));
		acc_wr32(tb, ACCEL_MSIX_TABLE + 8, MSI_DATA);
		acc_wr32(tb, ACCEL_MSIX_TABLE + 12, 0);
		acc_wr32(tb, ACCEL_REG_IRQ_ENABLE, ACCEL_IRQ_DONE);
		tb.drain(100);
		const unsigned LEN = 16384;
		const uint64_t HB2 = HBUF + 0x100000;
		size_t m0 = tb.mwrs.size();
		uint64_t c0 = tb.cycle();
		job(tb, ACCEL_OP_D2H, HB2, 0, LEN);
		tb.drain(0);
		uint64_t t_start = tb.s_sop;   // JOB_CTRL MWr into the host NIC
		int e = wait_entry(tb, g_cons, 40000);
		CHECK(e >= 0, "bench: D2H notification");
		tb.idle(5);
		uint64_t first = 0, last = 0;
		unsigned bytes = 0;
		for (size_t k = m0; k < tb.mwrs.size(); k++)
			if (tb.mwrs[k].addr >= HB2 && tb.mwrs[k].addr < HB2 + LEN) {
				if (!bytes) first = tb.mwrs[k].cycle;
				last = tb.mwrs[k].cycle;
				bytes += 4 * tb.mwrs[k].len_dw;
			}
		uint64_t msi_out = tb.p_d_out;   // the MSI-X MWr is the device's last TLP
		uint64_t nq = e >= 0 ? tb.mwrs[e].cycle : 0;
		printf("  accelerator DMA into host memory (D2H %u B through the NAA): %.2f B/cycle at the host NIC's m_tlp "
		       "(first to last data MWr, %" PRIu64 " cycles); job %" PRIu64 " cycles from the JOB_CTRL MWr\n",
		       bytes, (double)bytes / (last - first + 1), last - first + 1, nq - t_start);
		(void)c0;
		printf("  interrupt behind the DMA data: MSI-X MWr leaving the device -> notify MWr out of the host NIC %" PRIu64
		       " cycles\n", nq - msi_out);
		g_cons++;
		bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
		bar_wr(tb, EXTOLL_INFO_BASE + EXTOLL_INFO_IRQ_STATUS, EXTOLL_INFO_IRQ_STATUS_NOTIFY_MASK);
		tb.drain(200);
		// isolated interrupt: a CRC job (no DMA data), MSI-X alone on the path
		size_t m1 = tb.mwrs.size();
		job(tb, ACCEL_OP_CRC, 0, 0, 64);
		e = wait_entry(tb, g_cons, 20000);
		CHECK(e >= (int)m1, "bench: CRC notification");
		tb.idle(5);
		msi_out = tb.p_d_out;
		nq = tb.mwrs[e].cycle;
		printf("  interrupt forwarding (isolated): MSI-X MWr leaving the device -> notify MWr header out of the host NIC "
		       "%" PRIu64 " cycles, -> intx %" PRIu64 " cycles\n", nq - msi_out, tb.intx_rise - msi_out);
		printf("    NAA NIC (root port + SMFU + router + link_tx) %" PRIu64 ", network %" PRIu64
		       ", host NIC in (link_rx S&F, router, SMFU, entry MWr) %" PRIu64 "; NIC logic %" PRIu64 "\n",
		       tb.p_n_tx - msi_out, tb.p_h_rx - tb.p_n_tx, nq - tb.p_h_rx,
		       (tb.p_n_tx - msi_out) + (nq - tb.p_h_rx));
		g_cons++;
		bar_wr(tb, EXTOLL_NOTIFY_BASE + EXTOLL_NOTIFY_CONS, g_cons);
	}

	bench_rma(tb);
}

int main(int argc, char **argv)
{
	return nic_tb_main<Tb>(argc, argv, std::string("tb_nic_smfu") + (TB_HOPS == 3 ? "3" : ""), test, bench);
}
