// SPDX-License-Identifier: Apache-2.0
/*
 * libextoll: topology files (the .topo files in sim/topologies/; format in extoll_topo.h).
 * One parser for naactl route --topology and the co-simulation's world.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extoll_topo.h"

static int perr(char *err, size_t errlen, const char *name, unsigned int line,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int perr(char *err, size_t errlen, const char *name, unsigned int line,
		const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s:%u: ", name, line);

	if (n < 0 || (size_t)n >= errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
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

/* "torus XxYxZ" or "torus X Y Z" */
static int parse_dims(char **w, int nw, struct extoll_torus *t)
{
	unsigned long v;
	int i;

	if (nw == 2)
		return extoll_torus_parse(w[1], t);
	if (nw != 4)
		return -1;
	for (i = 0; i < 3; i++) {
		if (word_uint(w[i + 1], EXTOLL_TORUS_MAX_DIM, &v) || !v)
			return -1;
		t->dim[i] = (unsigned int)v;
	}
	return extoll_torus_nodes(t) > EXTOLL_TORUS_MAX_NODES ? -1 : 0;
}

static int parse_role(const char *s, enum extoll_topo_role *r)
{
	if (!strcmp(s, "host"))
		*r = EXTOLL_TOPO_HOST;
	else if (!strcmp(s, "naa"))
		*r = EXTOLL_TOPO_NAA;
	else if (!strcmp(s, "router"))
		*r = EXTOLL_TOPO_ROUTER;
	else
		return -1;
	return 0;
}

int extoll_topo_parse(const char *text, const char *name, struct extoll_topo *t,
		      char *err, size_t errlen)
{
	unsigned int line = 0, i, j, lines[EXTOLL_TOPO_MAX_LISTED];
	unsigned int mlines[EXTOLL_TOPO_MAX_MISSING], blines[EXTOLL_TOPO_MAX_BER];
	int have_torus = 0, have_lat = 0;
	const char *p = text;

	memset(t, 0, sizeof(*t));
	t->latency = EXTOLL_TOPO_DEFAULT_LATENCY;
	snprintf(t->name, sizeof(t->name), "%s", name);
	while (*p) {
		char buf[256], *w[8], *save = NULL, *hash, *tok;
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		unsigned long v;
		int nw = 0;

		line++;
		if (len >= sizeof(buf))
			return perr(err, errlen, name, line, "line too long");
		memcpy(buf, p, len);
		buf[len] = 0;
		p += len + (nl ? 1 : 0);
		hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		for (tok = strtok_r(buf, " \t\r", &save); tok && nw < 8;
		     tok = strtok_r(NULL, " \t\r", &save))
			w[nw++] = tok;
		if (!nw)
			continue;
		if (!strcmp(w[0], "torus")) {
			if (have_torus)
				return perr(err, errlen, name, line, "second 'torus' line");
			if (parse_dims(w, nw, &t->torus))
				return perr(err, errlen, name, line,
					    "expected 'torus XxYxZ' (each 1..256)");
			have_torus = 1;
		} else if (!strcmp(w[0], "link-latency")) {
			if (have_lat)
				return perr(err, errlen, name, line,
					    "second 'link-latency' line");
			if (nw != 2 || word_uint(w[1], 1024, &v) || !v)
				return perr(err, errlen, name, line,
					    "expected 'link-latency CYCLES' (1..1024)");
			t->latency = (unsigned int)v;
			have_lat = 1;
		} else if (!strcmp(w[0], "node")) {
			enum extoll_topo_role r;

			if (nw != 3 || word_uint(w[1], 65535, &v))
				return perr(err, errlen, name, line,
					    "expected 'node ID host|naa|router'");
			if (parse_role(w[2], &r))
				return perr(err, errlen, name, line,
					    "unknown node kind '%s' (host, naa or router)", w[2]);
			if (t->n_listed == EXTOLL_TOPO_MAX_LISTED)
				return perr(err, errlen, name, line, "too many node lines");
			/* checked against the torus after the last line */
			lines[t->n_listed] = line;
			t->listed[t->n_listed].node = (uint16_t)v;
			t->listed[t->n_listed].role = (uint8_t)r;
			t->n_listed++;
		} else if (!strcmp(w[0], "missing-link")) {
			int port = nw == 3 ? extoll_port_parse(w[2]) : -1;

			if (port < 0 || word_uint(w[1], 65535, &v))
				return perr(err, errlen, name, line,
					    "expected 'missing-link NODE X+|X-|Y+|Y-|Z+|Z-'");
			if (t->n_missing == EXTOLL_TOPO_MAX_MISSING)
				return perr(err, errlen, name, line, "too many missing-link lines");
			/* checked against the torus after the last line */
			mlines[t->n_missing] = line;
			t->missing[t->n_missing].node = (uint16_t)v;
			t->missing[t->n_missing].port = (uint8_t)port;
			t->n_missing++;
		} else if (!strcmp(w[0], "link-ber")) {
			int port = nw == 4 ? extoll_port_parse(w[2]) : -1;
			char *end;
			double rate;

			if (port < 0 || word_uint(w[1], 65535, &v))
				return perr(err, errlen, name, line,
					    "expected 'link-ber NODE X+|X-|Y+|Y-|Z+|Z- RATE'");
			errno = 0;
			rate = strtod(w[3], &end);
			if (errno || *end || end == w[3] || !(rate >= 0 && rate < 1))
				return perr(err, errlen, name, line,
					    "link-ber: bad bit-error rate '%s' (a number, 0 <= RATE < 1)",
					    w[3]);
			if (t->n_ber == EXTOLL_TOPO_MAX_BER)
				return perr(err, errlen, name, line, "too many link-ber lines");
			/* checked against the torus after the last line */
			blines[t->n_ber] = line;
			t->ber[t->n_ber].node = (uint16_t)v;
			t->ber[t->n_ber].port = (uint8_t)port;
			t->ber[t->n_ber].rate = rate;
			t->n_ber++;
		} else {
			return perr(err, errlen, name, line,
				    "unknown directive '%s' (torus, link-latency, node, missing-link, link-ber)",
				    w[0]);
		}
	}
	if (!have_torus)
		return perr(err, errlen, name, line, "no 'torus XxYxZ' line");
	t->n = extoll_torus_nodes(&t->torus);
	for (i = 0; i < t->n_listed; i++) {
		if (t->listed[i].node >= t->n)
			return perr(err, errlen, name, lines[i],
				    "node %u outside the %ux%ux%u torus (ids 0..%u)",
				    t->listed[i].node, t->torus.dim[0], t->torus.dim[1],
				    t->torus.dim[2], t->n - 1);
		for (j = 0; j < i; j++)
			if (t->listed[j].node == t->listed[i].node)
				return perr(err, errlen, name, lines[i],
					    "node %u listed twice", t->listed[i].node);
	}
	for (i = 0; i < t->n_missing; i++)
		if (t->missing[i].node >= t->n ||
		    t->torus.dim[t->missing[i].port / 2] < 2)
			return perr(err, errlen, name, mlines[i],
				    "missing-link %u %s: no such link in the %ux%ux%u torus",
				    t->missing[i].node, extoll_port_name(t->missing[i].port),
				    t->torus.dim[0], t->torus.dim[1], t->torus.dim[2]);
	for (i = 0; i < t->n_ber; i++) {
		unsigned int node = t->ber[i].node, port = t->ber[i].port;

		if (!extoll_topo_link_cabled(t, node, port))
			return perr(err, errlen, name, blines[i],
				    "link-ber %u %s: no such link in the %ux%ux%u torus%s", node,
				    extoll_port_name(port), t->torus.dim[0], t->torus.dim[1],
				    t->torus.dim[2],
				    node < t->n && t->torus.dim[port / 2] > 1 ?
				    " (a missing-link)" : "");
		for (j = 0; j < i; j++) {
			unsigned int jn = t->ber[j].node, jp = t->ber[j].port;

			if ((jn == node && jp == port) ||
			    (jp == (port ^ 1) &&
			     jn == extoll_torus_neighbour(&t->torus, node, port)))
				return perr(err, errlen, name, blines[i],
					    "link-ber %u %s: a second rate for the link of line %u",
					    node, extoll_port_name(port), blines[j]);
		}
	}
	return 0;
}

double extoll_topo_link_ber(const struct extoll_topo *t, unsigned int node,
			    unsigned int port)
{
	unsigned int i, far;

	if (port > 5 || node >= t->n)
		return -1;
	far = extoll_torus_neighbour(&t->torus, node, port);
	for (i = 0; i < t->n_ber; i++)
		if ((t->ber[i].node == node && t->ber[i].port == port) ||
		    (t->ber[i].node == far && t->ber[i].port == (port ^ 1)))
			return t->ber[i].rate;
	return -1;
}

int extoll_port_parse(const char *s)
{
	unsigned int p;

	for (p = 0; p < 6; p++)
		if (!strcmp(s, extoll_port_name(p)))
			return (int)p;
	return -1;
}

int extoll_topo_link_cabled(const struct extoll_topo *t, unsigned int node,
			    unsigned int port)
{
	unsigned int i, far;

	if (port > 5 || node >= t->n || t->torus.dim[port / 2] < 2)
		return 0;
	far = extoll_torus_neighbour(&t->torus, node, port);
	for (i = 0; i < t->n_missing; i++)
		if ((t->missing[i].node == node && t->missing[i].port == port) ||
		    (t->missing[i].node == far && t->missing[i].port == (port ^ 1)))
			return 0;
	return 1;
}

int extoll_topo_load(const char *path, struct extoll_topo *t, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "r");
	const char *base;
	char *text, *dot, name[64];
	long len;
	int ret;

	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || len > 65536 ||
	    fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot read (or larger than 64 KiB)", path);
		fclose(f);
		return -EFBIG;
	}
	text = calloc(1, (size_t)len + 1);
	if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
		snprintf(err, errlen, "%s: read error", path);
		free(text);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	base = strrchr(path, '/');
	snprintf(name, sizeof(name), "%s", base ? base + 1 : path);
	dot = strrchr(name, '.');
	if (dot && !strcmp(dot, ".topo"))
		*dot = 0;
	ret = extoll_topo_parse(text, path, t, err, errlen);
	if (!ret)
		snprintf(t->name, sizeof(t->name), "%s", name);
	free(text);
	return ret;
}

enum extoll_topo_role extoll_topo_role(const struct extoll_topo *t,
				       unsigned int node)
{
	unsigned int i;

	for (i = 0; i < t->n_listed; i++)
		if (t->listed[i].node == node)
			return (enum extoll_topo_role)t->listed[i].role;
	return EXTOLL_TOPO_ROUTER;
}

const char *extoll_topo_role_name(enum extoll_topo_role r)
{
	return r == EXTOLL_TOPO_HOST ? "host" : r == EXTOLL_TOPO_NAA ? "naa" : "router";
}

unsigned int extoll_topo_count(const struct extoll_topo *t,
			       enum extoll_topo_role r)
{
	unsigned int i, k = 0;

	for (i = 0; i < t->n; i++)
		k += extoll_topo_role(t, i) == r;
	return k;
}
