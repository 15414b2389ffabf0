// SPDX-License-Identifier: Apache-2.0
/* A fixed traffic pattern on one host-NAA path: see world_traffic.h. */
#include "world_traffic.h"

#include <linux/pci_regs.h>
#include <stdio.h>
#include <string.h>

#include "extoll_regs.h"
#include "tlp.h"

#define WT_BAR0    0xfe000000u          /* as model_bench: where firmware would put it */
#define WT_ID      0x0010u              /* 00:02.0 */
#define WT_CMP     0x00100000u          /* host address of the completion record */
#define WT_TIMEOUT 20000u

static void hash_add(uint64_t *h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= 0x100000001b3ull;
	}
}

static void cfg_wr(struct pcie_model *m, unsigned reg, uint32_t v)
{
	struct tlp t;

	tlp_cfg(&t, true, 0, WT_ID, (uint16_t)reg, 0xf, v, 0, 1);
	pcie_model_push_tlp(m, &t);
}

static void mwr64(struct pcie_model *m, uint32_t off, uint64_t v)
{
	struct tlp t;
	uint32_t d[2] = { (uint32_t)v, (uint32_t)(v >> 32) };

	tlp_mwr(&t, WT_BAR0 + off, d, 2, 0xf, 0xf, 0);
	pcie_model_push_tlp(m, &t);
}

int world_traffic_init(struct world_traffic *t, struct world *w, unsigned dst, uint32_t reg,
		       char *err, size_t errlen)
{
	if (!world_nhosts(w)) {
		snprintf(err, errlen, "%s: no host node", world_topology(w)->name);
		return -1;
	}
	return world_traffic_init_node(t, w, world_host_node(w, 0), dst, reg, err, errlen);
}

int world_traffic_init_node(struct world_traffic *t, struct world *w, unsigned src, unsigned dst,
			    uint32_t reg, char *err, size_t errlen)
{
	const struct extoll_topo *topo = world_topology(w);
	uint64_t route = 0;

	memset(t, 0, sizeof(*t));
	t->w = w;
	t->src = src;
	t->dst = dst;
	t->reg = reg;
	t->hash = 0xcbf29ce484222325ull;
	t->host = world_node_model(w, src);
	if (!t->host || !t->host->backend->upstream) {
		snprintf(err, errlen, "%s: node %u has no PCIe side", topo->name, src);
		return -1;
	}
	t->local = dst == src;
	if (!t->local && extoll_torus_route(&topo->torus, src, dst, &route) < 0) {
		snprintf(err, errlen, "%s: no source route to node %u", topo->name, dst);
		return -1;
	}
	cfg_wr(t->host, PCI_BASE_ADDRESS_0, WT_BAR0);
	cfg_wr(t->host, PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	if (!t->local) {
		mwr64(t->host, EXTOLL_RRA_BASE + EXTOLL_RRA_CMP_ADDR, WT_CMP);
		mwr64(t->host, EXTOLL_RRA_BASE + EXTOLL_RRA_ROUTE, route);
	}
	return 0;
}

int world_traffic_retarget(struct world_traffic *t, unsigned dst, uint32_t reg, char *err,
			   size_t errlen)
{
	const struct extoll_topo *topo = world_topology(t->w);
	uint64_t route = 0;
	bool local = dst == t->src;

	if (!local && extoll_torus_route(&topo->torus, t->src, dst, &route) < 0) {
		snprintf(err, errlen, "%s: no source route to node %u", topo->name, dst);
		return -1;
	}
	if (!local && t->local) {
		snprintf(err, errlen, "%s: a local path cannot be retargeted", topo->name);
		return -1;
	}
	t->dst = dst;
	t->reg = reg;
	if (!t->local)
		mwr64(t->host, EXTOLL_RRA_BASE + EXTOLL_RRA_ROUTE, local ? 7 : route);
	return 0;
}

static void launch(struct world_traffic *t, uint64_t c)
{
	if (t->local) {
		struct tlp r;

		tlp_mrd(&r, WT_BAR0 + t->reg, 2, 0xf, 0xf, 0, (uint8_t)t->seq);
		pcie_model_push_tlp(t->host, &r);
	} else {
		uint64_t v = (uint64_t)t->dst << EXTOLL_RRA_REQ_NODE_SHIFT |
			     (uint64_t)t->reg << EXTOLL_RRA_REQ_ADDR_SHIFT |
			     EXTOLL_RRA_REQ_SRCROUTE_MASK | (uint64_t)t->seq << EXTOLL_RRA_REQ_SEQ_SHIFT;

		mwr64(t->host, EXTOLL_RRA_BASE + EXTOLL_RRA_REQ, v);
	}
	t->seq++;
	t->sent++;
	t->outstanding = true;
	t->sent_cycle = c;
}

void world_traffic_poll(struct world_traffic *t, bool go)
{
	world_traffic_poll_at(t, world_cycles(t->w), go);
}

void world_traffic_poll_at(struct world_traffic *t, uint64_t c, bool go)
{
	struct tlp r;
	int k;

	while ((k = pcie_model_pop_tlp(t->host, &r, NULL)) != 0) {
		bool rec = k > 0 && (t->local ? r.kind == TLP_CPLD :
				     r.kind == TLP_MWR && r.addr == WT_CMP);

		if (!rec)
			continue;
		hash_add(&t->hash, &c, sizeof(c));
		hash_add(&t->hash, r.payload, r.payload_dw * sizeof(uint32_t));
		t->done++;
		t->outstanding = false;
	}
	if (t->outstanding && c - t->sent_cycle > WT_TIMEOUT) {
		t->timeouts++;
		t->outstanding = false;
	}
	if (go && !t->outstanding)
		launch(t, c);
}
