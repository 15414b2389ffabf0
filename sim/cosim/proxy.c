// SPDX-License-Identifier: Apache-2.0
/* QEMU's x-pci-proxy-dev protocol and process: see proxy.h. */
#include "proxy.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace.h"

/* ---- QEMU 7.2 multi-process protocol (hw/remote/mpqemu-link.h) ---- */
enum {
	MPQEMU_CMD_SYNC_SYSMEM = 0,
	MPQEMU_CMD_RET = 1,
	MPQEMU_CMD_PCI_CFGWRITE = 2,
	MPQEMU_CMD_PCI_CFGREAD = 3,
	MPQEMU_CMD_BAR_WRITE = 4,
	MPQEMU_CMD_BAR_READ = 5,
	MPQEMU_CMD_SET_IRQFD = 6,
	MPQEMU_CMD_DEVICE_RESET = 7,
};
#define REMOTE_MAX_FDS GUEST_RAM_MAX_REGIONS

struct mp_hdr {
	int32_t cmd;
	uint32_t pad;
	uint64_t size;
};

struct mp_conf {
	uint32_t addr;
	uint32_t val;
	int32_t len;
};

struct mp_bar {
	uint64_t addr;
	uint64_t val;
	uint32_t size;
	bool memory;
};

struct mp_sysmem {
	uint64_t gpa[REMOTE_MAX_FDS];
	uint64_t size[REMOTE_MAX_FDS];
	int64_t offset[REMOTE_MAX_FDS];
};

_Static_assert(sizeof(struct mp_hdr) == 16, "header layout");
_Static_assert(sizeof(struct mp_conf) == 12, "conf layout");
_Static_assert(sizeof(struct mp_bar) == 24, "bar layout");
_Static_assert(sizeof(struct mp_sysmem) == 192, "sysmem layout");

static int send_ret(struct proxy *p, uint64_t val)
{
	struct {
		struct mp_hdr h;
		uint64_t v;
	} m = { { MPQEMU_CMD_RET, 0, sizeof(uint64_t) }, val };
	const char *b = (const char *)&m;
	size_t left = sizeof(m);

	while (left) {
		ssize_t n = send(p->sock, b, left, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			logmsg("%ssend to QEMU: %s", p->pfx, n < 0 ? strerror(errno) : "closed");
			return -1;
		}
		b += n;
		left -= n;
	}
	return 0;
}

static int recv_full(struct proxy *pr, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(pr->sock, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static uint64_t ones(unsigned size)
{
	return size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
}

static void irqfd_assert(struct proxy *p)
{
	uint64_t one = 1;

	if (p->irqfd >= 0 && write(p->irqfd, &one, sizeof(one)) < 0)
		logmsg("%sirqfd write: %s", p->pfx, strerror(errno));
}

bool proxy_set_intx(struct proxy *p, bool level)
{
	if (level == p->intx_level)
		return false;
	p->intx_level = level;
	if (!level)
		return true;
	p->st.irq_asserts++;
	if (!p->noted) {
		p->noted = true;
		logmsg("%sintx asserted%s (note: under TCG QEMU cannot deliver the proxy's INTx: "
		       "the irqfd needs KVM's in-kernel irqchip, so the guest sees no interrupt)",
		       p->pfx, p->irqfd < 0 ? " before QEMU sent an irqfd" : "");
	}
	irqfd_assert(p);
	return true;
}

void proxy_resampled(struct proxy *p)
{
	uint64_t cnt;

	if (read(p->resamplefd, &cnt, sizeof(cnt)) < 0 && errno != EAGAIN)
		logmsg("%sresamplefd read: %s", p->pfx, strerror(errno));
	if (p->intx_level)
		irqfd_assert(p);
}

static void set_irqfd(struct proxy *p, const int *fds, int nfds)
{
	if (p->irqfd >= 0)
		close(p->irqfd);
	if (p->resamplefd >= 0)
		close(p->resamplefd);
	p->irqfd = nfds > 0 ? fds[0] : -1;
	p->resamplefd = nfds > 1 ? fds[1] : -1;
	for (int i = 2; i < nfds; i++)
		close(fds[i]);
	if (p->tcg_guess)
		logmsg("%snote: QEMU runs under TCG, so the device's INTx will not reach the "
		       "guest (irqfd needs KVM); drivers must poll", p->pfx);
	if (p->intx_level)
		irqfd_assert(p);
}

static int bar_access(struct proxy *p, bool write, const struct mp_bar *b)
{
	if (!b->memory || b->size < 1 || b->size > 8) {
		p->st.bar_other++;
		logmsg("%sI/O or odd BAR %s 0x%" PRIx64 "/%u: %s", p->pfx, write ? "write" : "read",
		       b->addr, b->size, write ? "ignored" : "all-ones");
		return send_ret(p, write ? 0 : ones(b->size > 8 ? 8 : b->size));
	}
	if (!write)
		return send_ret(p, p->hd->bar_read(p->ctx, b->addr, b->size));
	p->hd->bar_write(p->ctx, b->addr, b->val, b->size);
	return send_ret(p, 0);
}

int proxy_handle(struct proxy *p)
{
	struct mp_hdr h;
	union {
		struct mp_conf conf;
		struct mp_bar bar;
		struct mp_sysmem sysmem;
		uint8_t raw[256];
	} d;
	int fds[REMOTE_MAX_FDS], nfds = 0;
	char cbuf[CMSG_SPACE(sizeof(int) * REMOTE_MAX_FDS)];
	struct iovec iov = { &h, sizeof(h) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	ssize_t n;

	do
		n = recvmsg(p->sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
			int k = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			for (int i = 0; i < k && nfds < REMOTE_MAX_FDS; i++)
				memcpy(&fds[nfds++], CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
		}
	}
	if ((size_t)n < sizeof(h) && recv_full(p, (char *)&h + n, sizeof(h) - n))
		return -1;
	if (h.size > sizeof(d)) {
		logmsg("%sprotocol error: message %d with %" PRIu64 " bytes", p->pfx, h.cmd, h.size);
		return -1;
	}
	memset(&d, 0, sizeof(d));
	if (h.size && recv_full(p, &d, h.size))
		return -1;

	switch (h.cmd) {
	case MPQEMU_CMD_SYNC_SYSMEM: {
		struct guest_ram_region r[REMOTE_MAX_FDS];

		for (int i = 0; i < nfds; i++)
			r[i] = (struct guest_ram_region){ d.sysmem.gpa[i], d.sysmem.size[i],
							  d.sysmem.offset[i], fds[i] };
		p->hd->sysmem(p->ctx, r, nfds);
		return 0;
	}
	case MPQEMU_CMD_SET_IRQFD:
		set_irqfd(p, fds, nfds);
		return 0;
	default:
		break;
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]);

	switch (h.cmd) {
	case MPQEMU_CMD_PCI_CFGREAD:
		return send_ret(p, p->hd->cfg_read(p->ctx, d.conf.addr, d.conf.len));
	case MPQEMU_CMD_PCI_CFGWRITE:
		return send_ret(p, p->hd->cfg_write(p->ctx, d.conf.addr, d.conf.val, d.conf.len));
	case MPQEMU_CMD_BAR_READ:
		return bar_access(p, false, &d.bar);
	case MPQEMU_CMD_BAR_WRITE:
		return bar_access(p, true, &d.bar);
	case MPQEMU_CMD_DEVICE_RESET:
		p->st.resets++;
		p->hd->reset(p->ctx);
		return send_ret(p, 0);
	default:
		logmsg("%sunknown message %d (%" PRIu64 " bytes) ignored", p->pfx, h.cmd, h.size);
		return 0;
	}
}

pid_t proxy_start(struct proxy *p, const struct proxy_handlers *h, void *ctx, const char *pfx,
		  int fd_no, int argc, char **argv, const char *const *extra, int nextra,
		  int (*child)(unsigned), unsigned child_arg)
{
	char dev[96];
	char **args = calloc(argc + nextra + 3, sizeof(char *));
	int sv[2];
	pid_t pid;

	memset(p, 0, sizeof(*p));
	p->hd = h;
	p->ctx = ctx;
	p->pfx = pfx;
	p->sock = p->irqfd = p->resamplefd = -1;
	p->tcg_guess = true;
	if (!args)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		logmsg("socketpair: %s", strerror(errno));
		free(args);
		return -1;
	}
	p->sock = sv[0];
	snprintf(dev, sizeof(dev), "x-pci-proxy-dev,id=nic0,fd=%d", fd_no);
	for (int i = 0; i < argc; i++) {
		args[i] = argv[i];
		if (strstr(argv[i], "kvm"))
			p->tcg_guess = false;
	}
	for (int i = 0; i < nextra; i++)
		args[argc + i] = (char *)extra[i];
	argc += nextra;
	args[argc] = "-device";
	args[argc + 1] = dev;
	args[argc + 2] = NULL;
	pid = fork();
	if (pid < 0) {
		logmsg("fork: %s", strerror(errno));
		free(args);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (dup2(sv[1], fd_no) < 0 || (child && child(child_arg))) {
			fprintf(stderr, "cosimd: dup2: %s\n", strerror(errno));
			_exit(127);
		}
		execvp(args[0], args);
		fprintf(stderr, "cosimd: cannot run %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	free(args);
	close(sv[1]);
	return pid;
}

int proxy_sock(const struct proxy *p)
{
	return p->sock;
}

int proxy_resamplefd(const struct proxy *p)
{
	return p->resamplefd;
}

void proxy_close(struct proxy *p)
{
	if (p->sock >= 0)
		close(p->sock);
	p->sock = -1;
	if (p->irqfd >= 0)
		close(p->irqfd);
	if (p->resamplefd >= 0)
		close(p->resamplefd);
	p->irqfd = p->resamplefd = -1;
}

void proxy_print_stats(const struct proxy *p, uint64_t syncs, FILE *f)
{
	if (p->st.bar_other)
		fprintf(f, "cosimd stats: I/O or odd-sized BAR accesses %" PRIu64 "\n", p->st.bar_other);
	fprintf(f, "cosimd stats: RAM syncs %" PRIu64 ", device resets %" PRIu64
		", intx asserts %" PRIu64 "\n", syncs, p->st.resets, p->st.irq_asserts);
}
