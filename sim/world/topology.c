// SPDX-License-Identifier: Apache-2.0
/* Topology files of the co-simulation: see topology.h. */
#include "topology.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int perr(char *err, size_t errlen, const char *name, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int perr(char *err, size_t errlen, const char *name, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s:%u: ", name, line);

	if (n < 0 || (size_t)n >= errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* strict unsigned decimal (or 0x hex) word */
static int word_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno || *end || *v > max ? -1 : 0;
}

static int parse_dims(char **w, int nw, unsigned dim[3])
{
	unsigned long v;

	if (nw == 4) {
		for (int i = 0; i < 3; i++) {
			if (word_uint(w[i + 1], 256, &v) || !v)
				return -1;
			dim[i] = (unsigned)v;
		}
		return 0;
	}
	if (nw != 2)
		return -1;
	/* XxYxZ, also X or XxY */
	char *s = w[1];
	dim[0] = dim[1] = dim[2] = 1;
	for (int i = 0; i < 3; i++) {
		char *end;
		if (!isdigit((unsigned char)*s))
			return -1;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || !v || v > 256)
			return -1;
		dim[i] = (unsigned)v;
		if (!*end)
			return 0;
		if (*end != 'x' && *end != 'X')
			return -1;
		s = end + 1;
	}
	return -1;
}

int topology_parse(const char *text, const char *name, struct topology *t, char *err,
		   size_t errlen)
{
	unsigned line = 0;
	int have_torus = 0, have_lat = 0;
	int listed[TOPO_MAX_NODES] = { 0 };
	/* node lines are checked after the torus line: remember them */
	struct { unsigned long id; enum topo_role r; unsigned line; } nodes[TOPO_MAX_NODES * 4];
	unsigned nnodes = 0;
	const char *p = text;

	memset(t, 0, sizeof(*t));
	t->latency = TOPO_DEFAULT_LATENCY;
	snprintf(t->name, sizeof(t->name), "%s", name);
	while (*p) {
		char buf[256], *w[8], *save = NULL;
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int nw = 0;

		line++;
		if (len >= sizeof(buf))
			return perr(err, errlen, name, line, "line too long");
		memcpy(buf, p, len);
		buf[len] = 0;
		p += len + (nl ? 1 : 0);
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		for (char *tok = strtok_r(buf, " \t\r", &save); tok && nw < 8;
		     tok = strtok_r(NULL, " \t\r", &save))
			w[nw++] = tok;
		if (!nw)
			continue;
		if (!strcmp(w[0], "torus")) {
			if (have_torus)
				return perr(err, errlen, name, line, "second 'torus' line");
			if (parse_dims(w, nw, t->dim))
				return perr(err, errlen, name, line,
					    "expected 'torus XxYxZ' (each 1..256)");
			have_torus = 1;
		} else if (!strcmp(w[0], "link-latency")) {
			unsigned long v;
			if (have_lat)
				return perr(err, errlen, name, line, "second 'link-latency' line");
			if (nw != 2 || word_uint(w[1], 1024, &v) || !v)
				return perr(err, errlen, name, line,
					    "expected 'link-latency CYCLES' (1..1024)");
			t->latency = (unsigned)v;
			have_lat = 1;
		} else if (!strcmp(w[0], "node")) {
			unsigned long id;
			enum topo_role r;
			if (nw != 3 || word_uint(w[1], 65535, &id))
				return perr(err, errlen, name, line,
					    "expected 'node ID host|naa|router'");
			if (!strcmp(w[2], "host"))
				r = TOPO_HOST;
			else if (!strcmp(w[2], "naa"))
				r = TOPO_NAA;
			else if (!strcmp(w[2], "router"))
				r = TOPO_ROUTER;
			else
				return perr(err, errlen, name, line,
					    "unknown node kind '%s' (host, naa or router)", w[2]);
			if (nnodes == sizeof(nodes) / sizeof(nodes[0]))
				return perr(err, errlen, name, line, "too many node lines");
			nodes[nnodes].id = id;
			nodes[nnodes].r = r;
			nodes[nnodes].line = line;
			nnodes++;
		} else {
			return perr(err, errlen, name, line,
				    "unknown directive '%s' (torus, link-latency, node)", w[0]);
		}
	}
	if (!have_torus)
		return perr(err, errlen, name, line, "no 'torus XxYxZ' line");
	unsigned long n = (unsigned long)t->dim[0] * t->dim[1] * t->dim[2];
	if (n > TOPO_MAX_NODES)
		return perr(err, errlen, name, line, "%lu nodes: at most %d (routing table size)", n,
			    TOPO_MAX_NODES);
	t->n = (unsigned)n;
	for (unsigned i = 0; i < nnodes; i++) {
		if (nodes[i].id >= n)
			return perr(err, errlen, name, nodes[i].line,
				    "node %lu outside the %ux%ux%u torus (ids 0..%lu)", nodes[i].id,
				    t->dim[0], t->dim[1], t->dim[2], n - 1);
		if (listed[nodes[i].id])
			return perr(err, errlen, name, nodes[i].line, "node %lu listed twice",
				    nodes[i].id);
		listed[nodes[i].id] = 1;
		t->role[nodes[i].id] = nodes[i].r;
	}
	return 0;
}

int topology_load(const char *path, struct topology *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text, name[64];
	long len;
	int r;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || len > 65536 || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot read (or larger than 64 KiB)", path);
		fclose(f);
		return -1;
	}
	text = calloc(1, (size_t)len + 1);
	if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
		snprintf(err, errlen, "%s: read error", path);
		free(text);
		fclose(f);
		return -1;
	}
	fclose(f);
	const char *base = strrchr(path, '/');
	snprintf(name, sizeof(name), "%s", base ? base + 1 : path);
	char *dot = strrchr(name, '.');
	if (dot && !strcmp(dot, ".topo"))
		*dot = 0;
	r = topology_parse(text, path, t, err, errlen);
	if (!r)
		snprintf(t->name, sizeof(t->name), "%s", name);
	free(text);
	return r;
}

const char *topology_role_name(enum topo_role r)
{
	return r == TOPO_HOST ? "host" : r == TOPO_NAA ? "naa" : "router";
}

void topology_coords(const struct topology *t, unsigned node, unsigned c[3])
{
	c[0] = node % t->dim[0];
	c[1] = node / t->dim[0] % t->dim[1];
	c[2] = node / (t->dim[0] * t->dim[1]);
}

unsigned topology_node_at(const struct topology *t, const unsigned c[3])
{
	return c[0] + t->dim[0] * (c[1] + t->dim[1] * c[2]);
}

unsigned topology_neighbour(const struct topology *t, unsigned node, unsigned d, int dir)
{
	unsigned c[3];

	topology_coords(t, node, c);
	c[d] = (c[d] + t->dim[d] + (unsigned)(dir > 0 ? 1 : t->dim[d] - 1)) % t->dim[d];
	return topology_node_at(t, c);
}

uint8_t topology_dateline(const struct topology *t, unsigned node)
{
	unsigned c[3];
	uint8_t m = 0;

	topology_coords(t, node, c);
	for (unsigned d = 0; d < 3; d++) {
		if (t->dim[d] < 2)
			continue;
		if (c[d] == t->dim[d] - 1)
			m |= (uint8_t)(1u << (2 * d));          /* + link wraps */
		if (c[d] == 0)
			m |= (uint8_t)(1u << (2 * d + 1));      /* - link wraps */
	}
	return m;
}

unsigned topology_count(const struct topology *t, enum topo_role r)
{
	unsigned k = 0;

	for (unsigned i = 0; i < t->n; i++)
		k += t->role[i] == r;
	return k;
}
