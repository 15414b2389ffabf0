// SPDX-License-Identifier: Apache-2.0
/*
 * naactl dma NODE: the DMA window table of an NAA's NIC (its dma block,
 * docs/security.md): whether the windows are enforced, the host address
 * ranges its accelerator may read and write (naa_bus grants them at
 * attach), and the requests refused so far with the last one. Of a host's
 * NIC: the regions of its memory exposed to other nodes' RMA units (window
 * 0 the notify window, docs/rma.md "Host to host") and their refusals.
 *
 *   dma 5: enforced, refused 2 reads, 16 writes, last write at 0x100020000
 *     window 0: 0xfd00000000-0xfd000fffff write
 *     window 1: 0x0-0x9ffff read write
 *
 * Windows without permission are not listed (-j: all eight, with "read"
 * and "write" false).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "extoll_regs.h"
#include "libextoll.h"
#include "naactl.h"

const char dma_usage[] = "NODE";

#define FIELD(v, F)	(((v) & F##_MASK) >> F##_SHIFT)

struct dma_state {
	uint64_t hdr, ctrl, refused, last;
	uint64_t base[EXTOLL_DMA_WIN_BASE_COUNT], limit[EXTOLL_DMA_WIN_BASE_COUNT];
};

static int dma_read(struct extoll_nic *nic, uint16_t node, struct dma_state *s)
{
	int ret, i;

	ret = extoll_rra_read(nic, node, EXTOLL_DMA_BASE, &s->hdr);
	if (ret)
		return ret;
	if (FIELD(s->hdr, EXTOLL_BLK_HDR_BTYPE) != EXTOLL_DMA_TYPE)
		return -ENODEV;
	ret = extoll_rra_read(nic, node, EXTOLL_DMA_BASE + EXTOLL_DMA_CTRL, &s->ctrl);
	if (!ret)
		ret = extoll_rra_read(nic, node, EXTOLL_DMA_BASE + EXTOLL_DMA_REFUSED, &s->refused);
	if (!ret)
		ret = extoll_rra_read(nic, node, EXTOLL_DMA_BASE + EXTOLL_DMA_LAST, &s->last);
	for (i = 0; !ret && i < EXTOLL_DMA_WIN_BASE_COUNT; i++) {
		ret = extoll_rra_read(nic, node, EXTOLL_DMA_BASE + EXTOLL_DMA_WIN_BASE_N(i), &s->base[i]);
		if (!ret)
			ret = extoll_rra_read(nic, node, EXTOLL_DMA_BASE + EXTOLL_DMA_WIN_LIMIT_N(i),
					      &s->limit[i]);
	}
	return ret;
}

static void dma_print(uint16_t node, const struct dma_state *s)
{
	char buf[32];
	int i;

	new_json_obj();
	print_uint(PRINT_ANY, "node", "dma %u: ", node);
	print_bool(PRINT_JSON, "enforce", NULL, (int)FIELD(s->ctrl, EXTOLL_DMA_CTRL_ENFORCE));
	print_text("%s", FIELD(s->ctrl, EXTOLL_DMA_CTRL_ENFORCE) ? "enforced" : "not enforced (everything passes)");
	print_uint(PRINT_ANY, "refused_reads", ", refused %u reads", (unsigned int)FIELD(s->refused, EXTOLL_DMA_REFUSED_READS));
	print_uint(PRINT_ANY, "refused_writes", ", %u writes", (unsigned int)FIELD(s->refused, EXTOLL_DMA_REFUSED_WRITES));
	if (FIELD(s->last, EXTOLL_DMA_LAST_VALID)) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, (uint64_t)(s->last & EXTOLL_DMA_LAST_ADDR_MASK));
		print_string(PRINT_ANY, "last_kind", ", last %s",
			     FIELD(s->last, EXTOLL_DMA_LAST_WRITE) ? "write" : "read");
		print_string(PRINT_ANY, "last_addr", " at %s", buf);
	} else {
		print_null(PRINT_JSON, "last_addr", NULL, NULL);
	}
	print_nl();
	open_json_array(PRINT_JSON, "windows");
	for (i = 0; i < EXTOLL_DMA_WIN_BASE_COUNT; i++) {
		int rd = !!(s->base[i] & EXTOLL_DMA_WIN_BASE_READ_MASK);
		int wr = !!(s->base[i] & EXTOLL_DMA_WIN_BASE_WRITE_MASK);
		uint64_t first = (uint64_t)(s->base[i] & EXTOLL_DMA_WIN_BASE_BASE_MASK);
		uint64_t last = (uint64_t)((s->limit[i] & EXTOLL_DMA_WIN_LIMIT_LIMIT_MASK) | ~EXTOLL_DMA_WIN_LIMIT_LIMIT_MASK);

		if (!rd && !wr && !is_json_context())
			continue;
		open_json_object(NULL);
		print_uint(PRINT_ANY, "window", "  window %u: ", (unsigned int)i);
		snprintf(buf, sizeof(buf), "0x%" PRIx64, first);
		print_string(PRINT_ANY, "first", "%s", buf);
		snprintf(buf, sizeof(buf), "0x%" PRIx64, last);
		print_string(PRINT_ANY, "last", "-%s", buf);
		print_bool(PRINT_JSON, "read", NULL, rd);
		print_bool(PRINT_JSON, "write", NULL, wr);
		print_text("%s%s", rd ? " read" : "", wr ? " write" : "");
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	delete_json_obj();
}

int cmd_dma(struct extoll_nic *nic, int argc, char **argv)
{
	struct dma_state s;
	uint16_t node;
	int ret;

	ret = naactl_operands(&argc, &argv);
	if (ret)
		return ret;
	if (argc != 2)
		return naactl_usage_error("dma");
	if (naactl_parse_node(argv[1], &node))
		return NAACTL_EXIT_USAGE;
	ret = naactl_open(&nic, 1);
	if (ret)
		return ret;
	memset(&s, 0, sizeof(s));
	ret = dma_read(nic, node, &s);
	extoll_close(nic);
	if (ret == -ENODEV || ret == -EREMOTEIO) {
		err_msg("node %u has no DMA window table (an older NIC)", node);
		return NAACTL_EXIT_OTHER;
	}
	if (ret) {
		err_msg("node %u: %s", node, strerror(-ret));
		return naactl_exit_of(ret);
	}
	dma_print(node, &s);
	return NAACTL_EXIT_OK;
}
