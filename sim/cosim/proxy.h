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

/* The handlers get the ctx given to proxy_start (cosimd: the host). */
struct proxy_handlers {
	void (*sysmem)(void *ctx, const struct guest_ram_region *r, int n);
	uint64_t (*cfg_read)(void *ctx, uint32_t addr, int len);
	uint64_t (*cfg_write)(void *ctx, uint32_t addr, uint32_t val, int len);
	uint64_t (*bar_read)(void *ctx, uint64_t addr, unsigned size);
	void (*bar_write)(void *ctx, uint64_t addr, uint64_t val, unsigned size);
	void (*reset)(void *ctx);
};

/* One QEMU's proxy connection (one per host). */
struct proxy {
	const struct proxy_handlers *hd;
	void *ctx;
	const char *pfx;                /* before its messages */
	int sock, irqfd, resamplefd;
	bool intx_level, tcg_guess, noted;
	struct {
		uint64_t bar_other, resets, irq_asserts;
	} st;
};

/* Run argv (QEMU's command line) with the nextra arguments extra and
 * `-device x-pci-proxy-dev,id=nic0,fd=N` appended, the socket's other end as
 * descriptor fd_no; child (may be NULL) runs in QEMU's process before exec
 * with child_arg (0, or -1 to fail).  pfx: before the connection's messages.
 * The QEMU process id, or -1 with a message. */
pid_t proxy_start(struct proxy *p, const struct proxy_handlers *h, void *ctx, const char *pfx,
		  int fd_no, int argc, char **argv, const char *const *extra, int nextra,
		  int (*child)(unsigned), unsigned child_arg);
/* Descriptors to poll: the socket (-1 once closed), and the resamplefd (-1
 * before SET_IRQFD). */
int proxy_sock(const struct proxy *p);
int proxy_resamplefd(const struct proxy *p);
/* Receive and handle one message: 0, or -1 when QEMU has gone. */
int proxy_handle(struct proxy *p);
/* The resamplefd fired: re-assert INTx if still high. */
void proxy_resampled(struct proxy *p);
/* The device's INTx level; true if it changed. */
bool proxy_set_intx(struct proxy *p, bool level);
void proxy_close(struct proxy *p);

/* syncs: guest RAM map replacements (guest_ram.c counts them) */
void proxy_print_stats(const struct proxy *p, uint64_t syncs, FILE *f);

#endif /* SIM_COSIM_PROXY_H */
