/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The world: every node of a topology (extoll_topo.h) as a Verilated model,
 * links wired with the topology's latency in both directions (one link
 * symbol per cycle each way: flits, ACK/NAK and credit control words, all
 * CRC-protected; docs/network.md "Link layer"), all models stepped in
 * lockstep, optionally with a bit-error rate on every wire bit.
 *
 *   host nodes:   the host device (pcie_model.h back end, default nic:
 *                 extoll_nic ROLE 0); its PCIe side is served by cosimd
 *   router nodes: nic (extoll_nic ROLE 0), PCIe side idle (m_tlp_ready high)
 *   naa nodes:    naa (naa_node), or naa-epf (naa_node DEVICE=1)
 *
 * A topology's missing-link lines leave those links unwired (a failed link:
 * the ports never train, their link_status bit stays 0).
 *
 * Straps: cfg_node_id = the node id, cfg_dateline = extoll_torus_dateline().
 * Link timing = rtl/tb/tb_link_delay.sv with DELAY = latency: what a node
 * drives after clock edge k is sampled by the far node at edge k + 1 + latency.
 */
#ifndef SIM_WORLD_WORLD_H
#define SIM_WORLD_WORLD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pcie_model.h"
#include "extoll_topo.h"   /* userspace/lib: torus geometry, topology files */

struct world;

#define WORLD_MAX_NODES 64       /* the router's tables: TBL_AW = 6 */

/* Build the world (at most WORLD_MAX_NODES nodes).  host_dev: the back end of
 * the host nodes (NULL: nic); one without network links (accel) only in a
 * world of one node.  naa_dev: the back end of the naa nodes (NULL: naa, the
 * sample accelerator; naa-epf: the PCI endpoint test function).  fst_path: NULL, or the host's FST file (other nodes get
 * PATH.nodeN.fst).  Returns NULL with a message in err on failure. */
struct world *world_create(const struct extoll_topo *t, const struct pcie_model_backend *host_dev,
			   const struct pcie_model_backend *naa_dev, const char *fst_path, char *err,
			   size_t errlen);
void world_destroy(struct world *w);

/* One clock cycle of every model.  Returns true when a flit left or arrived
 * on any wire in this cycle, or a control word that carries news (a NAK, an
 * INIT, or an ACK/credit count that changed: not a mere keep-alive), or a
 * model is busy (pcie_model_busy: TLP beats in flight, or an accelerator job,
 * which runs without traffic; the caller stops the clock when this is false). */
bool world_step(struct world *w);
/* cycles cycles of every model (world_step cycles times, but with partitions
 * one barrier per lookahead window); true if any of them was active. */
bool world_run(struct world *w, uint64_t cycles);
/* Cycles since creation (world clock; models' own counters include reset). */
uint64_t world_cycles(const struct world *w);
/* Cycles since the last link activity (0 = this cycle). */
uint64_t world_quiet_cycles(const struct world *w);

const struct extoll_topo *world_topology(const struct world *w);
/* Host nodes, in node id order. */
unsigned world_nhosts(const struct world *w);
unsigned world_host_node(const struct world *w, unsigned i);
struct pcie_model *world_host(struct world *w, unsigned i);
/* Flits (data symbols, replays included) and control words (ACK/NAK/credits,
 * INIT, keep-alives) carried since creation (all links). */
uint64_t world_flits(const struct world *w);
uint64_t world_ctl_words(const struct world *w);
/* A signature of every symbol the links carried: the sum over the flits and
 * control words of a hash of (cycle, wire, framing, data) as driven, before bit
 * errors.  Independent of how the world is stepped (partitions, skipping);
 * a symbol one cycle earlier or later changes it. */
uint64_t world_link_signature(const struct world *w);
/* Fault injection: flip every bit of every wire (data, framing, CRC) with
 * probability ber from now on (0: off), except on the links with a link-ber
 * line in the topology (their own rate, set at creation); bits flipped so far. */
void world_set_ber(struct world *w, double ber);
uint64_t world_bit_flips(const struct world *w);
/* Links (the order of world_describe) and the bit-error rate of link l (-1: none such). */
unsigned world_nlinks(const struct world *w);
double world_link_ber(const struct world *w, unsigned link);
/* Link down (up = false) or up again: the link at node's port carries nothing
 * in either direction while down (an undriven wire: all-zero symbols; the
 * ports retrain and report DOWN, docs/network.md).  Returns the link number,
 * or -1 when node has no link at port. */
int world_link_set(struct world *w, unsigned node, unsigned port, bool up);
/* Node death (alive = false): the node is frozen - no longer clocked, its
 * wires carry nothing (to its neighbours it is gone); alive = true clocks it
 * again with the state it had (its links retrain, the link layer replays what
 * was unacknowledged; a job it was running goes on).  Not a reset
 * (world_node_reset).  Returns 1 on a change, 0
 * if it was already so, -1 for no such node, -2 for a host node (served by
 * cosimd: cannot die). */
int world_node_set(struct world *w, unsigned node, bool alive);
/* Node reset: NODE's model is held in reset (its state cleared: routing tables,
 * link layer, accelerator; the flash and the identity it booted stay), a dead
 * node is alive again.  Its partners' link layers see a fresh partner and
 * re-initialise (docs/network.md "Link layer").  0, -1 for no such node, -2
 * for a host node (its NIC is the guest's PCI device: not here). */
int world_node_reset(struct world *w, unsigned node);
bool world_node_dead(const struct world *w, unsigned node);
/* pcie_model_busy of node's model: TLP beats in flight, or a job (an NAA's accelerator). */
bool world_node_busy(const struct world *w, unsigned node);
/* A sticky net_ovf of any node (pcie_model_overrun): a buffer overran, the
 * wiring or the credits are wrong. */
bool world_overrun(const struct world *w);
/* Reset the host device i only (PCIe function reset seen by its QEMU); the rest
 * of the world keeps running (it is stepped alongside). */
void world_reset_host(struct world *w, unsigned i, unsigned cycles);
/* A packet that crossed a link (for captures, cosimd --pcap): reported by
 * world_step when the last flit has left the sending node's link port. */
#define WORLD_PKT_MAX_FLITS 32  /* 1 + plen (5 bit) */
struct world_packet {
	unsigned link;                  /* link number: the order of world_describe */
	unsigned src, src_port;         /* sending node and its link port (0..6) */
	unsigned dst, dst_port;         /* receiving node and its link port */
	unsigned vc;                    /* VC of the header flit */
	uint32_t crc;                   /* CRC-32C of the packet (net_crc32c of its flits) */
	uint64_t cycle;                 /* world cycle of the last flit */
	unsigned nflits;                /* flits in flit[] (more were dropped: truncated) */
	bool truncated;
	const uint32_t (*flit)[4];      /* dword 0 = bits 31:0 */
};
typedef void (*world_packet_fn)(void *ctx, const struct world_packet *p);
/* Call fn for every packet on every link (NULL: stop); costs a flit copy per flit. */
void world_set_packet_hook(struct world *w, world_packet_fn fn, void *ctx);

/* Skipping idle nodes (docs/cosim.md "Skipping idle nodes"): a router or
 * naa node whose RTL state recurs after `period` cycles with the same link
 * inputs is no longer evaluated; it drives what it drove a period before
 * until an input differs.  Cycle-exact: the world's wires, packets and every
 * model's state are those of plain lockstep.  Host nodes are always
 * evaluated (cosimd reads and drives them between steps).  World_create
 * enables it with WORLD_SKIP_PERIOD, or the period in the environment
 * variable COSIM_WORLD_SKIP (0: off). */
#define WORLD_SKIP_PERIOD 1024
#define WORLD_SKIP_MAX    (1u << 20)   /* the largest period COSIM_WORLD_SKIP may ask for */
/* period 0: off (every sleeping node is woken first).  -1: out of memory (off). */
int world_set_skip(struct world *w, unsigned period);
unsigned world_skip_period(const struct world *w);
/* wake every sleeping node now (each model then holds its exact state) */
void world_skip_sync(struct world *w);
bool world_node_asleep(const struct world *w, unsigned node);
struct world_skip_stats {
	uint64_t sleeps, wakes;         /* times nodes fell asleep / were woken */
	uint64_t tries;                 /* state comparisons */
	uint64_t skipped;               /* node cycles not evaluated */
};
void world_skip_stats(const struct world *w, struct world_skip_stats *s);
/* The RTL state of node's model (pcie_model_skip_state: the bytes, *len;
 * NULL when the node is asleep (world_skip_sync first) or its model has none
 * now) and in *cycles its cycle count.  The bytes compare a model with itself
 * only: two instances differ in their padding. */
const void *world_node_state(const struct world *w, unsigned node, size_t *len, uint64_t *cycles);

/* Partitioned world (docs/cosim.md "Partitioned world"): the nodes in n
 * partitions of contiguous node ids (n = 1 .. nodes), partition 0 stepped by
 * the calling thread, each other one by a thread of its own.  A link's wire
 * latency + 1 is the lookahead: within world_run the threads run windows of
 * latency + 1 cycles and meet at one barrier per window.  Cycle-exact: the
 * wires, packets (the hook is called by the calling thread after the run, in
 * the order of one thread) and every model's state are those of one thread.
 * Between world_run/world_step calls every thread waits: the calling thread
 * may use every other function.  World_create sets the environment variable
 * COSIM_WORLD_THREADS (default 1).  0, or -1 (no barrier). */
int world_set_threads(struct world *w, unsigned n);
unsigned world_threads(const struct world *w);
unsigned world_node_partition(const struct world *w, unsigned node);
/* thread CPU seconds partition p spent stepping its nodes since world_set_threads
 * (measured with more than one thread only) */
double world_partition_cpu(const struct world *w, unsigned p);
/* fn(ctx, cycle) before node is evaluated in each cycle, in the thread of its
 * partition (NULL: none): it may push and pop the node's TLPs
 * (world_node_model).  A node with a hook is never skipped. */
typedef void (*world_node_fn)(void *ctx, uint64_t cycle);
void world_set_node_hook(struct world *w, unsigned node, world_node_fn fn, void *ctx);
/* the model of any node (world_host: of a host node) */
struct pcie_model *world_node_model(struct world *w, unsigned node);

/* Distributed world (docs/cosim.md "Distributed world (MPI)"): this process
 * is one of nparts processes (MPI ranks) that each build the whole world and
 * evaluate only partition `local` of the partitioning of world_set_threads
 * (contiguous node ids, node i in partition i * nparts / nodes); no thread is
 * started.  World_run runs the same windows of latency + 1 cycles; after each
 * window the symbols its nodes drove on the wires into other partitions' nodes
 * are handed to exchange, which must deliver them to those partitions and
 * return theirs: one buffer per neighbouring partition each way (peer[k], in
 * ascending order; the wires in index order, the window's cycles in order), of
 * the lengths given; 0, or -1 (world_run then aborts the process: the other
 * ranks would wait forever).  The world library knows nothing of MPI: the
 * transport is the caller's (sim/world/world_mpi.c).  Every rank must make the
 * same calls with the same arguments (world_run, fault injection, set_ber,
 * set_skip, node hooks) in the same order; the node hooks of other partitions'
 * nodes are never called.  What a rank reports is its partition's share: the
 * packets on the wires out of its nodes, the flit and control-word counts,
 * bit flips and link signature of those wires, world_run's return value,
 * world_quiet_cycles, and the state of its nodes only (the other nodes'
 * models are built but never clocked); summed (the signature too, mod 2^64)
 * over the ranks they are the single-process values.  nparts 1: back to one
 * process.  0; -1: nparts not 1 .. nodes, local >= nparts, out of memory. */
typedef int (*world_exchange_fn)(void *ctx, unsigned npeers, const unsigned *peer,
				 void *const *sendbuf, const size_t *sendlen,
				 void *const *recvbuf, const size_t *recvlen);
int world_set_distributed(struct world *w, unsigned nparts, unsigned local, world_exchange_fn exchange,
			  void *ctx);
/* the partition this process evaluates (0 unless distributed) */
unsigned world_local_partition(const struct world *w);

/* One line per node and link. */
void world_describe(const struct world *w, FILE *f);
void world_trace_flush(struct world *w);

#endif /* SIM_WORLD_WORLD_H */
