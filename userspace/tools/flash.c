// SPDX-License-Identifier: Apache-2.0
/*
 * naactl flash: the configuration flash of an NAA node, across the network
 * (docs/flash.md "naactl flash"; docs/naactl.md).
 *
 *   naactl flash NODE FILE [--fallback]   check the image, write the update
 *                                         slot (or the fallback slot), verify
 *   naactl flash --info NODE              the images of both slots, the running one
 *   naactl flash --reload NODE [--timeout MS]
 *                                         reconfigure the node from its flash,
 *                                         wait for it, print what runs; NODE may
 *                                         be this host's own NIC (unbind, reload,
 *                                         remove, rescan)
 *
 * The image is checked by libextoll (lib/flash_img.c, naaimg's checks)
 * before the node is touched, and against the node's part before anything is
 * erased; the flash is driven by lib/flash.c over remote register access.
 * The node must not be attached to this host and must not be held by another
 * node; a free node is claimed for the write and released after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "extoll_fabric.h"
#include "extoll_flash.h"
#include "extoll_regs.h"
#include "libextoll.h"
#include "naactl.h"

const char flash_usage[] =
	"NODE FILE [--fallback]\n--info NODE\n--reload NODE [--timeout MS]";

#define FLASH_BOARD	FLASH_BOARD_SIM	/* as the driver's: docs/flash.md "devlink" */
#define RELOAD_TIMEOUT_MS 10000
/* --info checks a slot's payload CRC when the payload is at most this long */
#define INFO_PAYLOAD_MAX 4096

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const char *slot_name(unsigned int s)
{
	return s == 2 ? "update" : s == 1 ? "fallback" : "none";
}

/* "slot": update, fallback or none; text "from the update slot" */
static void print_slot(uint64_t boot, const char *after)
{
	unsigned int s = (unsigned int)(boot & EXTOLL_FLASH_BOOT_SLOT_MASK);

	print_string(PRINT_JSON, "slot", NULL, slot_name(s));
	print_text(s ? "from the %s slot%s" : "%.0sfrom no slot (the build-time identity)%s",
		   slot_name(s), after);
}

static void build_str(uint64_t build, char *buf, size_t n)
{
	/* as devlink dev info: date-commit */
	snprintf(buf, n, "%08" PRIx32 "-%08" PRIx32, (uint32_t)build, (uint32_t)(build >> 32));
}

static int read_file(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, k;

	if (!f)
		return -errno;
	do {
		if (n == cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 1 << 16;
			/* larger than any slot: refused without reading it all */
			if (cap > 2ULL * FLASH_PART_MT25QU01G_SLOT_SIZE) {
				free(buf);
				fclose(f);
				return -EFBIG;
			}
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*data = buf;
	*len = n;
	return 0;
}

/* ---- the node: answers, is an NAA, not attached here, has a flash */

/* An exit status after a message, or 0. */
static int node_check(struct extoll_nic *nic, uint16_t node, int writes, uint32_t *jedec)
{
	uint64_t id;
	int ret;

	ret = extoll_rra_read(nic, node, EXTOLL_INFO_BASE + EXTOLL_INFO_ID, &id);
	if (ret || (id & EXTOLL_INFO_ID_MAGIC_MASK) != EXTOLL_INFO_ID_MAGIC_RESET) {
		err_msg("node %u does not answer (no such node, link down, or routing tables not programmed: see 'naactl route')",
			node);
		return NAACTL_EXIT_NONODE;
	}
	if ((id & EXTOLL_INFO_ID_ROLE_MASK) >> EXTOLL_INFO_ID_ROLE_SHIFT != 1) {
		err_msg("node %u is not an NAA node (its NIC is a host's: that host flashes it with 'devlink dev flash')",
			node);
		return NAACTL_EXIT_OTHER;
	}
	if (writes && naactl_attached_here(nic, node)) {
		err_msg("node %u is attached to this host: detach it first ('naactl detach %u'); flash and reload refuse an attached node",
			node, node);
		return NAACTL_EXIT_BUSY;
	}
	ret = extoll_flash_jedec(nic, node, jedec);
	if (ret == -EOPNOTSUPP) {
		err_msg("node %u has no flash controller (its NIC has no flash block)", node);
		return NAACTL_EXIT_OTHER;
	}
	if (ret == -ENODEV) {
		err_msg("node %u: flash part did not answer READ ID", node);
		return NAACTL_EXIT_OTHER;
	}
	if (ret) {
		err_msg("node %u: %s", node, strerror(-ret));
		return naactl_exit_of(ret);
	}
	return 0;
}

/*
 * Make sure no other node holds it; claim it if free (*claimed). An exit
 * status after a message, or 0.
 */
static int hold(struct extoll_nic *nic, uint16_t node, int *claimed)
{
	uint16_t me = extoll_nic_info(nic)->node_id, holder;
	int held, ret;

	*claimed = 0;
	ret = naactl_owner(nic, node, &held, &holder);
	if (ret == -EREMOTEIO)
		return 0;	/* an older NIC without an own block */
	if (!ret && !held) {
		ret = extoll_rra_write(nic, node, EXTOLL_OWN_BASE + EXTOLL_OWN_CLAIM, EXTOLL_OWN_CLAIM_OP_CLAIM);
		if (!ret)
			ret = naactl_owner(nic, node, &held, &holder);
		*claimed = !ret && held && holder == me;
	}
	if (ret) {
		err_msg("node %u: %s", node, strerror(-ret));
		return naactl_exit_of(ret);
	}
	if (held && holder != me) {
		err_msg("node %u is held by node %u", node, holder);
		return NAACTL_EXIT_BUSY;
	}
	return 0;
}

static void unhold(struct extoll_nic *nic, uint16_t node, int claimed)
{
	if (claimed)
		extoll_rra_write(nic, node, EXTOLL_OWN_BASE + EXTOLL_OWN_CLAIM, EXTOLL_OWN_CLAIM_OP_RELEASE);
}

/* ---- progress: a line per 10 % (a terminal: one line, rewritten) */

struct progress {
	int on, tty;
	const char *phase;
	int last;
};

static void progress(void *ctx, const char *phase, unsigned long done, unsigned long total)
{
	struct progress *p = ctx;
	int pct = total ? (int)(done * 100 / total) : 100;

	if (!p->on)
		return;
	if (p->phase != phase) {
		if (p->phase && p->tty)
			fputc('\n', stdout);
		p->phase = phase;
		p->last = -1;
	}
	if (p->tty)
		printf("\r%s %lu/%lu %d%%", phase, done, total, pct);
	else if (pct / 10 != p->last / 10 || (pct == 100 && p->last != 100))
		printf("%s %lu/%lu %d%%\n", phase, done, total, pct);
	else
		return;
	p->last = pct;
	fflush(stdout);
}

/* ---- naactl flash NODE FILE */

static int flash_write(uint16_t node, const char *path, int fallback)
{
	uint32_t off = fallback ? FLASH_PART_MT25QU01G_FALLBACK_OFF : FLASH_PART_MT25QU01G_UPDATE_OFF;
	unsigned int role = fallback ? FLASH_ROLE_FALLBACK : FLASH_ROLE_UPDATE;
	struct extoll_flash_limits lim = { .board_set = 1, .board = FLASH_BOARD };
	struct extoll_nic *nic = NULL;
	struct flash_img_hdr h;
	struct progress pr = { 0 };
	uint32_t jedec, bad = 0;
	char detail[160], ver[32], build[32];
	uint8_t *d = NULL;
	size_t n = 0;
	int v, ret, rc, claimed, quiet;
	uint64_t t0;

	/* the image first: a bad one is refused before any node is asked */
	ret = read_file(path, &d, &n);
	if (ret == -EFBIG) {
		err_msg("%s: %s (more than %u bytes, a slot holds %u): nothing written", path,
			extoll_flash_verdict_msg(FLASH_VERDICT_TOO_LARGE),
			2 * FLASH_PART_MT25QU01G_SLOT_SIZE, FLASH_PART_MT25QU01G_SLOT_SIZE);
		return NAACTL_EXIT_OTHER;
	}
	if (ret) {
		err_msg("%s: %s", path, strerror(-ret));
		return NAACTL_EXIT_NONIC;
	}
	v = extoll_flash_img_check(d, n, &lim, detail, sizeof(detail));
	if (v == FLASH_VERDICT_OK) {
		extoll_flash_hdr_decode(d, &h);
		if (h.role != role) {
			err_msg("%s: not %s image (role %s; the %s slot takes %s images%s): nothing written",
				path, fallback ? "a fallback" : "an update",
				h.role == FLASH_ROLE_FALLBACK ? "fallback" : "update",
				fallback ? "fallback" : "update", fallback ? "fallback" : "update",
				fallback ? "" : ", --fallback writes the fallback slot");
			free(d);
			return NAACTL_EXIT_OTHER;
		}
	}
	if (v != FLASH_VERDICT_OK) {
		err_msg("%s: %s (%s): nothing written", path, extoll_flash_verdict_msg(v), detail);
		free(d);
		return NAACTL_EXIT_OTHER;
	}

	rc = naactl_open(&nic, 1);
	if (rc)
		goto out;
	rc = node_check(nic, node, 1, &jedec);
	if (rc)
		goto out;
	lim.part_set = 1;
	lim.part = jedec;
	v = extoll_flash_img_check(d, n, &lim, detail, sizeof(detail));
	if (v != FLASH_VERDICT_OK) {
		err_msg("%s: %s (%s, node %u): nothing written", path, extoll_flash_verdict_msg(v),
			detail, node);
		rc = NAACTL_EXIT_OTHER;
		goto out;
	}
	rc = hold(nic, node, &claimed);
	if (rc)
		goto out;

	quiet = print_set_quiet(0);
	print_set_quiet(quiet);
	pr.on = !quiet && !is_json_context();
	pr.tty = isatty(STDOUT_FILENO);
	t0 = now_ms();
	ret = extoll_flash_write(nic, node, off, d, n, progress, &pr, &bad);
	if (pr.on && pr.tty && pr.phase)
		fputc('\n', stdout);
	unhold(nic, node, claimed);
	if (ret == -EIO && bad) {
		err_msg("node %u: verify failed: flash at 0x%08" PRIx32 " differs from the image", node, bad);
		rc = NAACTL_EXIT_OTHER;
		goto out;
	}
	if (ret) {
		err_msg("node %u: writing the %s slot failed during %s: %s; the slot holds an incomplete image, which does not boot: flash again",
			node, fallback ? "fallback" : "update", pr.phase ? pr.phase : "Erasing",
			ret == -EIO ? "the flash part reported an error" : strerror(-ret));
		rc = naactl_exit_of(ret);
		goto out;
	}

	extoll_flash_version_str(h.version, ver, sizeof(ver));
	build_str(h.build, build, sizeof(build));
	new_json_obj();
	print_uint(PRINT_ANY, "node", "node %u: ", node);
	print_string(PRINT_ANY, "slot", "%s slot written and verified ", fallback ? "fallback" : "update");
	print_string(PRINT_JSON, "file", NULL, path);
	print_uint(PRINT_JSON, "offset", NULL, off);
	print_u64(PRINT_ANY, "bytes", "(%" PRIu64 " bytes, ", n);
	print_string(PRINT_ANY, "version", "version %s ", ver);
	print_string(PRINT_ANY, "build", "build %s) ", build);
	print_u64(PRINT_ANY, "ms", "in %" PRIu64 " ms", now_ms() - t0);
	print_nl();
	delete_json_obj();
	if (!fallback && !is_json_context() && !quiet)
		printf("'naactl flash --reload %u' boots it\n", node);
	rc = NAACTL_EXIT_OK;
out:
	if (nic)
		extoll_close(nic);
	free(d);
	return rc;
}

/* ---- naactl flash --info NODE */

static void info_slot(struct extoll_nic *nic, uint16_t node, uint32_t jedec, const char *name,
		      uint32_t off)
{
	struct extoll_flash_limits lim = { .board_set = 1, .board = FLASH_BOARD,
					   .part_set = 1, .part = jedec };
	uint8_t hdr[FLASH_IMG_HEADER_SIZE], *img = NULL;
	char detail[160], ver[32], build[32];
	const char *state = "ok";
	struct flash_img_hdr h;
	int v, ret;

	ret = extoll_flash_read(nic, node, off, hdr, sizeof(hdr));
	v = ret ? -1 : extoll_flash_hdr_check(hdr, sizeof(hdr), detail, sizeof(detail));
	open_json_object(NULL);
	print_string(PRINT_ANY, "slot", "%-9s", name);
	print_uint(PRINT_ANY, "offset", "0x%08x  ", off);
	if (v) {
		print_null(PRINT_ANY, "version", "%-9s ", "-");
		print_null(PRINT_ANY, "build", "%-18s ", "-");
		print_string(PRINT_ANY, "state", "no image (%s)",
			     ret ? strerror(-ret) :
			     v == FLASH_VERDICT_MAGIC && hdr[0] == 0xff && hdr[1] == 0xff ? "erased" :
			     extoll_flash_verdict_msg(v));
		close_json_object();
		print_nl();
		return;
	}
	extoll_flash_hdr_decode(hdr, &h);
	extoll_flash_version_str(h.version, ver, sizeof(ver));
	build_str(h.build, build, sizeof(build));
	print_string(PRINT_ANY, "version", "%-9s ", ver);
	print_string(PRINT_ANY, "build", "%-18s ", build);
	/* the whole image's checks when its payload is small enough to read here */
	if (h.payload_len <= INFO_PAYLOAD_MAX &&
	    (img = malloc(FLASH_IMG_HEADER_SIZE + h.payload_len)) &&
	    !extoll_flash_read(nic, node, off, img, FLASH_IMG_HEADER_SIZE + h.payload_len)) {
		v = extoll_flash_img_check(img, FLASH_IMG_HEADER_SIZE + h.payload_len, &lim,
					   detail, sizeof(detail));
		if (v == FLASH_VERDICT_OK && h.role != (off ? FLASH_ROLE_UPDATE : FLASH_ROLE_FALLBACK))
			state = "wrong role for this slot";
		else if (v != FLASH_VERDICT_OK)
			state = extoll_flash_verdict_msg(v);
	} else {
		state = "header ok, payload not read";
	}
	free(img);
	print_string(PRINT_ANY, "state", "%s", state);
	print_u64(PRINT_JSON, "size", NULL, FLASH_IMG_HEADER_SIZE + (uint64_t)h.payload_len);
	close_json_object();
	print_nl();
}

static int flash_info(uint16_t node)
{
	struct extoll_nic *nic = NULL;
	uint64_t ver, build, boot;
	char vs[32], bs[32], js[16];
	const struct flash_img_part *p;
	uint32_t jedec;
	int rc, ret;

	rc = naactl_open(&nic, 1);
	if (rc)
		return rc;
	rc = node_check(nic, node, 0, &jedec);
	if (rc)
		goto out;
	ret = extoll_rra_read(nic, node, EXTOLL_INFO_BASE + EXTOLL_INFO_VERSION, &ver);
	if (!ret)
		ret = extoll_rra_read(nic, node, EXTOLL_INFO_BASE + EXTOLL_INFO_BUILD, &build);
	if (!ret)
		ret = extoll_rra_read(nic, node, EXTOLL_FLASH_BASE + EXTOLL_FLASH_BOOT, &boot);
	if (ret) {
		err_msg("node %u: %s", node, strerror(-ret));
		rc = naactl_exit_of(ret);
		goto out;
	}
	extoll_flash_version_str(ver, vs, sizeof(vs));
	build_str(build, bs, sizeof(bs));
	p = extoll_flash_part(jedec);
	snprintf(js, sizeof(js), "0x%06" PRIX32, jedec);
	new_json_obj();
	print_uint(PRINT_ANY, "node", "node %u: ", node);
	print_string(PRINT_ANY, "jedec", "flash %s ", js);
	print_string(PRINT_ANY, "part", "(%s), ", p ? p->name : "unknown");
	open_json_object("running");
	print_string(PRINT_ANY, "version", "running %s ", vs);
	print_string(PRINT_ANY, "build", "build %s ", bs);
	print_slot(boot, "");
	close_json_object();
	print_nl();
	print_text("SLOT     OFFSET      VERSION   BUILD              STATE\n");
	open_json_array(PRINT_JSON, "slots");
	info_slot(nic, node, jedec, "update", FLASH_PART_MT25QU01G_UPDATE_OFF);
	info_slot(nic, node, jedec, "fallback", FLASH_PART_MT25QU01G_FALLBACK_OFF);
	close_json_array(PRINT_JSON, NULL);
	delete_json_obj();
out:
	extoll_close(nic);
	return rc;
}

/* ---- naactl flash --reload NODE */

static int rd_routed(void *ctx, uint64_t route, uint32_t addr, uint64_t *val)
{
	return extoll_rra_read_routed(ctx, route, addr, val, NULL);
}

/*
 * --reload of this host's own NIC: the documented equivalent of `devlink dev
 * reload` (docs/flash.md "Reloading the host NIC"), as Corundum's mqnic-fw and
 * litepcie_util do it: unbind the driver, write flash.reload through BAR0
 * (sysfs resource0), remove the PCI device (its configuration is gone with
 * the reset), rescan, wait for the driver to bind again; then what runs.
 */
static int write_sysfs(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int bar0_reload(const char *sysfs)
{
	char path[300];
	volatile uint64_t *bar;
	size_t len = EXTOLL_FLASH_BASE + EXTOLL_FLASH_BOOT + 8;
	uint64_t hdr;
	int fd;

	len = (len + 4095) & ~(size_t)4095;
	snprintf(path, sizeof(path), "%s/resource0", sysfs);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		return -errno;
	bar = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (bar == MAP_FAILED)
		return -errno;
	hdr = bar[EXTOLL_FLASH_BASE / 8];
	if ((hdr & EXTOLL_BLK_HDR_BTYPE_MASK) >> EXTOLL_BLK_HDR_BTYPE_SHIFT != EXTOLL_FLASH_TYPE) {
		munmap((void *)bar, len);
		return -EOPNOTSUPP;
	}
	bar[(EXTOLL_FLASH_BASE + EXTOLL_FLASH_RELOAD) / 8] =
		(uint64_t)FLASH_PART_MT25QU01G_UPDATE_OFF << EXTOLL_FLASH_RELOAD_ADDR_SHIFT |
		EXTOLL_FLASH_RELOAD_GO_MASK;
	munmap((void *)bar, len);
	return 0;
}

static int reload_local(struct extoll_nic *nic, unsigned int timeout_ms)
{
	const struct extoll_nic_info *inf = extoll_nic_info(nic);
	char pci[32], sysfs[160], path[300];
	struct extoll_naa *list = NULL;
	uint64_t ver, build, boot, t0, t1;
	uint16_t node = inf->node_id;
	char vs[32], bs[32];
	struct stat st;
	size_t n = 0;
	int ret;

	if (!extoll_list(nic, &list, &n) && n) {
		extoll_list_free(list);
		err_msg("node %u (this host's NIC) has %zu node(s) attached: detach them first; a reload takes the NIC away",
			node, n);
		extoll_close(nic);
		return NAACTL_EXIT_BUSY;
	}
	extoll_list_free(list);
	snprintf(pci, sizeof(pci), "%s", inf->pci_name);
	snprintf(sysfs, sizeof(sysfs), "%s", inf->sysfs);
	extoll_close(nic);

	t0 = now_ms();
	snprintf(path, sizeof(path), "%s/driver/unbind", sysfs);
	ret = write_sysfs(path, pci);
	if (!ret)
		ret = bar0_reload(sysfs);
	if (ret) {
		err_msg("%s: reload through BAR0 failed: %s (the driver may be unbound: 'echo %s > /sys/bus/pci/drivers/extoll/bind')",
			pci, ret == -EOPNOTSUPP ? "no flash block" : strerror(-ret), pci);
		return naactl_exit_of(ret);
	}
	usleep(100000);		/* the NIC reloads and resets */
	snprintf(path, sizeof(path), "%s/remove", sysfs);
	ret = write_sysfs(path, "1");
	if (!ret)
		ret = write_sysfs("/sys/bus/pci/rescan", "1");
	if (ret) {
		err_msg("%s: remove/rescan after the reload failed: %s", pci, strerror(-ret));
		return naactl_exit_of(ret);
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", pci);
	while (stat(path, &st)) {
		if (now_ms() - t0 > timeout_ms) {
			err_msg("%s did not come back with its driver within %u ms after the reload", pci, timeout_ms);
			return NAACTL_EXIT_NONODE;
		}
		usleep(10000);
	}
	t1 = now_ms();
	ret = extoll_open(pci, &nic);
	/* the NIC's own registers by RRA with the source route "eject here" (as regs) */
	if (!ret)
		ret = extoll_rra_read_routed(nic, EXTOLL_PORT_EJECT, EXTOLL_INFO_BASE + EXTOLL_INFO_VERSION,
					     &ver, NULL);
	if (!ret)
		ret = extoll_rra_read_routed(nic, EXTOLL_PORT_EJECT, EXTOLL_INFO_BASE + EXTOLL_INFO_BUILD,
					     &build, NULL);
	if (!ret)
		ret = extoll_rra_read_routed(nic, EXTOLL_PORT_EJECT, EXTOLL_FLASH_BASE + EXTOLL_FLASH_BOOT,
					     &boot, NULL);
	if (ret) {
		err_msg("%s: %s", pci, strerror(-ret));
		if (nic)
			extoll_close(nic);
		return naactl_exit_of(ret);
	}
	extoll_close(nic);
	extoll_flash_version_str(ver, vs, sizeof(vs));
	build_str(build, bs, sizeof(bs));
	new_json_obj();
	print_uint(PRINT_ANY, "node", "node %u ", node);
	print_string(PRINT_ANY, "nic", "(this host's NIC %s) reloaded: ", pci);
	print_string(PRINT_ANY, "version", "running %s ", vs);
	print_string(PRINT_ANY, "build", "build %s ", bs);
	print_slot(boot, " ");
	print_u64(PRINT_ANY, "ms", "(driver bound again after %" PRIu64 " ms)", t1 - t0);
	print_nl();
	delete_json_obj();
	return NAACTL_EXIT_OK;
}

static int flash_reload(uint16_t node, unsigned int timeout_ms)
{
	struct extoll_nic *nic = NULL;
	struct extoll_fabric *f = NULL;
	uint64_t route, id = 0, ver = 0, build = 0, boot = 0, t0, t1;
	char vs[32], bs[32];
	int rc, ret, claimed = 0, i, tables;
	uint32_t jedec;

	rc = naactl_open(&nic, 1);
	if (rc)
		return rc;
	if (node == extoll_nic_info(nic)->node_id)
		return reload_local(nic, timeout_ms);
	rc = node_check(nic, node, 1, &jedec);
	if (!rc)
		rc = hold(nic, node, &claimed);
	if (rc)
		goto out;
	/*
	 * The reload resets the whole node, its routing tables too: it is
	 * found again by a source route, which needs no table. The route from
	 * in-band discovery, before the reload.
	 */
	f = calloc(1, sizeof(*f));
	if (!f) {
		rc = NAACTL_EXIT_OTHER;
		goto out;
	}
	ret = extoll_fabric_discover(rd_routed, nic, f);
	i = ret ? -1 : extoll_fabric_index(f, node);
	if (i < 0) {
		err_msg("node %u: not found by in-band discovery from this host (%s)", node,
			ret ? strerror(-ret) : "no source route");
		unhold(nic, node, claimed);
		rc = NAACTL_EXIT_NONODE;
		goto out;
	}
	route = f->node[i].route;

	t0 = now_ms();
	ret = extoll_flash_reload(nic, node, FLASH_PART_MT25QU01G_UPDATE_OFF);
	/* the node resets at once: the write's answer may be lost with it */
	if (ret && ret != -ETIMEDOUT) {
		err_msg("node %u: reload request failed: %s", node, strerror(-ret));
		unhold(nic, node, claimed);
		rc = naactl_exit_of(ret);
		goto out;
	}
	print_text("node %u: reload requested, waiting for it (up to %u ms)\n", node, timeout_ms);
	fflush(stdout);
	/* back when it answers as itself again (its holder is gone with the reset) */
	for (;;) {
		ret = extoll_rra_read_routed(nic, route, EXTOLL_INFO_BASE + EXTOLL_INFO_ID, &id, NULL);
		if (!ret && (id & EXTOLL_INFO_ID_MAGIC_MASK) == EXTOLL_INFO_ID_MAGIC_RESET &&
		    (id & EXTOLL_INFO_ID_NODE_ID_MASK) >> EXTOLL_INFO_ID_NODE_ID_SHIFT == node)
			break;
		if (now_ms() - t0 > timeout_ms) {
			err_msg("node %u did not come back within %u ms after the reload (not booted, or no working link to it: docs/flash.md)",
				node, timeout_ms);
			rc = NAACTL_EXIT_NONODE;
			goto out;
		}
		usleep(10000);
	}
	t1 = now_ms();
	ret = extoll_rra_read_routed(nic, route, EXTOLL_INFO_BASE + EXTOLL_INFO_VERSION, &ver, NULL);
	if (!ret)
		ret = extoll_rra_read_routed(nic, route, EXTOLL_INFO_BASE + EXTOLL_INFO_BUILD, &build, NULL);
	if (!ret)
		ret = extoll_rra_read_routed(nic, route, EXTOLL_FLASH_BASE + EXTOLL_FLASH_BOOT, &boot, NULL);
	if (ret) {
		err_msg("node %u: %s", node, strerror(-ret));
		rc = naactl_exit_of(ret);
		goto out;
	}
	/* do table-routed requests reach it (the tables of the path survived)? */
	tables = !extoll_rra_read(nic, node, EXTOLL_INFO_BASE + EXTOLL_INFO_ID, &id);
	extoll_flash_version_str(ver, vs, sizeof(vs));
	build_str(build, bs, sizeof(bs));
	new_json_obj();
	print_uint(PRINT_ANY, "node", "node %u reloaded: ", node);
	print_string(PRINT_ANY, "version", "running %s ", vs);
	print_string(PRINT_ANY, "build", "build %s ", bs);
	print_slot(boot, " ");
	print_u64(PRINT_ANY, "ms", "(back after %" PRIu64 " ms)", t1 - t0);
	print_bool(PRINT_JSON, "tables", NULL, tables);
	print_nl();
	delete_json_obj();
	if (!tables)
		err_msg("node %u was reset with its routing tables: program them again ('naactl route ...') before table-routed access",
			node);
	rc = NAACTL_EXIT_OK;
out:
	free(f);
	extoll_close(nic);
	return rc;
}

int cmd_flash(struct extoll_nic *nic, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "info", no_argument, NULL, 'i' },
		{ "reload", no_argument, NULL, 'r' },
		{ "fallback", no_argument, NULL, 'F' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	int c, info = 0, reload = 0, fallback = 0, timeout_set = 0;
	uint64_t timeout = RELOAD_TIMEOUT_MS;
	uint16_t node;

	(void)nic;
	optind = 0;
	while ((c = naactl_getopt(argc, argv, "", opts)) != -1) {
		switch (c) {
		case 'i':
			info = 1;
			break;
		case 'r':
			reload = 1;
			break;
		case 'F':
			fallback = 1;
			break;
		case 't':
			if (naactl_parse_u64(optarg, &timeout) || !timeout || timeout > 3600000) {
				err_msg("invalid --timeout '%s' (milliseconds, 1..3600000)", optarg);
				return NAACTL_EXIT_USAGE;
			}
			timeout_set = 1;
			break;
		default:
			return naactl_usage_error("flash");
		}
	}
	argc -= optind;
	argv += optind;
	if (info + reload > 1 || ((info || reload) && (fallback || argc != 1)) ||
	    (!info && !reload && argc != 2) || (timeout_set && !reload)) {
		err_msg("flash: NODE FILE, --info NODE or --reload NODE");
		return naactl_usage_error("flash");
	}
	if (naactl_parse_node(argv[0], &node))
		return NAACTL_EXIT_USAGE;
	if (info)
		return flash_info(node);
	if (reload)
		return flash_reload(node, (unsigned int)timeout);
	return flash_write(node, argv[1], fallback);
}
