// SPDX-License-Identifier: Apache-2.0
/*
 * libextoll's RMA requests without a NIC (make -C userspace check): what
 * extoll_rma_put/get hand to EXTOLL_IOC_RMA_POST for both target kinds
 * (every field, reserved ones zero, the PCI address split into domain, bus
 * and devfn), what extoll_rma_target_pci refuses, the requests refused
 * before any ioctl (bad op, flags, target kind, a length the ioctl cannot
 * carry), and an endpoint on a NIC that does not exist.
 *   rma_test   prints "rma: N passed, 0 failed", exit 1 on a failure
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "extoll_priv.h"

static int passed, failed;

#define CHECK(c) do { if (c) passed++; else { failed++; \
	printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)

static int zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

int main(void)
{
	struct extoll_rma_buf buf = { .addr = NULL, .size = 1 << 20, .handle = 3 };
	struct extoll_ioc_rma_post req;
	struct extoll_rma_target t;
	struct extoll_rma *ep;

	/* a device's BAR */
	CHECK(extoll_rma_target_pci(&t, "fffe:01:02.3", 2, 0x40) == 0);
	t.cnoti = 0x1000;
	CHECK(t.kind == EXTOLL_RMA_TARGET_PCI && t.domain == 0xfffe && t.bus == 1 &&
	      t.devfn == (2 << 3 | 3) && t.bar == 2 && t.addr == 0x40);
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, &buf, 0x100, &t, 4096,
				  EXTOLL_RMA_NOTIFY_COMPLETER) == 0);
	CHECK(req.op == EXTOLL_RMA_PUT && req.flags == EXTOLL_RMA_F_NOTI_CMP &&
	      req.handle == 3 && req.len == 4096 && req.offset == 0x100 &&
	      req.remote == EXTOLL_RMA_REMOTE_PCI && req.node == 0 && req.bar == 2 &&
	      req.devfn == (2 << 3 | 3) && req.addr == 0x40 && req.domain == 0xfffe &&
	      req.bus == 1);
	CHECK(req.cnoti == 0x1000 && req.rsvd0 == 0 && req.cookie == 0 && req.bus_addr == 0 &&
	      zero(req.rsvd, sizeof(req.rsvd)));
	/* the completer address only with the flag, and only for a put */
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, &buf, 0, &t, 8, 0) == 0 && req.cnoti == 0);
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_GET, &buf, 0, &t, 8,
				  EXTOLL_RMA_NOTIFY_COMPLETER) == 0 && req.cnoti == 0 &&
	      req.flags == EXTOLL_RMA_F_NOTI_CMP);

	/* a bus address at a node */
	extoll_rma_target_node(&t, 7, 0xfd00080000ull);
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_GET, &buf, 0, &t, 8, 0) == 0);
	CHECK(req.op == EXTOLL_RMA_GET && req.flags == 0 && req.remote == EXTOLL_RMA_REMOTE_ADDR &&
	      req.node == 7 && req.addr == 0xfd00080000ull && req.domain == 0 &&
	      req.bus == 0 && req.devfn == 0 && req.bar == 0 && req.len == 8);

	/* lengths and offsets go to the driver as given (it checks them) ... */
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, &buf, 0, &t, 6, 0) == 0 && req.len == 6);
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, &buf, 0, &t, 0, 0) == 0 && req.len == 0);
	/* ... unless the ioctl cannot carry them */
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, &buf, 0, &t, 1ull << 32, 0) == -ERANGE);
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, &buf, SIZE_MAX, &t, 8, 0) == -ERANGE);
	/* bad op, flags, target kind, missing arguments */
	CHECK(extoll_rma_post_req(&req, 2, &buf, 0, &t, 8, 0) == -EINVAL);
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, &buf, 0, &t, 8, 2) == -EINVAL);
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, NULL, 0, &t, 8, 0) == -EINVAL);
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, &buf, 0, NULL, 8, 0) == -EINVAL);
	t.kind = (enum extoll_rma_target_kind)5;
	CHECK(extoll_rma_post_req(&req, EXTOLL_RMA_PUT, &buf, 0, &t, 8, 0) == -EINVAL);

	/* PCI targets: a whole device with its domain, a BAR 0..5 */
	CHECK(extoll_rma_target_pci(&t, "01:00.0", 0, 0) == -EINVAL);
	CHECK(extoll_rma_target_pci(&t, "fffe:", 0, 0) == -EINVAL);
	CHECK(extoll_rma_target_pci(&t, "fffe:01:00.0", 6, 0) == -EINVAL);
	CHECK(extoll_rma_target_pci(&t, "fffe:01:20.0", 0, 0) == -EINVAL);
	CHECK(extoll_rma_target_pci(&t, NULL, 0, 0) == -EINVAL);
	CHECK(extoll_rma_target_pci(&t, "0000:00:02.0", 5, 0) == 0 && t.domain == 0 &&
	      t.devfn == 0x10 && t.bar == 5);

	/* peers' handles (host to host): text form both ways, the region's bounds */
	{
		struct extoll_rma_remote r = { 3, 0x1234000, 0x100000, 0xfd00080020ull }, q;
		char h[EXTOLL_RMA_REMOTE_STRLEN], small[8];

		CHECK(extoll_rma_remote_format(&r, h, sizeof(h)) == 0 &&
		      !strcmp(h, "3:0x1234000:1048576:0xfd00080020"));
		CHECK(extoll_rma_remote_format(&r, small, sizeof(small)) == -EINVAL);
		CHECK(extoll_rma_remote_parse(h, &q) == 0 && q.node == 3 && q.addr == r.addr &&
		      q.len == r.len && q.cnoti == r.cnoti);
		CHECK(extoll_rma_remote_parse("7:4096:8192", &q) == 0 && q.node == 7 &&
		      q.addr == 4096 && q.len == 8192 && q.cnoti == 0);
		CHECK(extoll_rma_remote_parse("7:4096", &q) == -EINVAL);
		CHECK(extoll_rma_remote_parse("7:4096:0", &q) == -EINVAL);
		CHECK(extoll_rma_remote_parse("70000:4096:8", &q) == -EINVAL);
		CHECK(extoll_rma_remote_parse("7:4096:8:", &q) == -EINVAL);
		CHECK(extoll_rma_remote_parse("7:-1:8", &q) == -EINVAL);
		CHECK(extoll_rma_remote_parse("7:4096:8:1:2", &q) == -EINVAL);
		CHECK(extoll_rma_remote_parse(NULL, &q) == -EINVAL);
		CHECK(extoll_rma_target_remote(&t, &r, 0, 0x100000) == 0 &&
		      t.kind == EXTOLL_RMA_TARGET_NODE && t.node == 3 && t.addr == 0x1234000 &&
		      t.cnoti == r.cnoti);
		CHECK(extoll_rma_target_remote(&t, &r, 0xffff8, 8) == 0 && t.addr == 0x1333ff8);
		CHECK(extoll_rma_target_remote(&t, &r, 0xffffc, 8) == -ERANGE);
		CHECK(extoll_rma_target_remote(&t, &r, 0x100000, 0) == 0);
		CHECK(extoll_rma_target_remote(&t, &r, 0x100004, 0) == -ERANGE);
		CHECK(extoll_rma_target_remote(&t, &r, 8, UINT64_MAX) == -ERANGE);
	}

	/* no such NIC */
	CHECK(extoll_rma_open("/dev/extoll-none", &ep) == -ENOENT);

	printf("rma: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
