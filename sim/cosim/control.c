// SPDX-License-Identifier: Apache-2.0
/* Fault injection: the control channel and --fault (see control.h). */
#include "control.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "record.h"
#include "trace.h"

#define MAX_FAULTS 32

static struct world *world;
static struct {
	uint64_t cycle;
	char cmd[64];
} faults[MAX_FAULTS];
static unsigned nfaults, next_fault;   /* faults[] sorted by cycle */
static uint64_t next_cycle = UINT64_MAX, done, barriers;

/* one channel per host (its guest's ttyS1) */
static struct chan {
	int sock, child_sock, child_no;
	char chardev[64];
	char line[256];
	size_t line_len;
	bool line_overlong;
	bool gone;              /* its QEMU has gone */
	bool waiting;           /* at barrier[] (no answer yet) */
	char barrier[64];
} chans[CONTROL_MAX_HOSTS];
static unsigned nchans;

/* strict decimal unsigned */
static int parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!*s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

/* Parse and (with run) execute one command; 0, or -1 with a message.  On
 * success *what describes what was done. */
static int command(struct world *w, const char *cmd, bool run, char *what, size_t wlen)
{
	char buf[128], *tok[4], *save = NULL, *t;
	unsigned n = 0;
	unsigned long node;

	snprintf(buf, sizeof(buf), "%s", cmd);
	for (t = strtok_r(buf, " \t\r\n", &save); t && n < 4; t = strtok_r(NULL, " \t\r\n", &save))
		tok[n++] = t;
	if (!n) {
		snprintf(what, wlen, "empty command");
		return -1;
	}
	if (!strcmp(tok[0], "cycle") && n == 1) {
		snprintf(what, wlen, "cycle");
		return 0;
	}
	if (!strcmp(tok[0], "ber") && n == 2) {
		char *end;
		double r = strtod(tok[1], &end);

		if (end == tok[1] || *end || !(r >= 0 && r < 1)) {
			snprintf(what, wlen, "ber: bad bit-error rate '%s' (0 <= RATE < 1)", tok[1]);
			return -1;
		}
		if (run)
			world_set_ber(w, r);
		snprintf(what, wlen, "bit-error rate %g on every link without link-ber", r);
		return 0;
	}
	if ((!strcmp(tok[0], "link-down") || !strcmp(tok[0], "link-up")) && n == 3) {
		bool up = tok[0][5] == 'u';
		int port = extoll_port_parse(tok[2]);

		if (parse_uint(tok[1], 65535, &node) || port < 0) {
			snprintf(what, wlen, "%s: expected NODE X+|X-|Y+|Y-|Z+|Z-", tok[0]);
			return -1;
		}
		/* checked against the topology; run: the world finds the link */
		if (!run) {
			const struct extoll_topo *t = world_topology(w);

			if (!extoll_topo_link_cabled(t, (unsigned)node, (unsigned)port)) {
				snprintf(what, wlen, "%s: node %lu has no link at %s", tok[0], node,
					 tok[2]);
				return -1;
			}
		} else if (world_link_set(w, (unsigned)node, (unsigned)port, up) < 0) {
			snprintf(what, wlen, "%s: node %lu has no link at %s", tok[0], node, tok[2]);
			return -1;
		}
		snprintf(what, wlen, "link node %lu %s %s", node, tok[2], up ? "up" : "down");
		return 0;
	}
	if (!strcmp(tok[0], "busy") && n == 2) {
		const struct extoll_topo *t = world_topology(w);

		if (parse_uint(tok[1], 65535, &node) || node >= t->n) {
			snprintf(what, wlen, "busy: no node '%s' in the world (0..%u)", tok[1], t->n - 1);
			return -1;
		}
		snprintf(what, wlen, "node %lu %s", node,
			 world_node_busy(w, (unsigned)node) ? "busy" : "idle");
		return 0;
	}
	if ((!strcmp(tok[0], "kill") || !strcmp(tok[0], "revive")) && n == 2) {
		bool alive = tok[0][0] == 'r';
		const struct extoll_topo *t = world_topology(w);

		if (parse_uint(tok[1], 65535, &node) || node >= t->n) {
			snprintf(what, wlen, "%s: no node '%s' in the world (0..%u)", tok[0], tok[1],
				 t->n - 1);
			return -1;
		}
		if (extoll_topo_role(t, (unsigned)node) == EXTOLL_TOPO_HOST) {
			snprintf(what, wlen, "%s: node %lu is the host (served to QEMU)", tok[0], node);
			return -1;
		}
		int r = run ? world_node_set(w, (unsigned)node, alive) : 1;
		snprintf(what, wlen, "node %lu %s%s", node, alive ? "alive" : "dead",
			 r == 0 ? " (already)" : "");
		return 0;
	}
	if (!strcmp(tok[0], "reset") && n == 2) {
		const struct extoll_topo *t = world_topology(w);

		if (parse_uint(tok[1], 65535, &node) || node >= t->n) {
			snprintf(what, wlen, "reset: no node '%s' in the world (0..%u)", tok[1], t->n - 1);
			return -1;
		}
		if (extoll_topo_role(t, (unsigned)node) == EXTOLL_TOPO_HOST) {
			snprintf(what, wlen, "reset: node %lu is the host (served to QEMU)", node);
			return -1;
		}
		if (run)
			world_node_reset(w, (unsigned)node);
		snprintf(what, wlen, "node %lu reset", node);
		return 0;
	}
	if (!strcmp(tok[0], "barrier")) {
		snprintf(what, wlen, "barrier: only from a guest (its control channel, ttyS1)");
		return -1;
	}
	snprintf(what, wlen, "unknown command '%s' (link-down, link-up NODE PORT; kill, revive, reset, "
		 "busy NODE; ber RATE; cycle; barrier NAME)", cmd);
	return -1;
}

int control_check(const struct world *w, const char *cmd, char *err, size_t errlen)
{
	return command((struct world *)w, cmd, false, err, errlen);
}

int control_run(struct world *w, const char *cmd, char *what, size_t wlen)
{
	return command(w, cmd, true, what, wlen);
}

int control_add_fault(const char *spec, char *err, size_t errlen)
{
	const char *colon = strchr(spec, ':');
	char num[32];
	unsigned long long c;
	char *end;
	unsigned i;

	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(num) ||
	    strlen(colon + 1) >= sizeof(faults[0].cmd) || !colon[1]) {
		snprintf(err, errlen, "--fault: expected CYCLE:COMMAND, got '%s'", spec);
		return -1;
	}
	memcpy(num, spec, (size_t)(colon - spec));
	num[colon - spec] = 0;
	errno = 0;
	c = strtoull(num, &end, 0);
	if (errno || *end || num[0] == '-') {
		snprintf(err, errlen, "--fault: bad cycle '%s'", num);
		return -1;
	}
	if (nfaults == MAX_FAULTS) {
		snprintf(err, errlen, "--fault: at most %d", MAX_FAULTS);
		return -1;
	}
	/* keep sorted by cycle (stable: same cycle in command-line order) */
	for (i = nfaults; i > 0 && faults[i - 1].cycle > c; i--)
		faults[i] = faults[i - 1];
	faults[i].cycle = c;
	snprintf(faults[i].cmd, sizeof(faults[i].cmd), "%s", colon + 1);
	nfaults++;
	return 0;
}

int control_init(struct world *w, unsigned nhosts, char *err, size_t errlen)
{
	char what[160];

	if (nhosts > CONTROL_MAX_HOSTS) {
		snprintf(err, errlen, "control: at most %d hosts", CONTROL_MAX_HOSTS);
		return -1;
	}
	world = w;
	nchans = nhosts;
	for (unsigned i = 0; i < CONTROL_MAX_HOSTS; i++)
		chans[i].sock = chans[i].child_sock = chans[i].child_no = -1;
	for (unsigned i = 0; i < nfaults; i++)
		if (command(w, faults[i].cmd, false, what, sizeof(what))) {
			snprintf(err, errlen, "--fault %" PRIu64 ":%s: %s", faults[i].cycle,
				 faults[i].cmd, what);
			return -1;
		}
	next_cycle = nfaults ? faults[0].cycle : UINT64_MAX;
	return 0;
}

static void run(const char *src, const char *cmd, char *reply, size_t rlen)
{
	char what[160];

	if (command(world, cmd, true, what, sizeof(what))) {
		logmsg("fault (%s) at world cycle %" PRIu64 ": %s", src, world_cycles(world), what);
		snprintf(reply, rlen, "error %s\n", what);
		return;
	}
	if (strcmp(what, "cycle") && strncmp(cmd, "busy", 4)) {
		done++;
		record_cmd(cmd);
		logmsg("fault (%s) at world cycle %" PRIu64 ": %s", src, world_cycles(world), what);
		clock_kick();
	}
	snprintf(reply, rlen, "ok %" PRIu64 " %s\n", world_cycles(world), what);
}

void control_tick(void)
{
	char reply[256];

	while (world_cycles(world) >= next_cycle) {
		run("--fault", faults[next_fault].cmd, reply, sizeof(reply));
		next_fault++;
		next_cycle = next_fault < nfaults ? faults[next_fault].cycle : UINT64_MAX;
	}
}

bool control_pending(void)
{
	return next_cycle != UINT64_MAX;
}

uint64_t control_faults(void)
{
	return done;
}

uint64_t control_barriers(void)
{
	return barriers;
}

int control_qemu_args(unsigned host, int fd_no, const char *args[4])
{
	struct chan *c = &chans[host];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		logmsg("control channel: socketpair: %s", strerror(errno));
		return -1;
	}
	c->sock = sv[0];
	c->child_sock = sv[1];
	c->child_no = fd_no;
	snprintf(c->chardev, sizeof(c->chardev), "socket,id=simctl,fd=%d", fd_no);
	args[0] = "-chardev";
	args[1] = c->chardev;
	args[2] = "-serial";
	args[3] = "chardev:simctl";
	return 0;
}

int control_child(unsigned host)
{
	struct chan *c = &chans[host];

	if (c->child_sock < 0)
		return 0;
	return dup2(c->child_sock, c->child_no) < 0 ? -1 : 0;
}

int control_fd(unsigned host)
{
	struct chan *c = &chans[host];

	if (c->child_sock >= 0) {  /* QEMU has it by now */
		close(c->child_sock);
		c->child_sock = -1;
	}
	return c->sock;
}

static void send_reply(struct chan *c, const char *r)
{
	if (c->sock >= 0 && r[0] && write(c->sock, r, strlen(r)) < 0)
		logmsg("control channel: write: %s", strerror(errno));
}

/* Answer the hosts waiting at a barrier once every host is there (all with the
 * same name), or with an error once a host has gone (it will never come). */
static void barrier_check(void)
{
	unsigned nwait = 0, i;
	int gone = -1, first = -1;
	bool mismatch = false;
	char r[256];

	for (i = 0; i < nchans; i++) {
		if (chans[i].gone) {
			gone = (int)i;
			continue;
		}
		if (!chans[i].waiting)
			continue;
		nwait++;
		if (first < 0)
			first = (int)i;
		else if (strcmp(chans[i].barrier, chans[first].barrier))
			mismatch = true;
	}
	if (!nwait || (gone < 0 && nwait < nchans))
		return;
	if (gone < 0 && !mismatch) {
		barriers++;
		logmsg("barrier '%s': all %u hosts there at world cycle %" PRIu64,
		       chans[first].barrier, nchans, world_cycles(world));
	}
	for (i = 0; i < nchans; i++) {
		struct chan *c = &chans[i];

		if (c->gone || !c->waiting)
			continue;
		if (gone >= 0)
			snprintf(r, sizeof(r), "error barrier %s: host %d has gone\n", c->barrier, gone);
		else if (mismatch)
			snprintf(r, sizeof(r), "error barrier %s: the hosts wait at different barriers "
				 "(host %d at %s)\n", c->barrier, first, chans[first].barrier);
		else
			snprintf(r, sizeof(r), "ok %" PRIu64 " barrier %s (%u hosts)\n",
				 world_cycles(world), c->barrier, nchans);
		if (gone >= 0 || mismatch)
			logmsg("control (host %u): %s", i, r);
		c->waiting = false;
		send_reply(c, r);
	}
}

void control_host_gone(unsigned host)
{
	struct chan *c = &chans[host];

	c->gone = true;
	c->waiting = false;
	if (c->sock >= 0)
		close(c->sock);
	c->sock = -1;
	barrier_check();
}

void control_handle(unsigned host)
{
	struct chan *c = &chans[host];
	char buf[256], r[256];
	ssize_t n = read(c->sock, buf, sizeof(buf));

	if (n <= 0) {
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		close(c->sock);   /* QEMU closed it: no more commands */
		c->sock = -1;
		return;
	}
	for (ssize_t i = 0; i < n; i++) {
		char ch = buf[i];

		if (ch == '\r')
			continue;
		if (ch != '\n') {
			if (c->line_len + 1 < sizeof(c->line))
				c->line[c->line_len++] = ch;
			else
				c->line_overlong = true;
			continue;
		}
		c->line[c->line_len] = 0;
		r[0] = 0;
		if (c->line_overlong) {
			snprintf(r, sizeof(r), "error line longer than %zu bytes\n", sizeof(c->line) - 1);
		} else if (!strncmp(c->line, "barrier ", 8)) {
			char name[64];

			if (sscanf(c->line + 8, " %63s", name) != 1 || c->waiting) {
				snprintf(r, sizeof(r), "error barrier: expected 'barrier NAME'%s\n",
					 c->waiting ? " (already waiting)" : "");
			} else {
				snprintf(c->barrier, sizeof(c->barrier), "%s", name);
				c->waiting = true;
			}
		} else if (c->line_len) {
			run("guest", c->line, r, sizeof(r));
		}
		c->line_len = 0;
		c->line_overlong = false;
		send_reply(c, r);
		if (c->waiting)
			barrier_check();
	}
}
