// SPDX-License-Identifier: Apache-2.0
/* Packet capture of the world's links and the host's TLPs: see capture.h. */
#include "capture.h"

#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_packet.h"
#include "trace.h"

#define NS_PER_CYCLE 10   /* the NIC clock, 100 MHz (docs/network.md) */

struct sink {
	pcap_t *pc;
	pcap_dumper_t *d;
	uint64_t packets, bytes;
};

static struct sink net_sink;

struct capture_tlp {
	struct sink sink;
	unsigned node;
};

static void put_le(uint8_t *b, unsigned off, unsigned size, uint64_t v)
{
	for (unsigned i = 0; i < size; i++)
		b[off + i] = (uint8_t)(v >> 8 * i);
}

static int sink_open(struct sink *s, const char *path, int linktype)
{
	s->pc = pcap_open_dead_with_tstamp_precision(linktype, 65535, PCAP_TSTAMP_PRECISION_NANO);
	if (!s->pc) {
		logmsg("capture: pcap_open_dead failed");
		return -1;
	}
	s->d = pcap_dump_open(s->pc, path);
	if (!s->d) {
		logmsg("capture: %s: %s", path, pcap_geterr(s->pc));
		pcap_close(s->pc);
		s->pc = NULL;
		return -1;
	}
	return 0;
}

static void sink_write(struct sink *s, uint64_t cycle, const uint8_t *b, unsigned len)
{
	uint64_t ns = cycle * NS_PER_CYCLE;
	struct pcap_pkthdr h = { .caplen = len, .len = len };

	h.ts.tv_sec = (time_t)(ns / 1000000000u);
	h.ts.tv_usec = (suseconds_t)(ns % 1000000000u);   /* nanoseconds: PRECISION_NANO */
	pcap_dump((u_char *)s->d, &h, b);
	s->packets++;
	s->bytes += len;
}

static void sink_close(struct sink *s, bool stats, const char *what)
{
	if (!s->d)
		return;
	pcap_dump_close(s->d);
	pcap_close(s->pc);
	s->d = NULL;
	s->pc = NULL;
	if (stats)
		fprintf(stderr, "cosimd stats: capture: %" PRIu64 " %s, %" PRIu64 " bytes\n",
			s->packets, what, s->bytes);
}

/* world hook: one packet that crossed a link */
static void on_packet(void *ctx, const struct world_packet *p)
{
	uint8_t b[NET_CAP_NET_BYTES + WORLD_PKT_MAX_FLITS * NET_FLIT_BYTES];

	(void)ctx;
	memset(b, 0, NET_CAP_NET_BYTES);
	put_le(b, NET_CAP_NET_VERSION_OFF, NET_CAP_NET_VERSION_SIZE, NET_CAP_VERSION);
	put_le(b, NET_CAP_NET_VC_OFF, NET_CAP_NET_VC_SIZE, p->vc);
	put_le(b, NET_CAP_NET_LINK_OFF, NET_CAP_NET_LINK_SIZE, p->link);
	put_le(b, NET_CAP_NET_SRC_OFF, NET_CAP_NET_SRC_SIZE, p->src);
	put_le(b, NET_CAP_NET_SRC_PORT_OFF, NET_CAP_NET_SRC_PORT_SIZE, p->src_port);
	put_le(b, NET_CAP_NET_DST_PORT_OFF, NET_CAP_NET_DST_PORT_SIZE, p->dst_port);
	put_le(b, NET_CAP_NET_DST_OFF, NET_CAP_NET_DST_SIZE, p->dst);
	put_le(b, NET_CAP_NET_NFLITS_OFF, NET_CAP_NET_NFLITS_SIZE, p->nflits);
	put_le(b, NET_CAP_NET_CRC_OFF, NET_CAP_NET_CRC_SIZE, p->crc);
	/* a flit is 16 little-endian bytes (docs/packets.md): dword i at byte 4i */
	for (unsigned f = 0; f < p->nflits; f++)
		for (unsigned d = 0; d < 4; d++)
			put_le(b, NET_CAP_NET_BYTES + f * NET_FLIT_BYTES + 4 * d, 4, p->flit[f][d]);
	if (p->truncated)
		logmsg("capture: packet of more than %d flits on link %u truncated", WORLD_PKT_MAX_FLITS,
		       p->link);
	sink_write(&net_sink, p->cycle, b, NET_CAP_NET_BYTES + p->nflits * NET_FLIT_BYTES);
}

void capture_tlp(struct capture_tlp *c, bool to_dev, const struct tlp *t, uint64_t cycle)
{
	uint8_t b[NET_CAP_TLP_BYTES + 4 * (4 + TLP_MAX_PAYLOAD_DW)];
	uint32_t hdr[4];
	unsigned hdw, pdw;

	if (!c)
		return;
	hdw = tlp_encode_hdr(t, hdr);
	pdw = t->payload_dw < TLP_MAX_PAYLOAD_DW ? t->payload_dw : TLP_MAX_PAYLOAD_DW;
	memset(b, 0, NET_CAP_TLP_BYTES);
	put_le(b, NET_CAP_TLP_VERSION_OFF, NET_CAP_TLP_VERSION_SIZE, NET_CAP_VERSION);
	put_le(b, NET_CAP_TLP_DIR_OFF, NET_CAP_TLP_DIR_SIZE, to_dev ? 0 : 1);
	put_le(b, NET_CAP_TLP_NODE_OFF, NET_CAP_TLP_NODE_SIZE, c->node);
	put_le(b, NET_CAP_TLP_HDR_DW_OFF, NET_CAP_TLP_HDR_DW_SIZE, hdw);
	put_le(b, NET_CAP_TLP_PAYLOAD_DW_OFF, NET_CAP_TLP_PAYLOAD_DW_SIZE, pdw);
	for (unsigned i = 0; i < hdw; i++)
		put_le(b, NET_CAP_TLP_BYTES + 4 * i, 4, hdr[i]);
	for (unsigned i = 0; i < pdw; i++)
		put_le(b, NET_CAP_TLP_BYTES + 4 * (hdw + i), 4, t->payload[i]);
	sink_write(&c->sink, cycle, b, NET_CAP_TLP_BYTES + 4 * (hdw + pdw));
}

int capture_open(struct world *w, const char *net_path)
{
	if (net_path) {
		if (sink_open(&net_sink, net_path, NET_CAP_LINKTYPE_NET))
			return -1;
		world_set_packet_hook(w, on_packet, NULL);
	}
	return 0;
}

void capture_close(bool stats)
{
	sink_close(&net_sink, stats, "network packets");
}

struct capture_tlp *capture_tlp_open(const char *path, unsigned host_node)
{
	struct capture_tlp *c = calloc(1, sizeof(*c));

	if (!c) {
		logmsg("capture: out of memory");
		return NULL;
	}
	c->node = host_node;
	if (sink_open(&c->sink, path, NET_CAP_LINKTYPE_TLP)) {
		free(c);
		return NULL;
	}
	return c;
}

void capture_tlp_close(struct capture_tlp *c, bool stats, const char *label)
{
	char what[64];

	if (!c)
		return;
	snprintf(what, sizeof(what), "TLPs%s%s", label ? " of " : "", label ? label : "");
	sink_close(&c->sink, stats, what);
	free(c);
}
