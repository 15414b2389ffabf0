// SPDX-License-Identifier: Apache-2.0
/* cosimd's messages, wall clock and TLP trace: see trace.h. */
#include "trace.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void logmsg(const char *fmt, ...)
{
	va_list ap;

	fputs("cosimd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

FILE *tlp_trace_open(const char *path)
{
	return fopen(path, "w");
}

void tlp_trace_close(FILE *f)
{
	if (f)
		fclose(f);
}

void tlp_trace(FILE *trace_file, const char *dir, const struct tlp *t, uint64_t cycle)
{
	char buf[256];

	if (!trace_file)
		return;
	tlp_format(t, buf, sizeof(buf));
	fprintf(trace_file, "%" PRIu64 " %s %s", cycle, dir, buf);
	if (t->payload_dw) {
		fputs(" data=", trace_file);
		for (unsigned i = 0; i < t->payload_dw && i < 4; i++)
			fprintf(trace_file, "%s%08x", i ? "," : "", t->payload[i]);
		if (t->payload_dw > 4)
			fputs(",...", trace_file);
	}
	fputc('\n', trace_file);
}

const char *host_file(const char *path, unsigned i, unsigned n, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');

	if (n == 1)
		return path;
	if (!dot || (slash && dot < slash) || dot == path || dot[-1] == '/')
		snprintf(buf, len, "%s.host%u", path, i);
	else
		snprintf(buf, len, "%.*s.host%u%s", (int)(dot - path), path, i, dot);
	return buf;
}
