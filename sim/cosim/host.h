/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One host of the world as cosimd serves it: a host node's device model and
 * everything that belongs to its QEMU (one per host node of the topology):
 * the proxy socket and irqfd, the guest's RAM, the outstanding config/BAR
 * access, the DMA counts, the TLP checker, the TLP trace and capture.  Each
 * file of sim/cosim/ keeps its part in its own struct (declared in its
 * header); this one only puts them together.
 */
#ifndef SIM_COSIM_HOST_H
#define SIM_COSIM_HOST_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "capture.h"
#include "check.h"
#include "dma.h"
#include "guest_ram.h"
#include "mmio.h"
#include "pcie_model.h"
#include "proxy.h"

#define COSIM_MAX_HOSTS 8   /* QEMUs one daemon serves (each a TCG guest with its RAM) */

struct host {
	unsigned index;             /* 0 .. nhosts-1: the order of the host nodes */
	unsigned node;              /* its node id in the topology */
	char label[24];             /* "host K (node N)" */
	char pfx[24];               /* before its messages: "" (one host) or "host K: " */
	struct pcie_model *dev;     /* world_host(world, index) */
	struct proxy proxy;
	struct guest_ram ram;
	struct mmio mmio;
	struct dma dma;
	struct check check;
	struct capture_tlp *cap;    /* --pcap-tlp, or NULL */
	FILE *trace;                /* --trace-tlp, or NULL */
	pid_t pid;                  /* its QEMU, -1 when collected */
	int status;                 /* QEMU's wait status once collected */
	bool gone;                  /* its QEMU closed the socket */
};

/* logmsg() with the host's prefix */
#define hostmsg(h, fmt, ...) logmsg("%s" fmt, (h)->pfx, ##__VA_ARGS__)

#endif /* SIM_COSIM_HOST_H */
