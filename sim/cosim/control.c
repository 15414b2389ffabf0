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
#include "trace.h"

#define MAX_FAULTS 32

static struct world *world;
static struct {
	uint64_t cycle;
	char cmd[64];
} faults[MAX_FAULTS];
static unsigned nfaults, next_fault;   /* faults[] sorted by cycle */
static uint64_t next_cycle = UINT64_MAX, done;
static int sock = -1, child_sock = -1, child_no = -1;
static char line[256];
static size_t line_len;
static bool line_overlong;

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
	snprintf(what, wlen, "unknown command '%s' (link-down, link-up NODE PORT; kill, revive, busy "
		 "NODE; ber RATE; cycle)", cmd);
	return -1;
}

int control_check(const struct world *w, const char *cmd, char *err, size_t errlen)
{
	return command((struct world *)w, cmd, false, err, errlen);
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

int control_init(struct world *w, char *err, size_t errlen)
{
	char what[160];

	world = w;
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

int control_qemu_args(int fd_no, const char *args[4])
{
	static char chardev[64];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		logmsg("control channel: socketpair: %s", strerror(errno));
		return -1;
	}
	sock = sv[0];
	child_sock = sv[1];
	child_no = fd_no;
	snprintf(chardev, sizeof(chardev), "socket,id=simctl,fd=%d", fd_no);
	args[0] = "-chardev";
	args[1] = chardev;
	args[2] = "-serial";
	args[3] = "chardev:simctl";
	return 0;
}

int control_child(void)
{
	if (child_sock < 0)
		return 0;
	return dup2(child_sock, child_no) < 0 ? -1 : 0;
}

int control_fd(void)
{
	if (child_sock >= 0) {  /* QEMU has it by now */
		close(child_sock);
		child_sock = -1;
	}
	return sock;
}

void control_handle(void)
{
	char buf[256], reply[256];
	ssize_t n = read(sock, buf, sizeof(buf));

	if (n <= 0) {
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		close(sock);   /* QEMU closed it: no more commands */
		sock = -1;
		return;
	}
	for (ssize_t i = 0; i < n; i++) {
		char c = buf[i];

		if (c == '\r')
			continue;
		if (c != '\n') {
			if (line_len + 1 < sizeof(line))
				line[line_len++] = c;
			else
				line_overlong = true;
			continue;
		}
		line[line_len] = 0;
		if (line_overlong)
			snprintf(reply, sizeof(reply), "error line longer than %zu bytes\n",
				 sizeof(line) - 1);
		else if (line_len)
			run("guest", line, reply, sizeof(reply));
		else
			reply[0] = 0;
		line_len = 0;
		line_overlong = false;
		if (reply[0] && write(sock, reply, strlen(reply)) < 0)
			logmsg("control channel: write: %s", strerror(errno));
	}
}
