// SPDX-License-Identifier: Apache-2.0
/* vmodel.h: the Verilator glue that the back ends of pcie_model.h share
 * (nic_model.cpp, accel_model.cpp, sim/world/naa_model.cpp): context and top,
 * the optional FST trace (built in with NIC_MODEL_TRACE=1), the two clock half
 * cycles with their trace dumps, the network link ports (struct nic_links, for
 * tops that have them), the upstream TLP stream port (for tops that have one),
 * teardown, and the ops-table entries every back end fills the same way.
 * Each back end derives its state struct from vmodel<its Verilated class>
 * (or tlp_port_model<...>) and lists its ops with vops<its struct>. */
#ifndef SIM_MODEL_VMODEL_H
#define SIM_MODEL_VMODEL_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "flash_boot.h"
#include "pcie_model.h"
#include "verilated.h"
#if NIC_MODEL_TRACE
#include "verilated_fst_c.h"
#endif

template <class Top> struct vmodel : pcie_model {
	std::string name;
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Top> top;
#if NIC_MODEL_TRACE
	std::unique_ptr<VerilatedFstC> tfp;
#endif
	bool tracing = false;
	uint64_t cycles = 0;

	/* Context and top called `nm` (dflt if null), tracing to fst_path if it
	 * is given.  false, with a message prefixed by `who`, if the trace cannot
	 * be had: the caller deletes the model. */
	bool open(const char *who, const char *nm, const char *dflt, const char *fst_path)
	{
		name = nm ? nm : dflt;
		ctx.reset(new VerilatedContext);
		ctx->randReset(0);
		if (fst_path) {
#if NIC_MODEL_TRACE
			ctx->traceEverOn(true);
#else
			fprintf(stderr, "%s: FST trace requested but the model was built without --trace-fst\n", who);
			return false;
#endif
		}
		top.reset(new Top(ctx.get(), name.c_str()));
#if NIC_MODEL_TRACE
		if (fst_path) {
			tfp.reset(new VerilatedFstC);
			top->trace(tfp.get(), 99);
			tfp->open(fst_path);
			if (!tfp->isOpen()) {
				fprintf(stderr, "%s: cannot open FST trace %s\n", who, fst_path);
				tfp.reset();
				top.reset();
				return false;
			}
			tracing = true;
		}
#endif
		return true;
	}

	void dump(uint64_t t)
	{
#if NIC_MODEL_TRACE
		if (tracing)
			tfp->dump(t);
#else
		(void)t;
#endif
	}

	/* clk low (inputs set by the caller before), then the rising edge:
	 * time advances one cycle, two trace steps.
	 *
	 * One evaluation per cycle where it gives the same: the RTL is clocked
	 * on the rising edge only, and what the back ends sample between the
	 * two half cycles (ready, valid, data of their ports) comes from
	 * flip-flops, so evaluating at clk low only recomputes the input logic
	 * that the evaluation at the edge computes again before clocking
	 * (Verilator 5 runs its input-combinational region first). clk_low then
	 * only lowers clk and Verilator's record of its last value (which is how
	 * it sees the edge), halving the input-logic work. Not while tracing
	 * (the low half cycle is dumped), nor with COSIM_MODEL_EVAL2=1 (the
	 * replay check compares both), nor for a Verilator without that member
	 * (clk_prev below: then the evaluation is made). */
	void clk_low()
	{
		top->clk = 0;
		if (eval_low()) {
			top->eval();
			dump(2 * cycles);
		} else {
			*clk_prev(top->rootp, 0) = 0;
		}
	}
	void clk_rise()
	{
		top->clk = 1;
		top->eval();
		cycles++;
		ctx->time(2 * cycles);
		dump(2 * cycles - 1);
	}
	/* Verilator 5's previous value of clk, by which its triggers detect the
	 * edge (nullptr: not this Verilator, evaluate at clk low) */
	template <typename R>
	static auto clk_prev(R *r, int) -> decltype(&r->__Vtrigrprev__TOP__clk)
	{
		return &r->__Vtrigrprev__TOP__clk;
	}
	template <typename R> static CData *clk_prev(R *, long) { return nullptr; }
	bool eval_low() const
	{
		static const bool eval2 = [] {
			const char *e = getenv("COSIM_MODEL_EVAL2");
			return e && *e && strcmp(e, "0");
		}();
		return tracing || eval2 || !clk_prev(top->rootp, 0);
	}

	/* straps and the seven link ports (m_phy_* out, s_phy_* in) */
	void set_straps(uint16_t node_id, uint8_t dateline)
	{
		top->cfg_node_id = node_id;
		top->cfg_dateline = dateline & 0x7f;
	}
	void links_get(struct nic_links *o) const
	{
		memcpy(o->data, top->m_phy_data.data(), sizeof(o->data));
		memcpy(o->frm, top->m_phy_frm.data(), sizeof(o->frm));  /* little-endian host */
		memcpy(o->crc, top->m_phy_crc.data(), sizeof(o->crc));
	}
	void links_set(const struct nic_links *in)
	{
		memcpy(top->s_phy_data.data(), in->data, sizeof(in->data));
		memcpy(top->s_phy_frm.data(), in->frm, sizeof(in->frm));
		memcpy(top->s_phy_crc.data(), in->crc, sizeof(in->crc));
	}

	/* final, close the trace, free the top and the context */
	void close()
	{
		/* Verilator 5.006 unregisters the model's scopes from the *thread's*
		 * current context (Verilated::threadContextp()), which may be another
		 * model's or an already destroyed one (dangling: model_bench hung in a
		 * futex).  Point it at this model's context while destroying. */
		Verilated::threadContextp(ctx.get());
		top->final();
#if NIC_MODEL_TRACE
		if (tracing)
			tfp->close();
		tfp.reset();
#endif
		top.reset();
		ctx.reset();
		Verilated::threadContextp(nullptr);
	}

	/* ---- idle-node skipping (pcie_model_ops.skip_state / skip) ----
	 * The state is the Verilated root object (all of the RTL's variables,
	 * ports included) without what is no RTL state and differs between
	 * instances: its VerilatedModule base (the name pointer) before, the
	 * symbol table pointer vlSymsp (its last member) after.  skip_cnt: the
	 * bit offsets in it of the RTL's free-running 64-bit counters, named by
	 * the back end (skip_counter) so that a renamed counter fails the build,
	 * and of their copies in packed structs (skip_mirror). */
	std::vector<size_t> skip_cnt;

	char *state_base() const { return (char *)top->rootp + sizeof(VerilatedModule); }
	size_t state_len() const { return (size_t)((const char *)&top->rootp->vlSymsp - state_base()); }
	template <class T> void skip_counter(const T *field)
	{
		static_assert(sizeof(T) == sizeof(uint64_t), "a 64-bit counter");
		skip_cnt.push_back(8 * (size_t)((const char *)field - state_base()));
	}
	/* skip_mirror's probe: a scratch instance of Top, reset, clocked until
	 * the counter at foff runs, then set to a marker, one rising edge; the bit offsets in the wlen
	 * bytes at woff that hold the counter's value (the last, and how many) */
	static void probe_mirror(size_t foff, size_t woff, size_t wlen, long *found, unsigned *hits)
	{
		const uint64_t marker = 0x5ca1ab1e0ddba11ull;
		VerilatedContext c;

		c.randReset(0);
		{
			Top t(&c, "skip_probe");
			uint64_t v;

			t.clk = 0;
			t.rst = 1;
			t.eval();
			t.clk = 1;
			t.eval();
			t.clk = 0;
			t.rst = 0;
			t.eval();
			/* clocked until the counter runs: the function's reset
			 * outlasts rst (nic_net_fence) */
			for (int i = 0; i < 64; i++) {
				uint64_t a, b;

				memcpy(&a, (char *)t.rootp + foff, sizeof(a));
				t.clk = 1;
				t.eval();
				t.clk = 0;
				t.eval();
				memcpy(&b, (char *)t.rootp + foff, sizeof(b));
				if (b != a)
					break;
			}
			memcpy((char *)t.rootp + foff, &marker, sizeof(marker));
			t.clk = 1;
			t.eval();
			memcpy(&v, (char *)t.rootp + foff, sizeof(v));
			const uint8_t *w = (const uint8_t *)t.rootp + woff;
			for (size_t b = 0; b + 64 <= 8 * wlen; b++) {
				uint64_t x = 0;

				for (unsigned i = 0; i < 64; i++)
					x |= (uint64_t)((w[(b + i) / 8] >> ((b + i) % 8)) & 1) << i;
				if (x == v) {
					*found = (long)b;
					(*hits)++;
				}
			}
			/* as close(): the scopes go from this context */
			Verilated::threadContextp(&c);
			t.final();
		}
		Verilated::threadContextp(nullptr);
	}

	/* A combinational copy of the counter `field` somewhere in the packed
	 * struct `wide` (e.g. the register block's hwif_in.info.cycles), at a bit
	 * offset Verilator does not name: found once in a scratch instance, where
	 * the counter is given a marker value and clocked once.  Not found: not
	 * registered (then the state never repeats and the node is never skipped). */
	template <class T, class W> void skip_mirror(const T *field, const W *wide)
	{
		static_assert(sizeof(T) == sizeof(uint64_t), "a 64-bit counter");
		const size_t foff = (size_t)((const char *)field - (const char *)top->rootp);
		const size_t woff = (size_t)((const char *)wide - (const char *)top->rootp);
		static long found = -2;         /* per Top: -2 not probed yet, -1 none */
		static unsigned hits = 0;

		if (found == -2) {
			found = -1;
			probe_mirror(foff, woff, sizeof(W), &found, &hits);
		}
		if (hits == 1)
			skip_cnt.push_back(8 * (woff - sizeof(VerilatedModule)) + (size_t)found);
		else
			fprintf(stderr, "pcie_model %s: no single copy of a counter in a packed struct "
				"(%u found): this node is never skipped\n", name.c_str(), hits);
	}
	const void *skip_root(size_t *len, const size_t **cnt, unsigned *ncnt) const
	{
		if (tracing)
			return nullptr;
		*len = state_len();
		*cnt = skip_cnt.data();
		*ncnt = (unsigned)skip_cnt.size();
		return state_base();
	}
	void skip_cycles(uint64_t n)
	{
		for (size_t bit : skip_cnt)
			pcie_state_add64((uint8_t *)state_base(), bit, n);
		cycles += n;
		ctx->time(2 * cycles);
	}

	void trace_flush()
	{
#if NIC_MODEL_TRACE
		if (tracing)
			tfp->flush();
#endif
	}
};

/* ---- the upstream TLP stream port (s_tlp_* in, m_tlp_* out, intx) ---- */
struct tlp_beat {
	uint32_t d[4];
	uint8_t keep;
	bool sop, eop;
};

template <class Top> struct tlp_port_model : vmodel<Top> {
	std::deque<tlp_beat> in;        /* beats toward the device */
	uint64_t tlps_pushed = 0, tlps_in = 0;
	bool rx_active = false;         /* a TLP from the device is half received */
	std::vector<uint32_t> rx;       /* its dwords: 4 header, then payload */
	std::deque<std::vector<uint32_t>> out; /* complete TLPs from the device */
	bool warned_framing = false;

	void framing_warn(const char *what)
	{
		if (!warned_framing)
			fprintf(stderr, "pcie_model %s: cycle %llu: m_tlp framing error: %s (further ones not shown)\n",
				this->name.c_str(), (unsigned long long)this->cycles, what);
		warned_framing = true;
	}

	/* Inputs idle, rst and m_tlp_ready high: for the create functions. */
	void init_ports()
	{
		this->top->clk = 0;
		this->top->rst = 1;
		this->top->s_tlp_valid = 0;
		this->top->m_tlp_ready = 1;
		this->top->eval();
	}

	/* One rising edge.  Inputs are driven with clk low, handshakes sampled
	 * before the edge, queues updated after it. */
	void cycle(bool rst)
	{
		Top *t = this->top.get();
		bool s_valid = !rst && !in.empty();

		t->rst = rst;
		t->s_tlp_valid = s_valid;
		if (s_valid) {
			const tlp_beat &b = in.front();
			for (int i = 0; i < 4; i++)
				t->s_tlp_data[i] = b.d[i];
			t->s_tlp_keep = b.keep;
			t->s_tlp_sop = b.sop;
			t->s_tlp_eop = b.eop;
		} else {
			t->s_tlp_keep = 0;
			t->s_tlp_sop = 0;
			t->s_tlp_eop = 0;
		}
		t->m_tlp_ready = 1;
		this->clk_low();

		bool in_fire = s_valid && t->s_tlp_ready;
		bool out_fire = t->m_tlp_valid && t->m_tlp_ready && !rst;
		tlp_beat ob;
		if (out_fire) {
			for (int i = 0; i < 4; i++)
				ob.d[i] = t->m_tlp_data[i];
			ob.keep = t->m_tlp_keep & 0xf;
			ob.sop = t->m_tlp_sop;
			ob.eop = t->m_tlp_eop;
		}

		this->clk_rise();

		if (in_fire) {
			if (in.front().eop)
				tlps_in++;
			in.pop_front();
		}
		if (out_fire)
			take(ob);
	}

	void take(const tlp_beat &ob)
	{
		if (ob.sop) {
			if (rx_active)
				framing_warn("sop inside a TLP (previous one dropped)");
			rx.assign(ob.d, ob.d + 4);
			rx_active = true;
		} else if (!rx_active) {
			framing_warn("beat without sop (dropped)");
			return;
		} else {
			for (int i = 0; i < 4; i++)
				if (ob.keep & (1u << i))
					rx.push_back(ob.d[i]);
		}
		if (ob.eop) {
			out.push_back(std::move(rx));
			rx.clear();
			rx_active = false;
		}
	}

	void reset(unsigned n)
	{
		in.clear();
		tlps_in = tlps_pushed; /* dropped ones count as accepted */
		out.clear();
		rx.clear();
		rx_active = false;
		if (n < 1)
			n = 1;
		for (unsigned i = 0; i < n; i++)
			cycle(true);
		/* leave rst low with inputs settled */
		this->top->rst = 0;
		this->top->s_tlp_valid = 0;
		this->top->eval();
	}

	int push(const uint32_t hdr[4], unsigned hdr_dw, const uint32_t *payload, unsigned payload_dw)
	{
		tlp_beat b;

		if (payload_dw > 1024 || (hdr_dw != 3 && hdr_dw != 4))
			return -1;
		memcpy(b.d, hdr, sizeof(b.d));
		if (hdr_dw == 3)
			b.d[3] = 0;
		b.keep = hdr_dw == 4 ? 0xf : 0x7;
		b.sop = true;
		b.eop = payload_dw == 0;
		in.push_back(b);
		for (unsigned i = 0; i < payload_dw; i += 4) {
			unsigned n = payload_dw - i < 4 ? payload_dw - i : 4;
			tlp_beat p = {};
			memcpy(p.d, payload + i, n * sizeof(uint32_t));
			p.keep = (uint8_t)((1u << n) - 1);
			p.sop = false;
			p.eop = i + 4 >= payload_dw;
			in.push_back(p);
		}
		tlps_pushed++;
		return 0;
	}

	int pop(uint32_t hdr[4], uint32_t *payload, unsigned max_dw, unsigned *payload_dw)
	{
		if (out.empty())
			return 0;
		std::vector<uint32_t> &v = out.front();
		unsigned n = (unsigned)v.size() - 4;

		memcpy(hdr, v.data(), 4 * sizeof(uint32_t));
		if (payload)
			memcpy(payload, v.data() + 4, (n < max_dw ? n : max_dw) * sizeof(uint32_t));
		if (payload_dw)
			*payload_dw = n;
		out.pop_front();
		return 1;
	}

	/* beats pending in either direction */
	bool port_busy() const
	{
		return !in.empty() || rx_active || this->top->m_tlp_valid;
	}
};

/* ---- the configuration flash of a NIC top (extoll_nic, naa_node) ----
 * The part model (hw/lib/flash_part.c) on the top's flash_* pins, backed by
 * the node's flash file (flash_boot_path: build/sim/flash/flash-NAME.bin),
 * and the boot choice (flash_boot.c) on its boot_* straps. step() after every
 * rising edge; true when the NIC requested a reload (the back end then calls
 * boot() and resets). Without a flash file (COSIM_FLASH_DIR=none, or the file
 * cannot be opened: a message) dq1 reads 1 and the identity is the
 * build-time one. Without a boot image, boot_build carries the run-time
 * build id (flash_boot_build_id), which the NIC reports in info.build.
 * docs/flash.md "Boot in simulation". */
template <class Top> struct flash_node {
	struct flash_part *part = nullptr;
	std::string path;
	struct flash_boot boot = {};
	uint64_t reloads = 0;

	void open(const std::string &name)
	{
		char p[4096], err[512];

		if (flash_boot_path(name.c_str(), p, sizeof(p)) < 0)
			return;
		part = flash_part_open(p, nullptr, err, sizeof(err));
		if (!part)
			fprintf(stderr, "pcie_model %s: flash: %s (running without flash)\n", name.c_str(), err);
		else
			path = p;
	}
	/* choose what to boot, drive the straps (then reset the top) */
	void boot_straps(Top *t, const std::string &name, uint32_t from)
	{
		if (part) {
			flash_boot_choose(part, &boot);
			fprintf(stderr, "pcie_model %s: flash %s: boot from 0x%08x: %s\n", name.c_str(), path.c_str(),
				from, boot.why);
		}
		/* no image: the build-time identity, info.build the run-time build id
		 * (the model is built without one: flash_boot_build_id) */
		if (boot.slot == FLASH_BOOT_NONE)
			boot.build = flash_boot_build_id();
		t->boot_slot = (uint8_t)boot.slot;
		t->boot_version = boot.version & 0xffffffffffffull;
		t->boot_build = boot.build;
		t->flash_dq1 = 1;
	}
	bool step(Top *t)
	{
		if (part)
			t->flash_dq1 = (uint8_t)flash_part_step(part, t->flash_sck, t->flash_cs_n, t->flash_dq0);
		return t->reload_req;
	}
	/* after each cycle of the top: the part sees the pins; on the NIC's reload
	 * request (not in reset) choose again and reset the model (reset_fn) */
	template <class F> void after_cycle(Top *t, const std::string &name, bool rst, F reset_fn)
	{
		if (step(t) && !rst) {
			uint32_t from = t->reload_addr;

			reloads++;
			boot_straps(t, name, from);
			reset_fn();
		}
	}
	/* nothing to do for the part while the node is skipped: deselected,
	 * no program/erase running, no reload requested */
	bool idle(const Top *t) const
	{
		return t->flash_cs_n && !t->reload_req && !(part && (flash_part_sr(part) & FLASH_SR_WIP));
	}
	void close()
	{
		flash_part_close(part);
		part = nullptr;
	}
};

/* ---- ops-table entries, the same for every back end M ----
 * M provides reset(n), cycle(rst) and, where the top has them, the TLP port
 * (tlp_port_model), irq(), busy(), overrun(). */
template <class M> struct vops {
	static M *self(pcie_model *m) { return static_cast<M *>(m); }
	static const M *self(const pcie_model *m) { return static_cast<const M *>(m); }

	static void destroy(pcie_model *m)
	{
		M *s = self(m);
		s->close();
		delete s;
	}
	static void reset(pcie_model *m, unsigned n) { self(m)->reset(n); }
	static void step(pcie_model *m, uint64_t n)
	{
		M *s = self(m);
		for (uint64_t i = 0; i < n; i++)
			s->cycle(false);
	}
	static uint64_t cycles(const pcie_model *m) { return self(m)->cycles; }
	static int push(pcie_model *m, const uint32_t hdr[4], unsigned hdr_dw, const uint32_t *payload,
			unsigned payload_dw)
	{
		return self(m)->push(hdr, hdr_dw, payload, payload_dw);
	}
	static int pop(pcie_model *m, uint32_t hdr[4], uint32_t *payload, unsigned max_dw,
		       unsigned *payload_dw)
	{
		return self(m)->pop(hdr, payload, max_dw, payload_dw);
	}
	static uint64_t tlps_pushed(const pcie_model *m) { return self(m)->tlps_pushed; }
	static uint64_t tlps_in(const pcie_model *m) { return self(m)->tlps_in; }
	static bool irq(const pcie_model *m) { return self(m)->irq(); }
	static bool busy(const pcie_model *m) { return self(m)->busy(); }
	static bool overrun(const pcie_model *m) { return self(m)->overrun(); }
	static void set_straps(pcie_model *m, uint16_t node_id, uint8_t dateline)
	{
		self(m)->set_straps(node_id, dateline);
	}
	static void links_get(const pcie_model *m, struct nic_links *o) { self(m)->links_get(o); }
	static void links_set(pcie_model *m, const struct nic_links *in) { self(m)->links_set(in); }
	static void trace_flush(pcie_model *m) { self(m)->trace_flush(); }
	static const void *skip_state(const pcie_model *m, size_t *len, const size_t **cnt, unsigned *ncnt)
	{
		const M *s = self(m);

		return s->skippable() ? s->skip_root(len, cnt, ncnt) : nullptr;
	}
	static void skip(pcie_model *m, uint64_t n) { self(m)->skip_cycles(n); }

	/* The ops table: common() is what every device has; with_port() adds the
	 * upstream TLP port, with_links() the straps, links and overrun,
	 * with_skip() idle-node skipping (M::skippable(), the counters named in
	 * its init) (only instantiated for an M that has them). */
	static pcie_model_ops common()
	{
		pcie_model_ops o = {};

		o.destroy = destroy;
		o.reset = reset;
		o.step = step;
		o.cycles = cycles;
		o.irq = irq;
		o.busy = busy;
		o.trace_flush = trace_flush;
		return o;
	}
	static pcie_model_ops with_port(pcie_model_ops o)
	{
		o.push = push;
		o.pop = pop;
		o.tlps_pushed = tlps_pushed;
		o.tlps_in = tlps_in;
		return o;
	}
	static pcie_model_ops with_links(pcie_model_ops o)
	{
		o.overrun = overrun;
		o.set_straps = set_straps;
		o.links_get = links_get;
		o.links_set = links_set;
		return o;
	}

	static pcie_model_ops with_skip(pcie_model_ops o)
	{
		o.skip_state = skip_state;
		o.skip = skip;
		return o;
	}

	/* new M, opened and initialised by its init(p); NULL (deleted) on failure */
	static pcie_model *create(const pcie_model_ops *ops, const pcie_model_backend *b,
				  const char *who, const char *dflt, const pcie_model_params *p)
	{
		M *s = new M;

		s->ops = ops;
		s->backend = b;
		if (!s->open(who, p->name, dflt, p->fst_path)) {
			delete s;
			return nullptr;
		}
		s->init(p);
		return s;
	}
};

#endif /* SIM_MODEL_VMODEL_H */
