/* SPDX-License-Identifier: Apache-2.0 */
/*
 * QEMU's multi-process proxy device (x-pci-proxy-dev, QEMU 7.2): starting
 * QEMU with the device on a socketpair, and the protocol on that socket
 * (wire format and limits: ../shared/design/qemu-cosim-notes.md).  This file
 * knows messages, descriptors and the irqfd, not TLPs: each request goes to a
 * handler, whose result becomes the RET message.
 *
 *   SYNC_SYSMEM  -> handlers.sysmem (guest RAM sections with descriptors)
 *   SET_IRQFD    -> kept here: proxy_set_intx() writes the irqfd, and the
 *                   level is re-asserted when the resamplefd fires
 *   PCI_CFGREAD/PCI_CFGWRITE, BAR_READ/BAR_WRITE (memory, 1..8 bytes; I/O or
 *   odd sizes answered all-ones / ignored here), DEVICE_RESET -> handlers
 */
#ifndef SIM_COSIM_PROXY_H
#define SIM_COSIM_PROXY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "guest_ram.h"

struct proxy_handlers {
	void (*sysmem)(const struct guest_ram_region *r, int n);
	uint64_t (*cfg_read)(uint32_t addr, int len);
	uint64_t (*cfg_write)(uint32_t addr, uint32_t val, int len);
	uint64_t (*bar_read)(uint64_t addr, unsigned size);
	void (*bar_write)(uint64_t addr, uint64_t val, unsigned size);
	void (*reset)(void);
};

/* Run argv (QEMU's command line) with the nextra arguments extra and
 * `-device x-pci-proxy-dev,id=nic0,fd=N` appended, the socket's other end as
 * descriptor fd_no; child (may be NULL) runs in QEMU's process before exec
 * (0, or -1 to fail).  The QEMU process id, or -1 with a message. */
pid_t proxy_start(const struct proxy_handlers *h, int fd_no, int argc, char **argv,
		  const char *const *extra, int nextra, int (*child)(void));
/* Descriptors to poll: the socket, and the resamplefd (-1 before SET_IRQFD). */
int proxy_sock(void);
int proxy_resamplefd(void);
/* Receive and handle one message: 0, or -1 when QEMU has gone. */
int proxy_handle(void);
/* The resamplefd fired: re-assert INTx if still high. */
void proxy_resampled(void);
/* The device's INTx level; true if it changed. */
bool proxy_set_intx(bool level);
void proxy_close(void);

void proxy_print_stats(FILE *f);

#endif /* SIM_COSIM_PROXY_H */
