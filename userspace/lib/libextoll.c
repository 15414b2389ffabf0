// SPDX-License-Identifier: Apache-2.0
/*
 * libextoll: user-space access to the EXTOLL NIC driver.
 *
 * The ioctls of /dev/extollN (kernel/include/uapi/extoll_ioctl.h) for
 * remote register access, config requests, attach (which returns the PCI
 * domain and root bus) and detach; sysfs for the list of attached nodes and
 * their domains (the node's root_bus link, docs/kernel.md); the NIC's own
 * registers read through its BAR0 (sysfs resource0, mapped read-only).
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extoll_pci.h"
#include "extoll_priv.h"
#include "extoll_regs.h"
#include "uapi/extoll_ioctl.h"
#include "libextoll.h"
#include "version.h"

#define SYS_PCI		"/sys/bus/pci/devices"
#define SYS_DRIVER	"/sys/bus/pci/drivers/extoll"

struct extoll_nic {
	int fd;
	unsigned int abi;		/* EXTOLL_IOC_ABI of the driver */
	struct extoll_nic_info info;
	volatile const uint64_t *bar0;	/* mapped by the first extoll_reg_read() */
	size_t bar0_len;
};

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		int err = ferror(f) ? -EIO : -ENODATA;

		fclose(f);
		return err;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* "00:02.0" -> "0000:00:02.0"; a full address is copied (libpci parses). */
static int pci_full_name(const char *spec, char *out, size_t len)
{
	struct extoll_pci_addr a;

	if (extoll_pci_addr_parse(spec, &a) || !extoll_pci_addr_full(&a))
		return -EINVAL;
	return snprintf(out, len, "%04x:%02x:%02x.%x", a.domain < 0 ? 0 : (unsigned int)a.domain,
			(unsigned int)a.bus, (unsigned int)a.dev, (unsigned int)a.fn) < (int)len ?
	       0 : -EINVAL;
}

/* The character device of a bound NIC, from its sysfs "chardev". */
static int dev_of_pci(const char *pci, char *out, size_t len)
{
	char path[256], name[32];
	int ret;

	if (strlen(pci) > 64)
		return -EINVAL;
	snprintf(path, sizeof(path), SYS_PCI "/%.64s/chardev", pci);
	ret = read_line(path, name, sizeof(name));
	if (ret)
		return -ENOENT;
	snprintf(out, len, "/dev/%s", name);
	return 0;
}

/* The first NIC bound to the extoll driver, by PCI address order. */
static int dev_first(char *out, size_t len)
{
	struct dirent **names;
	int n, i, ret = -ENOENT;

	n = scandir(SYS_DRIVER, &names, NULL, alphasort);
	if (n < 0)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (ret && strchr(names[i]->d_name, ':'))
			ret = dev_of_pci(names[i]->d_name, out, len);
		free(names[i]);
	}
	free(names);
	return ret;
}

static int resolve_spec(const char *spec, char *dev, size_t len)
{
	char pci[32];

	if (!spec || !*spec)
		return dev_first(dev, len);
	if (spec[0] == '/') {
		snprintf(dev, len, "%s", spec);
		return 0;
	}
	if (!strncmp(spec, "extoll", 6)) {
		snprintf(dev, len, "/dev/%s", spec);
		return 0;
	}
	if (pci_full_name(spec, pci, sizeof(pci)))
		return -EINVAL;
	return dev_of_pci(pci, dev, len);
}

int extoll_open(const char *spec, struct extoll_nic **out)
{
	struct extoll_ioc_info info;
	struct extoll_nic *nic;
	char dev[64];
	int ret;

	ret = resolve_spec(spec, dev, sizeof(dev));
	if (ret)
		return ret;

	nic = calloc(1, sizeof(*nic));
	if (!nic)
		return -ENOMEM;
	nic->fd = open(dev, O_RDWR | O_CLOEXEC);
	if (nic->fd < 0) {
		ret = -errno;
		free(nic);
		return ret;
	}
	memset(&info, 0, sizeof(info));
	if (ioctl(nic->fd, EXTOLL_IOC_INFO, &info)) {
		ret = errno == ENOTTY ? -ENODEV : -errno;
		close(nic->fd);
		free(nic);
		return ret;
	}

	snprintf(nic->info.dev_path, sizeof(nic->info.dev_path), "%s", dev);
	snprintf(nic->info.pci_name, sizeof(nic->info.pci_name), "%.31s",
		 info.pci_name);
	snprintf(nic->info.sysfs, sizeof(nic->info.sysfs), SYS_PCI "/%s",
		 nic->info.pci_name);
	nic->info.node_id = info.node_id;
	nic->info.role = info.role;
	nic->info.rra = info.rra;
	nic->info.rtl_major = (info.rtl_version >> 16) & 0xff;
	nic->info.rtl_minor = (info.rtl_version >> 8) & 0xff;
	nic->info.rtl_patch = info.rtl_version & 0xff;
	nic->info.rra_timeout_us = info.rra_timeout_us;
	nic->abi = info.abi;
	*out = nic;
	return 0;
}

int extoll_nic_fd(const struct extoll_nic *nic)
{
	return nic->fd;
}

unsigned int extoll_nic_abi(const struct extoll_nic *nic)
{
	return nic->abi;
}

void extoll_close(struct extoll_nic *nic)
{
	if (!nic)
		return;
	if (nic->bar0)
		munmap((void *)nic->bar0, nic->bar0_len);
	close(nic->fd);
	free(nic);
}

const struct extoll_nic_info *extoll_nic_info(const struct extoll_nic *nic)
{
	return &nic->info;
}

static int do_ioctl(struct extoll_nic *nic, unsigned long cmd, void *arg)
{
	return ioctl(nic->fd, cmd, arg) ? -errno : 0;
}

static int rra(struct extoll_nic *nic, uint32_t op, int routed, uint16_t node,
	       uint64_t route, uint32_t addr, uint64_t *data, uint16_t *answered)
{
	struct extoll_ioc_rra req;
	int ret;

	memset(&req, 0, sizeof(req));
	req.op = op;
	req.flags = routed ? EXTOLL_RRA_F_SRCROUTE : 0;
	req.node = node;
	req.route = route;
	req.addr = addr;
	req.data = *data;
	ret = do_ioctl(nic, EXTOLL_IOC_RRA, &req);
	*data = req.data;
	if (answered)
		*answered = req.answered;
	return ret;
}

int extoll_rra_read(struct extoll_nic *nic, uint16_t node, uint32_t addr,
		    uint64_t *val)
{
	*val = 0;
	return rra(nic, EXTOLL_RRA_READ, 0, node, 0, addr, val, NULL);
}

int extoll_rra_write(struct extoll_nic *nic, uint16_t node, uint32_t addr,
		     uint64_t val)
{
	return rra(nic, EXTOLL_RRA_WRITE, 0, node, 0, addr, &val, NULL);
}

int extoll_rra_read_routed(struct extoll_nic *nic, uint64_t route,
			   uint32_t addr, uint64_t *val, uint16_t *answered)
{
	*val = 0;
	return rra(nic, EXTOLL_RRA_READ, 1, 0, route, addr, val, answered);
}

int extoll_rra_write_routed(struct extoll_nic *nic, uint64_t route,
			    uint32_t addr, uint64_t val, uint16_t *answered)
{
	return rra(nic, EXTOLL_RRA_WRITE, 1, 0, route, addr, &val, answered);
}

int extoll_reg_read(struct extoll_nic *nic, uint32_t addr, uint64_t *val)
{
	char path[160];
	void *map;
	int fd, err;

	*val = ~0ULL;
	if (addr % 8 || addr >= EXTOLL_REGS_SIZE)
		return -EINVAL;
	if (!nic->bar0) {
		snprintf(path, sizeof(path), "%.128s/resource0", nic->info.sysfs);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		nic->bar0_len = (EXTOLL_REGS_SIZE + 4095) & ~(size_t)4095;
		map = mmap(NULL, nic->bar0_len, PROT_READ, MAP_SHARED, fd, 0);
		err = errno;
		close(fd);
		if (map == MAP_FAILED)	/* e.g. EPERM under CONFIG_IO_STRICT_DEVMEM */
			return -err;
		nic->bar0 = map;
	}
	*val = nic->bar0[addr / 8];
	return 0;
}

int extoll_cfg(struct extoll_nic *nic, uint16_t node, uint8_t bus,
	       uint8_t devfn, uint16_t where, unsigned int size, int write,
	       uint32_t *val, unsigned int *cpl_status)
{
	struct extoll_ioc_cfg req;
	int ret;

	memset(&req, 0, sizeof(req));
	req.node = node;
	req.bus = bus;
	req.devfn = devfn;
	req.where = where;
	req.size = (uint8_t)size;
	req.write = write ? 1 : 0;
	req.val = write ? *val : 0;
	ret = do_ioctl(nic, EXTOLL_IOC_CFG, &req);
	if (!write)
		*val = req.val;
	if (cpl_status)
		*cpl_status = req.cpl_status;
	return ret;
}

int extoll_attach(struct extoll_nic *nic, uint16_t node,
		  struct extoll_attach_result *res)
{
	struct extoll_ioc_attach req;
	int ret;

	memset(&req, 0, sizeof(req));
	req.node = node;
	ret = do_ioctl(nic, EXTOLL_IOC_ATTACH_DOMAIN, &req);
	if (ret || !res)
		return ret;
	res->id = req.id;
	snprintf(res->name, sizeof(res->name), "extoll.naa.%u", req.id);
	res->domain = req.domain;
	res->root_bus = req.domain < 0 ? 0 : req.root_bus;
	return 0;
}

int extoll_detach(struct extoll_nic *nic, uint16_t node)
{
	struct extoll_ioc_node req;

	memset(&req, 0, sizeof(req));
	req.node = node;
	return do_ioctl(nic, EXTOLL_IOC_DETACH, &req);
}

/*
 * The list extoll_list() returns, with its length in front so that
 * extoll_list_free() can free each entry's device array.
 */
struct naa_list {
	size_t n;
	struct extoll_naa naa[];
};

static struct naa_list *naa_list_of(struct extoll_naa *naa)
{
	return (struct naa_list *)((char *)naa - offsetof(struct naa_list, naa));
}

static void naa_free(struct extoll_naa *naa)
{
	free(naa->devices);
	naa->devices = NULL;
	naa->n_devices = 0;
}

/*
 * The root bus from the node's "root_bus" link (.../pci_bus/DDDD:BB); a
 * driver without the link has its root bus at 0.
 */
static void root_bus_of(const char *dir, struct extoll_naa *naa, char *bus,
			size_t len)
{
	char path[512], target[512];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/root_bus", dir, naa->name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
		if (strchr(base, ':') && strlen(base) < len) {
			snprintf(bus, len, "%s", base);
			return;
		}
	}
	snprintf(bus, len, "%04x:00", (unsigned int)naa->domain & 0xffff);
}

static int add_device(struct extoll_naa *naa, const char *addr)
{
	char (*tmp)[16];

	tmp = realloc(naa->devices, (naa->n_devices + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	naa->devices = tmp;
	snprintf(naa->devices[naa->n_devices++], sizeof(*tmp), "%.15s", addr);
	return 0;
}

/* The root port and every other function of an attached domain. */
static int list_domain(const char *dir, struct extoll_naa *naa)
{
	struct dirent **names;
	char bus[10], path[256];
	size_t plen;
	struct stat st;
	int n, i, ret = 0;

	/* "DDDD:BB": the root port is DDDD:BB:00.0, the domain's functions DDDD:* */
	root_bus_of(dir, naa, bus, sizeof(bus));
	plen = (size_t)(strchr(bus, ':') - bus) + 1;
	snprintf(naa->root_port, sizeof(naa->root_port), "%.9s:00.0", bus);
	snprintf(path, sizeof(path), SYS_PCI "/%s", naa->root_port);
	naa->has_root_port = stat(path, &st) == 0;

	n = scandir(SYS_PCI, &names, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		const char *d = names[i]->d_name;

		if (!ret && !strncmp(d, bus, plen) && strcmp(d, naa->root_port))
			ret = add_device(naa, d);
		free(names[i]);
	}
	free(names);
	return ret;
}

/* One node; -ENOENT if it went away meanwhile (a detach). */
static int read_naa(const char *dir, const char *name, struct extoll_naa *naa)
{
	char path[512], buf[32];
	int ret;

	memset(naa, 0, sizeof(*naa));
	naa->domain = -1;
	snprintf(naa->name, sizeof(naa->name), "%.31s", name);

	snprintf(path, sizeof(path), "%s/%s/node", dir, name);
	ret = read_line(path, buf, sizeof(buf));
	if (ret)
		return ret;
	naa->node = (uint16_t)strtoul(buf, NULL, 0);

	snprintf(path, sizeof(path), "%s/%s/state", dir, name);
	if (read_line(path, naa->state, sizeof(naa->state)))
		snprintf(naa->state, sizeof(naa->state), "unknown");

	snprintf(path, sizeof(path), "%s/%s/domain", dir, name);
	if (!read_line(path, buf, sizeof(buf)) && isxdigit((unsigned char)buf[0]))
		naa->domain = (int)strtol(buf, NULL, 16);

	snprintf(path, sizeof(path), "%s/%s/error", dir, name);
	if (!read_line(path, buf, sizeof(buf)))
		naa->error = (int)strtol(buf, NULL, 10);

	if (naa->domain < 0)
		return 0;
	ret = list_domain(dir, naa);
	if (ret)
		naa_free(naa);
	return ret;
}

static int by_node(const void *a, const void *b)
{
	const struct extoll_naa *x = a, *y = b;

	return (int)x->node - (int)y->node;
}

/* Room for one more entry. */
static int naa_list_grow(struct naa_list **list)
{
	size_t n = *list ? (*list)->n : 0;
	struct naa_list *tmp;

	tmp = realloc(*list, sizeof(*tmp) + (n + 1) * sizeof(tmp->naa[0]));
	if (!tmp)
		return -ENOMEM;
	tmp->n = n;
	*list = tmp;
	return 0;
}

int extoll_list(struct extoll_nic *nic, struct extoll_naa **out, size_t *n)
{
	struct naa_list *list = NULL;
	struct dirent *de;
	int ret = 0;
	DIR *d;

	d = opendir(nic->info.sysfs);
	if (!d)
		return -errno;
	ret = naa_list_grow(&list);	/* an empty list is a list too */
	while (!ret) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			ret = -errno;
			break;
		}
		if (strncmp(de->d_name, "extoll.naa.", 11))
			continue;
		ret = read_naa(nic->info.sysfs, de->d_name, &list->naa[list->n]);
		if (ret == -ENOENT) {	/* detached meanwhile */
			ret = 0;
			continue;
		}
		if (ret)
			break;
		list->n++;
		ret = naa_list_grow(&list);
	}
	closedir(d);
	if (ret) {
		if (list)
			extoll_list_free(list->naa);
		return ret;
	}
	qsort(list->naa, list->n, sizeof(list->naa[0]), by_node);
	*out = list->naa;
	*n = list->n;
	return 0;
}

void extoll_list_free(struct extoll_naa *naa)
{
	struct naa_list *list;
	size_t i;

	if (!naa)
		return;
	list = naa_list_of(naa);
	for (i = 0; i < list->n; i++)
		naa_free(&list->naa[i]);
	free(list);
}

const char *extoll_version(void)
{
	return EXTOLL_VERSION_STRING;
}

uint32_t extoll_reg_info_id(void)
{
	return EXTOLL_INFO_BASE + EXTOLL_INFO_ID;
}

uint32_t extoll_reg_rt_entry(void)
{
	return EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_RT_ENTRY;
}

uint32_t extoll_reg_node(void)
{
	return EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_NODE;
}

uint64_t extoll_node_word(uint16_t id, uint8_t dateline)
{
	return ((uint64_t)id << EXTOLL_ROUTER_NODE_ID_SHIFT) |
	       (((uint64_t)dateline << EXTOLL_ROUTER_NODE_DATELINE_SHIFT) &
		EXTOLL_ROUTER_NODE_DATELINE_MASK) |
	       EXTOLL_ROUTER_NODE_VALID_MASK;
}

uint64_t extoll_rt_entry(uint16_t dest, unsigned int inport,
			 unsigned int outport)
{
	return ((uint64_t)dest << EXTOLL_ROUTER_RT_ENTRY_DEST_SHIFT) |
	       ((uint64_t)(inport & 0xf) << EXTOLL_ROUTER_RT_ENTRY_INPORT_SHIFT) |
	       ((uint64_t)(outport & 0xf) << EXTOLL_ROUTER_RT_ENTRY_OUTPORT_SHIFT) |
	       (0ULL << EXTOLL_ROUTER_RT_ENTRY_VCRULE_SHIFT) |	/* auto: dateline rule */
	       EXTOLL_ROUTER_RT_ENTRY_VALID_MASK |
	       EXTOLL_ROUTER_RT_ENTRY_COMMIT_MASK;
}
