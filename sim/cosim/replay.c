// SPDX-License-Identifier: Apache-2.0
/* cosimd --replay: a recording (record.h) rerun on the RTL alone, no QEMU. */
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "tlp.h"
#include "trace.h"

enum ev_kind { EV_IN, EV_CMD, EV_RESET, EV_OUT, EV_INTX };

struct ev {
	enum ev_kind kind;
	uint64_t cycle;
	unsigned host;
	unsigned hdr_dw, pdw;   /* in: header dwords; in, out: payload dwords */
	unsigned arg;           /* reset-host: cycles; intx: level */
	uint32_t *w;            /* header (in: hdr_dw, out: 4) then payload */
	char *cmd;
	size_t line;
};

struct rp {
	const char *path;
	struct ev *ev;
	size_t nev, cap;
	uint64_t end;
	bool have_end, have_links;
	uint64_t links[4];      /* flits, control words, bit flips, link signature at the end */
	char *topo_text, topo_name[64], device[32], naa_device[32];
	size_t topo_len;
	char build_id[40];
	int skip;               /* -1: none in the header */
	unsigned nhosts;
};

static int bad(const struct rp *r, size_t line, const char *what)
{
	fprintf(stderr, "cosimd: --replay %s:%zu: %s\n", r->path, line, what);
	return -1;
}

/* n hex words from s into w: 0 or -1 */
static int hex_words(char **s, uint32_t *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(*s, &end, 16);
		if (end == *s || errno || v > 0xffffffffu)
			return -1;
		w[i] = (uint32_t)v;
		*s = end;
	}
	return 0;
}

static int add_ev(struct rp *r, const struct ev *e)
{
	if (r->nev == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4096;
		struct ev *n = realloc(r->ev, cap * sizeof(*n));

		if (!n)
			return -1;
		r->ev = n;
		r->cap = cap;
	}
	r->ev[r->nev++] = *e;
	return 0;
}

static int parse_record(struct rp *r, char *s, size_t line, uint64_t *last)
{
	struct ev e = { .line = line };
	char kind[16], *end;
	int n = 0;

	errno = 0;
	e.cycle = strtoull(s, &end, 10);
	if (end == s || errno || *end != ' ')
		return bad(r, line, "expected CYCLE KIND ...");
	if (e.cycle < *last)
		return bad(r, line, "cycle before the previous record's");
	*last = e.cycle;
	s = end;
	if (sscanf(s, " %15s %n", kind, &n) != 1)
		return bad(r, line, "no record kind");
	s += n;
	if (!strcmp(kind, "end")) {
		r->end = e.cycle;
		r->have_end = true;
		return 0;
	}
	if (!strcmp(kind, "cmd")) {
		e.kind = EV_CMD;
		e.cmd = strdup(s);
		return e.cmd && !add_ev(r, &e) ? 0 : bad(r, line, "out of memory");
	}
	if (!strcmp(kind, "links")) {
		if (sscanf(s, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNx64, &r->links[0], &r->links[1],
			   &r->links[2], &r->links[3]) != 4)
			return bad(r, line, "bad link counts");
		r->have_links = true;
		return 0;
	}
	if (!strcmp(kind, "exit"))
		return 0;   /* information: a QEMU's exit changes nothing in the world */
	if (sscanf(s, "%u %n", &e.host, &n) != 1 || e.host >= r->nhosts)
		return bad(r, line, "bad host number");
	s += n;
	if (!strcmp(kind, "reset-host") || !strcmp(kind, "intx")) {
		e.kind = kind[0] == 'r' ? EV_RESET : EV_INTX;
		if (sscanf(s, "%u", &e.arg) != 1 || (e.kind == EV_INTX && e.arg > 1))
			return bad(r, line, "bad number");
		return add_ev(r, &e) ? bad(r, line, "out of memory") : 0;
	}
	if (!strcmp(kind, "in")) {
		e.kind = EV_IN;
		if (sscanf(s, "%u %u %n", &e.hdr_dw, &e.pdw, &n) != 2 || e.hdr_dw < 3 || e.hdr_dw > 4 ||
		    e.pdw > TLP_MAX_PAYLOAD_DW)
			return bad(r, line, "bad TLP sizes");
	} else if (!strcmp(kind, "out")) {
		e.kind = EV_OUT;
		e.hdr_dw = 4;
		if (sscanf(s, "%u %n", &e.pdw, &n) != 1 || e.pdw > TLP_MAX_PAYLOAD_DW)
			return bad(r, line, "bad TLP size");
	} else {
		return bad(r, line, "unknown record kind");
	}
	s += n;
	e.w = malloc(4u * (e.hdr_dw + e.pdw) + 4);
	if (!e.w)
		return bad(r, line, "out of memory");
	if (hex_words(&s, e.w, e.hdr_dw + e.pdw))
		return bad(r, line, "bad TLP dwords");
	return add_ev(r, &e) ? bad(r, line, "out of memory") : 0;
}

static int load(struct rp *r)
{
	FILE *f = fopen(r->path, "r");
	char *buf = NULL;
	size_t cap = 0, line = 0;
	ssize_t len;
	bool started = false;
	uint64_t last = 0;
	int ret = -1, ver;

	if (!f) {
		fprintf(stderr, "cosimd: --replay %s: %s\n", r->path, strerror(errno));
		return -1;
	}
	while ((len = getline(&buf, &cap, f)) >= 0) {
		line++;
		if (len && buf[len - 1] == '\n')
			buf[--len] = 0;
		if (line == 1) {
			if (sscanf(buf, "cosimd-record %d", &ver) != 1) {
				bad(r, line, "not a cosimd recording (no 'cosimd-record VERSION' line)");
				goto out;
			}
			if (ver != RECORD_VERSION) {
				fprintf(stderr, "cosimd: --replay %s: a recording of format version %d; this "
					"cosimd reads version %d only\n", r->path, ver, RECORD_VERSION);
				goto out;
			}
			continue;
		}
		if (buf[0] == '#' || !buf[0])
			continue;
		if (r->have_end) {
			bad(r, line, "a record after 'end'");
			goto out;
		}
		if (started) {
			if (parse_record(r, buf, line, &last))
				goto out;
			continue;
		}
		if (!strcmp(buf, "start")) {
			started = true;
		} else if (!strncmp(buf, "topo ", 5) || !strcmp(buf, "topo")) {
			const char *t = buf[4] ? buf + 5 : "";
			size_t n = strlen(t);
			char *nt = realloc(r->topo_text, r->topo_len + n + 2);

			if (!nt)
				goto out;
			memcpy(nt + r->topo_len, t, n);
			r->topo_len += n;
			nt[r->topo_len++] = '\n';
			nt[r->topo_len] = 0;
			r->topo_text = nt;
		} else if (sscanf(buf, "topology %63s", r->topo_name) == 1 ||
			   sscanf(buf, "device %31s", r->device) == 1 ||
			   sscanf(buf, "naa-device %31s", r->naa_device) == 1 ||
			   sscanf(buf, "skip %d", &r->skip) == 1 ||
			   sscanf(buf, "hosts %u", &r->nhosts) == 1 ||
			   !strncmp(buf, "flash-dir ", 10)) {
			/* taken */
		} else if (!strncmp(buf, "build-id ", 9)) {
			snprintf(r->build_id, sizeof(r->build_id), "%s", buf + 9);
		} else {
			bad(r, line, "unknown header line");
			goto out;
		}
	}
	if (!started || !r->have_end) {
		bad(r, line, started ? "no 'end' record (the recording was cut short)" : "no 'start' line");
		goto out;
	}
	if (!r->topo_text || !r->device[0] || !r->naa_device[0] || !r->nhosts) {
		bad(r, line, "header incomplete (topology, device, naa-device, hosts)");
		goto out;
	}
	ret = 0;
out:
	free(buf);
	fclose(f);
	return ret;
}

static const struct pcie_model_backend *backend(const char *name)
{
	static const struct pcie_model_backend *const all[] = {
		&pcie_backend_nic, &pcie_backend_accel, &pcie_backend_naa, &pcie_backend_naa_epf,
	};

	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

static void print_tlp(const char *what, uint64_t cycle, const uint32_t *w, unsigned pdw)
{
	struct tlp t;
	char buf[256] = "(undecodable header)";

	if (!tlp_decode(w, w + 4, pdw, &t))
		tlp_format(&t, buf, sizeof(buf));
	fprintf(stderr, "  %s at cycle %" PRIu64 ": %s\n   ", what, cycle, buf);
	for (unsigned i = 0; i < 4 + pdw && i < 4 + 16; i++)
		fprintf(stderr, " %08" PRIx32, w[i]);
	fprintf(stderr, "%s\n", pdw > 16 ? " ..." : "");
}

/* per host: the next expected out and intx records (indices into ev, nev: none) */
struct expect {
	size_t out, intx;
	bool level;
	uint64_t nout, nintx;
	FILE *trace;            /* --trace-tlp, or NULL */
};

/* a line of --trace-tlp, as cosimd writes it (trace.c) */
static void trace(FILE *f, const char *dir, const uint32_t *hdr, const uint32_t *payload, unsigned pdw,
		  uint64_t cycle)
{
	struct tlp t;

	if (f && !tlp_decode(hdr, payload, pdw, &t))
		tlp_trace(f, dir, &t, cycle);
}

static size_t next_of(const struct rp *r, size_t i, enum ev_kind k, unsigned host)
{
	for (; i < r->nev; i++)
		if (r->ev[i].kind == k && r->ev[i].host == host)
			return i;
	return r->nev;
}

/* compare what host h's device sends now (after a step) with the recording: 0 or 1 */
static int check_host(const struct rp *r, struct world *w, unsigned h, struct expect *x)
{
	struct pcie_model *m = world_host(w, h);
	uint32_t raw[4 + TLP_MAX_PAYLOAD_DW];
	unsigned n;
	uint64_t c = world_cycles(w);

	while (pcie_model_pop(m, raw, raw + 4, TLP_MAX_PAYLOAD_DW, &n)) {
		const struct ev *e = x->out < r->nev ? &r->ev[x->out] : NULL;

		if (n > TLP_MAX_PAYLOAD_DW)
			n = TLP_MAX_PAYLOAD_DW;
		if (!e || e->cycle != c || e->pdw != n || memcmp(e->w, raw, 4u * (4 + n))) {
			fprintf(stderr, "cosimd: replay MISMATCH at world cycle %" PRIu64 ", host %u: TLP #%"
				PRIu64 " from the device differs (%s:%zu)\n", c, h, x->nout + 1, r->path,
				e ? e->line : (size_t)0);
			if (e)
				print_tlp("expected", e->cycle, e->w, e->pdw);
			else
				fprintf(stderr, "  expected: no more TLPs\n");
			print_tlp("got     ", c, raw, n);
			return 1;
		}
		trace(x->trace, "dev->host", raw, raw + 4, n, pcie_model_cycles(m));
		x->nout++;
		x->out = next_of(r, x->out + 1, EV_OUT, h);
	}
	if (x->out < r->nev && r->ev[x->out].cycle <= c) {
		const struct ev *e = &r->ev[x->out];

		fprintf(stderr, "cosimd: replay MISMATCH at world cycle %" PRIu64 ", host %u: TLP #%" PRIu64
			" from the device missing (%s:%zu)\n", c, h, x->nout + 1, r->path, e->line);
		print_tlp("expected", e->cycle, e->w, e->pdw);
		return 1;
	}
	bool lv = pcie_model_irq(m);
	if (lv != x->level) {
		const struct ev *e = x->intx < r->nev ? &r->ev[x->intx] : NULL;

		if (!e || e->cycle != c || (bool)e->arg != lv) {
			fprintf(stderr, "cosimd: replay MISMATCH at world cycle %" PRIu64 ", host %u: INTx %s, "
				"recorded: %s\n", c, h, lv ? "asserted" : "deasserted",
				e ? "a change at a later cycle" : "no more changes");
			if (e)
				fprintf(stderr, "  expected INTx %d at cycle %" PRIu64 " (%s:%zu)\n", e->arg,
					e->cycle, r->path, e->line);
			return 1;
		}
		x->level = lv;
		x->nintx++;
		x->intx = next_of(r, x->intx + 1, EV_INTX, h);
	}
	if (x->intx < r->nev && r->ev[x->intx].cycle <= c) {
		fprintf(stderr, "cosimd: replay MISMATCH at world cycle %" PRIu64 ", host %u: INTx stays %d, "
			"recorded: %u at cycle %" PRIu64 " (%s:%zu)\n", c, h, x->level, r->ev[x->intx].arg,
			r->ev[x->intx].cycle, r->path, r->ev[x->intx].line);
		return 1;
	}
	return 0;
}

/* An input: 0, or 1 (it failed: not the world of the recording) */
static int apply(const struct rp *r, struct world *w, const struct ev *e, struct expect *x,
		 int verbose)
{
	char err[160];

	switch (e->kind) {
	case EV_IN: {
		struct pcie_model *m = world_host(w, e->host);

		trace(x[e->host].trace, "host->dev", e->w, e->w + e->hdr_dw, e->pdw, pcie_model_cycles(m));
		if (pcie_model_push(m, e->w, e->hdr_dw, e->w + e->hdr_dw, e->pdw)) {
			fprintf(stderr, "cosimd: replay %s:%zu: the device refused the TLP\n", r->path, e->line);
			return 1;
		}
		break;
	}
	case EV_CMD:
		if (control_run(w, e->cmd, err, sizeof(err))) {
			fprintf(stderr, "cosimd: replay %s:%zu: command '%s': %s\n", r->path, e->line, e->cmd,
				err);
			return 1;
		}
		if (verbose)
			logmsg("replay: cycle %" PRIu64 ": %s", e->cycle, err);
		break;
	case EV_RESET:
		world_reset_host(w, e->host, e->arg);
		if (verbose)
			logmsg("replay: cycle %" PRIu64 ": host %u reset", e->cycle, e->host);
		break;
	default:
		break;
	}
	return 0;
}

int replay_run(const char *path, const char *fst_path, const char *trace_tlp, int verbose)
{
	struct rp r = { .path = path, .skip = -1 };
	struct extoll_topo topo;
	struct world *w = NULL;
	struct expect x[64] = { 0 };
	char name[4096];
	char err[512];
	const char *sk = getenv("COSIM_WORLD_SKIP");
	uint64_t nin = 0, ncmd = 0, t0 = now_ns();
	int ret = 2;

	if (load(&r))
		goto out;
	const struct pcie_model_backend *dev = backend(r.device), *naa = backend(r.naa_device);
	if (!dev || !naa) {
		fprintf(stderr, "cosimd: --replay %s: unknown back end '%s'\n", path, dev ? r.naa_device :
			r.device);
		goto out;
	}
	if (extoll_topo_parse(r.topo_text, r.topo_name, &topo, err, sizeof(err))) {
		fprintf(stderr, "cosimd: --replay %s: topology: %s\n", path, err);
		goto out;
	}
	/* the models read the build id at creation: the recorded one */
	if (r.build_id[0])
		setenv("COSIM_BUILD_ID", r.build_id, 1);
	w = world_create(&topo, dev, naa, fst_path, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "cosimd: --replay: %s\n", err);
		goto out;
	}
	if (world_nhosts(w) != r.nhosts || r.nhosts > 64) {
		fprintf(stderr, "cosimd: --replay %s: %u hosts recorded, the topology has %u\n", path,
			r.nhosts, world_nhosts(w));
		goto out;
	}
	/* skipping is cycle-exact: COSIM_WORLD_SKIP may choose another period than the record's */
	if ((!sk || !*sk) && r.skip >= 0 && world_set_skip(w, (unsigned)r.skip) < 0) {
		fprintf(stderr, "cosimd: --replay: out of memory\n");
		goto out;
	}
	logmsg("replay %s: world '%s' (%u nodes, %u host(s), device %s, naa %s), skip period %u, "
	       "%zu records, %" PRIu64 " cycles", path, topo.name, topo.n, r.nhosts, r.device,
	       r.naa_device, world_skip_period(w), r.nev, r.end);
	for (unsigned h = 0; h < r.nhosts; h++) {
		x[h] = (struct expect){ .out = next_of(&r, 0, EV_OUT, h),
					.intx = next_of(&r, 0, EV_INTX, h) };
		if (trace_tlp) {
			const char *p = host_file(trace_tlp, h, r.nhosts, name, sizeof(name));

			x[h].trace = tlp_trace_open(p);
			if (!x[h].trace) {
				fprintf(stderr, "cosimd: --trace-tlp %s: %s\n", p, strerror(errno));
				ret = 2;
				goto out;
			}
		}
	}
	ret = 1;
	size_t i = 0;
	for (;;) {
		uint64_t c = world_cycles(w);

		for (; i < r.nev && r.ev[i].cycle <= c; i++) {
			const struct ev *e = &r.ev[i];

			if (e->kind == EV_OUT || e->kind == EV_INTX)
				continue;
			if (e->cycle < c) {
				fprintf(stderr, "cosimd: replay %s:%zu: an input at cycle %" PRIu64
					" but the world is at %" PRIu64 "\n", path, e->line, e->cycle, c);
				goto out;
			}
			if (apply(&r, w, e, x, verbose))
				goto out;
			if (e->kind == EV_RESET) {
				/* cosimd reads the INTx level after the reset */
				struct pcie_model *m = world_host(w, e->host);

				if (pcie_model_irq(m) != x[e->host].level) {
					x[e->host].level = !x[e->host].level;
					if (x[e->host].intx >= r.nev || r.ev[x[e->host].intx].cycle != c ||
					    r.ev[x[e->host].intx].arg != x[e->host].level) {
						fprintf(stderr, "cosimd: replay MISMATCH at world cycle %" PRIu64
							", host %u: INTx %d after the reset (%s:%zu)\n", c,
							e->host, x[e->host].level, path, e->line);
						goto out;
					}
					x[e->host].nintx++;
					x[e->host].intx = next_of(&r, x[e->host].intx + 1, EV_INTX, e->host);
				}
			}
			e->kind == EV_IN ? nin++ : ncmd++;
		}
		if (c >= r.end)
			break;
		world_step(w);
		for (unsigned h = 0; h < r.nhosts; h++)
			if (check_host(&r, w, h, &x[h]))
				goto out;
	}
	for (unsigned h = 0; h < r.nhosts; h++)
		if (x[h].out < r.nev || x[h].intx < r.nev) {
			fprintf(stderr, "cosimd: replay MISMATCH: host %u: records after the end (%s:%zu)\n",
				h, path, r.ev[x[h].out < r.nev ? x[h].out : x[h].intx].line);
			goto out;
		}
	if (r.have_links && (world_flits(w) != r.links[0] || world_ctl_words(w) != r.links[1] ||
			     world_bit_flips(w) != r.links[2] || world_link_signature(w) != r.links[3])) {
		fprintf(stderr, "cosimd: replay MISMATCH at the end (cycle %" PRIu64 "): links carried %"
			PRIu64 " flits, %" PRIu64 " control words, %" PRIu64 " bits flipped, signature %016"
			PRIx64 "; recorded: %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %016" PRIx64 "\n",
			world_cycles(w), world_flits(w), world_ctl_words(w), world_bit_flips(w),
			world_link_signature(w), r.links[0], r.links[1], r.links[2], r.links[3]);
		goto out;
	}
	uint64_t nout = 0, nintx = 0;
	for (unsigned h = 0; h < r.nhosts; h++) {
		nout += x[h].nout;
		nintx += x[h].nintx;
	}
	logmsg("replay %s: identical: %" PRIu64 " cycles, %" PRIu64 " TLPs in, %" PRIu64 " TLPs out, %"
	       PRIu64 " INTx changes, %" PRIu64 " commands and host resets%s (%.1f s)", path,
	       world_cycles(w), nin, nout, nintx, ncmd,
	       r.have_links ? ", the same link counts" : "", (double)(now_ns() - t0) / 1e9);
	ret = 0;
out:
	for (unsigned h = 0; h < r.nhosts && h < 64; h++)
		tlp_trace_close(x[h].trace);
	if (w) {
		if (fst_path)
			world_trace_flush(w);
		world_destroy(w);
	}
	for (size_t k = 0; k < r.nev; k++) {
		free(r.ev[k].w);
		free(r.ev[k].cmd);
	}
	free(r.ev);
	free(r.topo_text);
	return ret;
}
