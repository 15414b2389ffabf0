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

static const struct proxy_handlers *hd;
static int sock = -1;
static int irqfd = -1, resamplefd = -1;
static bool intx_level, tcg_guess = true;

static struct {
	uint64_t bar_other, resets, irq_asserts;
} st;

static int send_ret(uint64_t val)
{
	struct {
		struct mp_hdr h;
		uint64_t v;
	} m = { { MPQEMU_CMD_RET, 0, sizeof(uint64_t) }, val };
	const char *p = (const char *)&m;
	size_t left = sizeof(m);

	while (left) {
		ssize_t n = send(sock, p, left, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			logmsg("send to QEMU: %s", n < 0 ? strerror(errno) : "closed");
			return -1;
		}
		p += n;
		left -= n;
	}
	return 0;
}

static int recv_full(void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(sock, p, len, 0);
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

static void irqfd_assert(void)
{
	uint64_t one = 1;

	if (irqfd >= 0 && write(irqfd, &one, sizeof(one)) < 0)
		logmsg("irqfd write: %s", strerror(errno));
}

bool proxy_set_intx(bool level)
{
	static bool noted;

	if (level == intx_level)
		return false;
	intx_level = level;
	if (!level)
		return true;
	st.irq_asserts++;
	if (!noted) {
		noted = true;
		logmsg("intx asserted%s (note: under TCG QEMU cannot deliver the proxy's INTx: "
		       "the irqfd needs KVM's in-kernel irqchip, so the guest sees no interrupt)",
		       irqfd < 0 ? " before QEMU sent an irqfd" : "");
	}
	irqfd_assert();
	return true;
}

void proxy_resampled(void)
{
	uint64_t cnt;

	if (read(resamplefd, &cnt, sizeof(cnt)) < 0 && errno != EAGAIN)
		logmsg("resamplefd read: %s", strerror(errno));
	if (intx_level)
		irqfd_assert();
}

static void set_irqfd(const int *fds, int nfds)
{
	if (irqfd >= 0)
		close(irqfd);
	if (resamplefd >= 0)
		close(resamplefd);
	irqfd = nfds > 0 ? fds[0] : -1;
	resamplefd = nfds > 1 ? fds[1] : -1;
	for (int i = 2; i < nfds; i++)
		close(fds[i]);
	if (tcg_guess)
		logmsg("note: QEMU runs under TCG, so the device's INTx will not reach the "
		       "guest (irqfd needs KVM); drivers must poll");
	if (intx_level)
		irqfd_assert();
}

static int bar_access(bool write, const struct mp_bar *b)
{
	if (!b->memory || b->size < 1 || b->size > 8) {
		st.bar_other++;
		logmsg("I/O or odd BAR %s 0x%" PRIx64 "/%u: %s", write ? "write" : "read", b->addr,
		       b->size, write ? "ignored" : "all-ones");
		return send_ret(write ? 0 : ones(b->size > 8 ? 8 : b->size));
	}
	if (!write)
		return send_ret(hd->bar_read(b->addr, b->size));
	hd->bar_write(b->addr, b->val, b->size);
	return send_ret(0);
}

int proxy_handle(void)
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
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
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
	if ((size_t)n < sizeof(h) && recv_full((char *)&h + n, sizeof(h) - n))
		return -1;
	if (h.size > sizeof(d)) {
		logmsg("protocol error: message %d with %" PRIu64 " bytes", h.cmd, h.size);
		return -1;
	}
	memset(&d, 0, sizeof(d));
	if (h.size && recv_full(&d, h.size))
		return -1;

	switch (h.cmd) {
	case MPQEMU_CMD_SYNC_SYSMEM: {
		struct guest_ram_region r[REMOTE_MAX_FDS];

		for (int i = 0; i < nfds; i++)
			r[i] = (struct guest_ram_region){ d.sysmem.gpa[i], d.sysmem.size[i],
							  d.sysmem.offset[i], fds[i] };
		hd->sysmem(r, nfds);
		return 0;
	}
	case MPQEMU_CMD_SET_IRQFD:
		set_irqfd(fds, nfds);
		return 0;
	default:
		break;
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]);

	switch (h.cmd) {
	case MPQEMU_CMD_PCI_CFGREAD:
		return send_ret(hd->cfg_read(d.conf.addr, d.conf.len));
	case MPQEMU_CMD_PCI_CFGWRITE:
		return send_ret(hd->cfg_write(d.conf.addr, d.conf.val, d.conf.len));
	case MPQEMU_CMD_BAR_READ:
		return bar_access(false, &d.bar);
	case MPQEMU_CMD_BAR_WRITE:
		return bar_access(true, &d.bar);
	case MPQEMU_CMD_DEVICE_RESET:
		st.resets++;
		hd->reset();
		return send_ret(0);
	default:
		logmsg("unknown message %d (%" PRIu64 " bytes) ignored", h.cmd, h.size);
		return 0;
	}
}

pid_t proxy_start(const struct proxy_handlers *h, int fd_no, int argc, char **argv,
		  const char *const *extra, int nextra, int (*child)(void))
{
	char dev[96];
	char **args = calloc(argc + nextra + 3, sizeof(char *));
	int sv[2];
	pid_t pid;

	hd = h;
	if (!args)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		logmsg("socketpair: %s", strerror(errno));
		free(args);
		return -1;
	}
	sock = sv[0];
	snprintf(dev, sizeof(dev), "x-pci-proxy-dev,id=nic0,fd=%d", fd_no);
	for (int i = 0; i < argc; i++) {
		args[i] = argv[i];
		if (strstr(argv[i], "kvm"))
			tcg_guess = false;
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
		if (dup2(sv[1], fd_no) < 0 || (child && child())) {
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

int proxy_sock(void)
{
	return sock;
}

int proxy_resamplefd(void)
{
	return resamplefd;
}

void proxy_close(void)
{
	if (sock >= 0)
		close(sock);
	sock = -1;
}

void proxy_print_stats(FILE *f)
{
	if (st.bar_other)
		fprintf(f, "cosimd stats: I/O or odd-sized BAR accesses %" PRIu64 "\n", st.bar_other);
	fprintf(f, "cosimd stats: RAM syncs %" PRIu64 ", device resets %" PRIu64
		", intx asserts %" PRIu64 "\n", guest_ram_syncs(), st.resets, st.irq_asserts);
}
