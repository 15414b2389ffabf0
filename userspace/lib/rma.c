// SPDX-License-Identifier: Apache-2.0
/*
 * libextoll: RMA endpoints (docs/rma.md, docs/kernel.md "RMA").
 *
 * An endpoint is an open file of /dev/extollN: the driver keeps its buffers
 * and transfers per file. A buffer is registered by EXTOLL_IOC_RMA_REG (the
 * driver allocates DMA memory) and mapped here with mmap() at the offset the
 * driver returns; put/get post EXTOLL_IOC_RMA_POST, wait is
 * EXTOLL_IOC_RMA_WAIT. The checks of a descriptor are the driver's (one
 * place); this file only refuses what the ioctl cannot carry.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "extoll_pci.h"
#include "extoll_priv.h"

struct extoll_rma {
	struct extoll_nic *nic;
	int fd;
	size_t nbufs;
	struct extoll_rma_buf **bufs;	/* registered, for close */
};

int extoll_rma_target_pci(struct extoll_rma_target *t, const char *pci,
			  unsigned int bar, uint64_t offset)
{
	struct extoll_pci_addr a;

	if (!pci || extoll_pci_addr_parse(pci, &a) || !extoll_pci_addr_full(&a) ||
	    a.domain < 0 || bar > 5)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->kind = EXTOLL_RMA_TARGET_PCI;
	t->domain = a.domain;
	t->bus = (uint8_t)a.bus;
	t->devfn = (uint8_t)(a.dev << 3 | a.fn);
	t->bar = (uint8_t)bar;
	t->addr = offset;
	return 0;
}

void extoll_rma_target_node(struct extoll_rma_target *t, uint16_t node,
			    uint64_t addr)
{
	memset(t, 0, sizeof(*t));
	t->kind = EXTOLL_RMA_TARGET_NODE;
	t->node = node;
	t->addr = addr;
}

int extoll_rma_post_req(struct extoll_ioc_rma_post *req, unsigned int op,
			const struct extoll_rma_buf *buf, size_t off,
			const struct extoll_rma_target *t, size_t len,
			unsigned int flags)
{
	memset(req, 0, sizeof(*req));
	if ((op != EXTOLL_RMA_PUT && op != EXTOLL_RMA_GET) || !buf || !t ||
	    flags & ~EXTOLL_RMA_NOTIFY_COMPLETER)
		return -EINVAL;
	/* What does not fit the ioctl's fields is out of range anyway. */
	if (len > UINT32_MAX || (uint64_t)off > UINT64_MAX - len)
		return -ERANGE;
	req->op = op;
	req->flags = flags & EXTOLL_RMA_NOTIFY_COMPLETER ? EXTOLL_RMA_F_NOTI_CMP : 0;
	req->handle = buf->handle;
	req->len = (uint32_t)len;
	req->offset = off;
	req->addr = t->addr;
	if (op == EXTOLL_RMA_PUT && req->flags)
		req->cnoti = t->cnoti;
	switch (t->kind) {
	case EXTOLL_RMA_TARGET_NODE:
		req->remote = EXTOLL_RMA_REMOTE_ADDR;
		req->node = t->node;
		break;
	case EXTOLL_RMA_TARGET_PCI:
		req->remote = EXTOLL_RMA_REMOTE_PCI;
		req->domain = t->domain;
		req->bus = t->bus;
		req->devfn = t->devfn;
		req->bar = t->bar;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

int extoll_rma_open(const char *spec, struct extoll_rma **out)
{
	struct extoll_rma *ep;
	int ret;

	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -ENOMEM;
	ret = extoll_open(spec, &ep->nic);
	if (ret) {
		free(ep);
		return ret;
	}
	if (extoll_nic_abi(ep->nic) < 3) {
		extoll_close(ep->nic);
		free(ep);
		return -ENOTSUP;
	}
	ep->fd = extoll_nic_fd(ep->nic);
	*out = ep;
	return 0;
}

void extoll_rma_close(struct extoll_rma *ep)
{
	size_t i;

	if (!ep)
		return;
	for (i = 0; i < ep->nbufs; i++) {
		munmap(ep->bufs[i]->addr, ep->bufs[i]->size);
		free(ep->bufs[i]);
	}
	free(ep->bufs);
	extoll_close(ep->nic);	/* closing the file releases the buffers */
	free(ep);
}

struct extoll_nic *extoll_rma_nic(struct extoll_rma *ep)
{
	return ep->nic;
}

int extoll_rma_fd(const struct extoll_rma *ep)
{
	return ep->fd;
}

int extoll_rma_register(struct extoll_rma *ep, size_t size,
			struct extoll_rma_buf **out)
{
	struct extoll_ioc_rma_reg req = { 0 };
	struct extoll_rma_buf *buf, **bufs;
	uint32_t handle;
	int ret;

	if (!size || size > EXTOLL_RMA_REG_MAX)
		return -EINVAL;
	buf = calloc(1, sizeof(*buf));
	bufs = realloc(ep->bufs, (ep->nbufs + 1) * sizeof(*bufs));
	if (!buf || !bufs) {
		free(buf);
		return -ENOMEM;
	}
	ep->bufs = bufs;
	req.size = (uint32_t)size;
	if (ioctl(ep->fd, EXTOLL_IOC_RMA_REG, &req)) {
		ret = -errno;
		free(buf);
		return ret;
	}
	buf->addr = mmap(NULL, req.size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 ep->fd, (off_t)req.mmap_off);
	if (buf->addr == MAP_FAILED) {
		ret = -errno;
		handle = req.handle;
		ioctl(ep->fd, EXTOLL_IOC_RMA_UNREG, &handle);
		free(buf);
		return ret;
	}
	buf->size = req.size;
	buf->handle = req.handle;
	ep->bufs[ep->nbufs++] = buf;
	*out = buf;
	return 0;
}

int extoll_rma_unregister(struct extoll_rma *ep, struct extoll_rma_buf *buf)
{
	uint32_t handle;
	size_t i;

	for (i = 0; i < ep->nbufs && ep->bufs[i] != buf; i++)
		;
	if (!buf || i == ep->nbufs)
		return -ENOENT;
	handle = buf->handle;
	munmap(buf->addr, buf->size);
	/* The driver keeps the memory while a transfer still uses it. */
	if (ioctl(ep->fd, EXTOLL_IOC_RMA_UNREG, &handle))
		return -errno;
	ep->bufs[i] = ep->bufs[--ep->nbufs];
	free(buf);
	return 0;
}

static int rma_post(struct extoll_rma *ep, unsigned int op,
		    const struct extoll_rma_buf *buf, size_t off,
		    const struct extoll_rma_target *t, size_t len,
		    unsigned int flags, uint16_t *cookie)
{
	struct extoll_ioc_rma_post req;
	int ret = extoll_rma_post_req(&req, op, buf, off, t, len, flags);

	if (ret)
		return ret;
	if (ioctl(ep->fd, EXTOLL_IOC_RMA_POST, &req))
		return -errno;
	if (cookie)
		*cookie = req.cookie;
	return 0;
}

int extoll_rma_put(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
		   size_t off, const struct extoll_rma_target *t, size_t len,
		   unsigned int flags, uint16_t *cookie)
{
	return rma_post(ep, EXTOLL_RMA_PUT, buf, off, t, len, flags, cookie);
}

int extoll_rma_get(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
		   size_t off, const struct extoll_rma_target *t, size_t len,
		   unsigned int flags, uint16_t *cookie)
{
	return rma_post(ep, EXTOLL_RMA_GET, buf, off, t, len, flags, cookie);
}

int extoll_rma_wait(struct extoll_rma *ep, uint16_t cookie, int timeout_ms,
		    struct extoll_rma_completion *c)
{
	struct extoll_ioc_rma_wait req = { 0 };
	int ret = 0;

	if (timeout_ms < 0)
		return -EINVAL;
	req.cookie = cookie;
	req.timeout_ms = (uint32_t)timeout_ms;
	do {
		ret = ioctl(ep->fd, EXTOLL_IOC_RMA_WAIT, &req) ? -errno : 0;
	} while (ret == -EINTR);
	/* The driver returns the completion with EIO/EINVAL too. */
	if (c && (!ret || ret == -EIO || (ret == -EINVAL && req.len))) {
		c->cookie = req.cookie;
		c->status = req.status;
		c->len = req.len;
		c->ns = req.ns;
	}
	return ret;
}

int extoll_rma_put_sync(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
			size_t off, const struct extoll_rma_target *t, size_t len,
			int timeout_ms, struct extoll_rma_completion *c)
{
	uint16_t cookie;
	int ret = extoll_rma_put(ep, buf, off, t, len, 0, &cookie);

	return ret ? ret : extoll_rma_wait(ep, cookie, timeout_ms, c);
}

int extoll_rma_get_sync(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
			size_t off, const struct extoll_rma_target *t, size_t len,
			int timeout_ms, struct extoll_rma_completion *c)
{
	uint16_t cookie;
	int ret = extoll_rma_get(ep, buf, off, t, len, 0, &cookie);

	return ret ? ret : extoll_rma_wait(ep, cookie, timeout_ms, c);
}

/* ---- host to host */

int extoll_rma_expose(struct extoll_rma *ep, const struct extoll_rma_buf *buf,
		      size_t off, size_t len, unsigned int flags, uint32_t *key,
		      struct extoll_rma_remote *r)
{
	struct extoll_ioc_rma_expose req = { 0 };

	if (!buf || !key || !r ||
	    !(flags & (EXTOLL_RMA_PEER_READ | EXTOLL_RMA_PEER_WRITE)) ||
	    flags & ~(EXTOLL_RMA_PEER_READ | EXTOLL_RMA_PEER_WRITE))
		return -EINVAL;
	if (extoll_nic_abi(ep->nic) < 4)
		return -ENOTSUP;
	req.handle = buf->handle;
	req.flags = (flags & EXTOLL_RMA_PEER_READ ? EXTOLL_RMA_EXPOSE_READ : 0) |
		    (flags & EXTOLL_RMA_PEER_WRITE ? EXTOLL_RMA_EXPOSE_WRITE : 0);
	req.offset = off;
	req.len = len;
	if (ioctl(ep->fd, EXTOLL_IOC_RMA_EXPOSE, &req))
		return -errno;
	*key = req.key;
	r->node = req.node;
	r->addr = req.addr;
	r->len = req.len;
	r->cnoti = req.cnoti;
	return 0;
}

int extoll_rma_unexpose(struct extoll_rma *ep, uint32_t key)
{
	return ioctl(ep->fd, EXTOLL_IOC_RMA_UNEXPOSE, &key) ? -errno : 0;
}

int extoll_rma_target_remote(struct extoll_rma_target *t,
			     const struct extoll_rma_remote *r, uint64_t off,
			     uint64_t len)
{
	if (off > r->len || len > r->len - off)
		return -ERANGE;
	extoll_rma_target_node(t, r->node, r->addr + off);
	t->cnoti = r->cnoti;
	return 0;
}

int extoll_rma_remote_format(const struct extoll_rma_remote *r, char *s, size_t n)
{
	int w = snprintf(s, n, "%u:0x%" PRIx64 ":%" PRIu64 ":0x%" PRIx64, r->node,
			 r->addr, r->len, r->cnoti);

	return w < 0 || (size_t)w >= n ? -EINVAL : 0;
}

/* One number of the text form and the separator after it. */
static int remote_field(const char **p, uint64_t *v, int last)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(*p, &end, 0);
	if (errno || end == *p || (last ? *end != '\0' : *end != ':'))
		return -EINVAL;
	*p = last ? end : end + 1;
	return 0;
}

int extoll_rma_remote_parse(const char *s, struct extoll_rma_remote *r)
{
	uint64_t node, addr, len, cnoti = 0;
	const char *p = s;
	int n = 0;

	if (!s)
		return -EINVAL;
	for (; *p; p++)
		n += *p == ':';
	if (n != 2 && n != 3)
		return -EINVAL;
	p = s;
	if (remote_field(&p, &node, 0) || remote_field(&p, &addr, 0) ||
	    remote_field(&p, &len, n == 2) || (n == 3 && remote_field(&p, &cnoti, 1)))
		return -EINVAL;
	if (node > UINT16_MAX || !len)
		return -EINVAL;
	r->node = (uint16_t)node;
	r->addr = addr;
	r->len = len;
	r->cnoti = cnoti;
	return 0;
}
