/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Record and replay (docs/cosim.md "Record and replay").
 *
 * cosimd --record FILE writes everything that enters the world from outside,
 * stamped with the world cycle (world_cycles) at which it entered, and what
 * the host devices sent, so that cosimd --replay FILE rebuilds the same world
 * without QEMU, pushes the same inputs at the same cycles and checks that the
 * host devices send the same TLPs at the same cycles and change INTx alike.
 *
 * Every input enters between two world steps; the cycle of a record is the
 * number of steps done before it.  Format (text, one record a line, words
 * in hex without 0x unless said otherwise; lines starting with '#' are
 * comments):
 *
 *   cosimd-record 2                 the first line: format and version
 *   build-id DATE COMMIT            the models' run-time build id (8 hex digits each)
 *   device NAME                     the host device back end (nic, accel)
 *   naa-device NAME                 the naa nodes' back end (naa, naa-epf)
 *   skip PERIOD                     idle-node skipping of the recorded run (decimal)
 *   flash-dir DIR                   COSIM_FLASH_DIR of the run ("-": the built-in default)
 *   topology NAME                   the world's topology name, then its text:
 *   topo LINE                       one line of the topology file each
 *   hosts N                         host nodes (decimal)
 *   start                           the end of the header
 *   C in H HDW PDW HDR.. PAYLOAD..  a TLP pushed into host H's device (HDW header and
 *                                   PDW payload dwords): config and BAR requests of the
 *                                   guest, completions of the device's reads of guest RAM
 *   C cmd COMMAND                   a fault command that ran (kill, revive, reset,
 *                                   link-down, link-up, ber; --fault or a guest's ttyS1)
 *   C reset-host H CYCLES           QEMU reset host H's device (world_reset_host)
 *   C out H PDW HDR0..3 PAYLOAD..   a TLP host H's device sent (popped after step C;
 *                                   PDW payload dwords, all of them recorded)
 *   C intx H LEVEL                  host H's INTx level changed (0 or 1)
 *   C exit H STATUS                 host H's QEMU exited (information only)
 *   C links FLITS CTL FLIPS SIG     before end: flits and control words carried on all
 *                                   links and bits flipped by bit errors (decimal), and
 *                                   world_link_signature (16 hex digits): every symbol
 *                                   with its cycle and wire (the network's part of the
 *                                   comparison)
 *   C end                           the last line: the world cycle the run ended at
 *
 * Cycles are decimal.  in, cmd and reset-host are the inputs; out and intx the
 * outputs the replay compares.
 */
#ifndef SIM_COSIM_RECORD_H
#define SIM_COSIM_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "pcie_model.h"
#include "world.h"

#define RECORD_VERSION 2

struct record_config {
	const char *topo_text;          /* the topology's text */
	const char *device, *naa_device; /* back end names */
};

/* Open FILE and write the header of world w (created): 0, or -1 with a message. */
int record_open(const char *path, struct world *w, const struct record_config *c);
bool record_on(void);
void record_tlp_in(unsigned host, const uint32_t hdr[4], unsigned hdr_dw, const uint32_t *payload,
		   unsigned payload_dw);
void record_tlp_out(unsigned host, const uint32_t hdr[4], const uint32_t *payload, unsigned payload_dw);
/* Writes a record only when host's level differs from the last one (first: 0). */
void record_intx(unsigned host, bool level);
void record_cmd(const char *cmd);
void record_host_reset(unsigned host, unsigned cycles);
void record_host_exit(unsigned host, int status);
/* The end record; 0, or -1 if writing failed (message printed). */
int record_close(void);

/* cosimd --replay FILE: 0 (the same outputs), 1 (a difference, reported), 2
 * (an unusable file).  fst_path: NULL or the host's FST waveform; trace_tlp:
 * NULL or the TLP trace (as cosimd --trace-tlp writes it, up to the first
 * difference).  verbose: log the commands and resets. */
int replay_run(const char *path, const char *fst_path, const char *trace_tlp, int verbose);

#endif /* SIM_COSIM_RECORD_H */
