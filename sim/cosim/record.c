// SPDX-License-Identifier: Apache-2.0
/* cosimd --record: the world's inputs and the host devices' outputs (record.h). */
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flash_boot.h"
#include "trace.h"

#define RECORD_MAX_HOSTS 64

static FILE *rec;
static const char *rec_path;
static struct world *world;
static bool intx[RECORD_MAX_HOSTS];
static bool failed;

int record_open(const char *path, struct world *w, const struct record_config *c)
{
	const char *fd = getenv("COSIM_FLASH_DIR");
	uint64_t id = flash_boot_build_id();
	const char *p, *nl;

	rec = fopen(path, "w");
	if (!rec) {
		logmsg("--record %s: %s", path, strerror(errno));
		return -1;
	}
	/* a large buffer: a record a TLP */
	setvbuf(rec, NULL, _IOFBF, 1 << 20);
	rec_path = path;
	world = w;
	fprintf(rec, "cosimd-record %d\n", RECORD_VERSION);
	fprintf(rec, "# cosimd --record: docs/cosim.md \"Record and replay\"; cosimd --replay FILE\n");
	fprintf(rec, "build-id %08" PRIx32 " %08" PRIx32 "\n", (uint32_t)id, (uint32_t)(id >> 32));
	fprintf(rec, "device %s\n", c->device);
	fprintf(rec, "naa-device %s\n", c->naa_device);
	fprintf(rec, "skip %u\n", world_skip_period(w));
	fprintf(rec, "flash-dir %s\n", fd && *fd ? fd : "-");
	fprintf(rec, "topology %s\n", world_topology(w)->name);
	for (p = c->topo_text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		fprintf(rec, "topo %.*s\n", (int)(nl - p), p);
		if (!*nl)
			break;
	}
	fprintf(rec, "hosts %u\n", world_nhosts(w));
	fprintf(rec, "start\n");
	return 0;
}

bool record_on(void)
{
	return rec != NULL;
}

static void words(const uint32_t *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		fprintf(rec, " %08" PRIx32, w[i]);
}

void record_tlp_in(unsigned host, const uint32_t hdr[4], unsigned hdr_dw, const uint32_t *payload,
		   unsigned payload_dw)
{
	if (!rec)
		return;
	fprintf(rec, "%" PRIu64 " in %u %u %u", world_cycles(world), host, hdr_dw, payload_dw);
	words(hdr, hdr_dw);
	words(payload, payload_dw);
	fputc('\n', rec);
}

void record_tlp_out(unsigned host, const uint32_t hdr[4], const uint32_t *payload, unsigned payload_dw)
{
	if (!rec)
		return;
	fprintf(rec, "%" PRIu64 " out %u %u", world_cycles(world), host, payload_dw);
	words(hdr, 4);
	words(payload, payload_dw);
	fputc('\n', rec);
}

void record_intx(unsigned host, bool level)
{
	if (!rec || host >= RECORD_MAX_HOSTS || intx[host] == level)
		return;
	intx[host] = level;
	fprintf(rec, "%" PRIu64 " intx %u %d\n", world_cycles(world), host, level);
}

void record_cmd(const char *cmd)
{
	if (!rec)
		return;
	/* one line: the command's own line end is dropped */
	fprintf(rec, "%" PRIu64 " cmd %.*s\n", world_cycles(world), (int)strcspn(cmd, "\r\n"), cmd);
}

void record_host_reset(unsigned host, unsigned cycles)
{
	if (rec)
		fprintf(rec, "%" PRIu64 " reset-host %u %u\n", world_cycles(world), host, cycles);
}

void record_host_exit(unsigned host, int status)
{
	if (rec)
		fprintf(rec, "%" PRIu64 " exit %u %d\n", world_cycles(world), host, status);
}

int record_close(void)
{
	int r;

	if (!rec)
		return 0;
	fprintf(rec, "%" PRIu64 " links %" PRIu64 " %" PRIu64 " %" PRIu64 " %016" PRIx64 "\n",
		world_cycles(world), world_flits(world), world_ctl_words(world), world_bit_flips(world),
		world_link_signature(world));
	fprintf(rec, "%" PRIu64 " end\n", world_cycles(world));
	failed |= ferror(rec) != 0;
	r = fclose(rec);
	rec = NULL;
	if (r || failed) {
		logmsg("--record %s: write failed", rec_path);
		return -1;
	}
	return 0;
}
