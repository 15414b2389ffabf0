// SPDX-License-Identifier: Apache-2.0
/*
 * Helpers shared by sacc-test and bar-test (see sacc-common.h).
 */
#include "sacc-common.h"
#include "version.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accel_hw.h"
#include "extoll_pci.h"

int sacc_read_sysfs(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int sacc_read_hex(const char *bdf, const char *attr, unsigned long *val)
{
	char path[PATH_MAX], buf[32], *end;

	snprintf(path, sizeof(path), SACC_SYSFS_PCI "/%s/%s", bdf, attr);
	if (sacc_read_sysfs(path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*val = strtoul(buf, &end, 16);
	return errno || end == buf ? -1 : 0;
}

static int sacc_is_accel(const char *bdf)
{
	unsigned long vendor, device;

	return !sacc_read_hex(bdf, "vendor", &vendor) &&
	       !sacc_read_hex(bdf, "device", &device) &&
	       vendor == ACCEL_PCI_VENDOR_ID && device == ACCEL_PCI_DEVICE_ID;
}

/* "dddd:bb:dd.f" or "bb:dd.f" (libpci parses) -> sysfs spelling (domain
 * %04x, so 10000 stays 10000). */
static int sacc_parse_bdf(const char *s, char *bdf, size_t len)
{
	struct extoll_pci_addr a;

	if (extoll_pci_addr_parse(s, &a) || !extoll_pci_addr_full(&a))
		return -1;
	snprintf(bdf, len, "%04x:%02x:%02x.%x", a.domain < 0 ? 0 : (unsigned int)a.domain,
		 (unsigned int)a.bus, (unsigned int)a.dev, (unsigned int)a.fn);
	return 0;
}

static int sacc_name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int sacc_find_device(const char *arg, char *bdf, size_t bdf_len, char *err,
		     size_t err_len)
{
	struct dirent **names;
	char path[PATH_MAX];
	int n, i, found = 0;

	if (arg) {
		if (sacc_parse_bdf(arg, bdf, bdf_len)) {
			snprintf(err, err_len,
				 "'%s' is not a PCI address (expected [domain:]bus:device.function, e.g. 10000:01:00.0 or 0000:00:02.0)",
				 arg);
			return -2;
		}
		snprintf(path, sizeof(path), SACC_SYSFS_PCI "/%s", bdf);
		if (access(path, F_OK)) {
			snprintf(err, err_len, "no PCI device %s (%s: %s)", bdf,
				 path, strerror(errno));
			return -1;
		}
		if (!sacc_is_accel(bdf)) {
			snprintf(err, err_len,
				 "PCI device %s is not a sample accelerator (%04x:%04x)",
				 bdf, ACCEL_PCI_VENDOR_ID, ACCEL_PCI_DEVICE_ID);
			return -1;
		}
		return 0;
	}

	n = scandir(SACC_SYSFS_PCI, &names, NULL, sacc_name_cmp);
	if (n < 0) {
		snprintf(err, err_len, "cannot list %s: %s", SACC_SYSFS_PCI,
			 strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!found && names[i]->d_name[0] != '.' &&
		    sacc_is_accel(names[i]->d_name)) {
			snprintf(bdf, bdf_len, "%s", names[i]->d_name);
			found = 1;
		}
		free(names[i]);
	}
	free(names);
	if (!found) {
		snprintf(err, err_len,
			 "no sample accelerator (PCI %04x:%04x) in %s: not attached?",
			 ACCEL_PCI_VENDOR_ID, ACCEL_PCI_DEVICE_ID, SACC_SYSFS_PCI);
		return -1;
	}
	return 0;
}

int sacc_driver_name(const char *bdf, char *name, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), SACC_SYSFS_PCI "/%s/driver", bdf);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0) {
		if (errno != ENOENT)
			return -1;
		name[0] = '\0';
		return 0;
	}
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(name, len, "%s", base ? base + 1 : target);
	return 0;
}

int sacc_chardev(const char *bdf, char *path, size_t len, char *err,
		 size_t err_len)
{
	char dir[PATH_MAX], drv[64];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), SACC_SYSFS_PCI "/%s/misc", bdf);
	d = opendir(dir);
	if (d) {
		while ((de = readdir(d))) {
			if (!strncmp(de->d_name, "sacc", 4)) {
				snprintf(path, len, "/dev/%s", de->d_name);
				closedir(d);
				return 0;
			}
		}
		closedir(d);
	}
	if (sacc_driver_name(bdf, drv, sizeof(drv)))
		drv[0] = '\0';
	snprintf(err, err_len,
		 "%s has no /dev/saccN: %s%s%s", bdf,
		 drv[0] ? "bound to driver " : "no driver bound (insmod sample_accel.ko)",
		 drv[0] ? drv : "", drv[0] && strcmp(drv, "sample_accel") ? ", not sample_accel" : "");
	return -1;
}

int sacc_parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || v > (~0ULL >> 30))
		return -1;
	switch (toupper((unsigned char)*end)) {
	case '\0':
		break;
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'G':
		v <<= 30;
		end++;
		break;
	default:
		return -1;
	}
	if (*end == 'i' || *end == 'I')	/* KiB, MiB */
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

int sacc_common_opt(const char *prog, int c, const char *arg,
		    struct sacc_opts *o, void (*usage)(FILE *f))
{
	switch (c) {
	case 'd':
		o->device = arg;
		break;
	case 'S':
		if (sacc_parse_size(arg, &o->seed)) {
			fprintf(stderr, "%s: bad --seed '%s'\n", prog, arg);
			return -1;
		}
		o->have_seed = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case 'h':
		usage(stdout);
		exit(EXIT_PASS);
	case 'V':
		printf("%s %s\n", prog, EXTOLL_VERSION_STRING);
		exit(EXIT_PASS);
	default:
		fprintf(stderr, "try '%s --help'\n", prog);
		return -1;
	}
	return 0;
}

int sacc_no_operands(const char *prog, int argc, char **argv)
{
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (try --help)\n", prog,
			argv[optind]);
		return -1;
	}
	return 0;
}

double sacc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
