// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: transport to the configuration flash through the NIC's flash
 * controller (register block "flash", rtl/nic/nic_flash.sv; docs/flash.md
 * "Controller"). One command at a time: the callers (devlink.c) run under
 * the devlink instance lock, in process context; every wait sleeps in
 * short steps and is bounded by a deadline.
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>

#include "extoll.h"
#include "flash_image.h"

/* A command (a subsector erase on the part: up to 400 ms) ends within this. */
#define EXTOLL_FLASH_TIMEOUT_MS	10000

static u64 extoll_flash_rd(struct extoll_dev *edev, u32 reg)
{
	return extoll_rd(edev, edev->flash_off + reg);
}

static void extoll_flash_wr(struct extoll_dev *edev, u32 reg, u64 val)
{
	extoll_wr(edev, edev->flash_off + reg, val);
}

bool extoll_flash_present(struct extoll_dev *edev)
{
	return edev->flash_off != EXTOLL_NO_BLOCK;
}

/* Wait until the controller is idle; 0, -ETIMEDOUT or -ENODEV (gone). */
static int extoll_flash_wait_ready(struct extoll_dev *edev, u64 *status)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(EXTOLL_FLASH_TIMEOUT_MS);
	u64 st;

	for (;;) {
		st = extoll_flash_rd(edev, EXTOLL_FLASH_STATUS);
		if (st == ~0ULL)
			return -ENODEV;
		if (!(st & EXTOLL_FLASH_STATUS_BUSY_MASK))
			break;
		if (time_after(jiffies, deadline)) {
			dev_err(&edev->pdev->dev,
				"flash controller busy for more than %u ms (status 0x%llx)\n",
				EXTOLL_FLASH_TIMEOUT_MS, st);
			return -ETIMEDOUT;
		}
		usleep_range(50, 200);
	}
	if (status)
		*status = st;
	return 0;
}

/* Run one command and wait for its end; -EIO if refused or the part erred. */
static int extoll_flash_cmd(struct extoll_dev *edev, u8 opcode, u32 alen,
			    bool rd, bool poll, u32 len, u32 addr)
{
	u64 cmd, st;
	int ret;

	ret = extoll_flash_wait_ready(edev, NULL);
	if (ret)
		return ret;
	cmd = FIELD_PREP(EXTOLL_FLASH_CMD_OPCODE_MASK, opcode) |
	      FIELD_PREP(EXTOLL_FLASH_CMD_ALEN_MASK, alen) |
	      FIELD_PREP(EXTOLL_FLASH_CMD_RD_MASK, rd) |
	      FIELD_PREP(EXTOLL_FLASH_CMD_POLL_MASK, poll) |
	      FIELD_PREP(EXTOLL_FLASH_CMD_LEN_MASK, len) |
	      EXTOLL_FLASH_CMD_GO_MASK;
	extoll_flash_wr(edev, EXTOLL_FLASH_ADDR, addr);
	extoll_flash_wr(edev, EXTOLL_FLASH_CMD, cmd);
	ret = extoll_flash_wait_ready(edev, &st);
	if (ret)
		return ret;
	if (st & EXTOLL_FLASH_STATUS_ERROR_MASK) {
		dev_err(&edev->pdev->dev,
			"flash controller refused opcode 0x%02x (status 0x%llx)\n",
			opcode, st);
		return -EIO;
	}
	if (poll && (st & EXTOLL_FLASH_STATUS_FSR_ERR_MASK)) {
		dev_err(&edev->pdev->dev,
			"flash opcode 0x%02x at 0x%08x failed: flag status 0x%02llx\n",
			opcode, addr, FIELD_GET(EXTOLL_FLASH_STATUS_FSR_MASK, st));
		extoll_flash_cmd(edev, FLASH_OP_CLFSR, 0, false, false,
				 0, 0);
		return -EIO;
	}
	return 0;
}

/* The JEDEC ID the controller read after reset; -ENODEV if it has none. */
int extoll_flash_jedec(struct extoll_dev *edev, u32 *id)
{
	u64 v;
	int ret;

	ret = extoll_flash_wait_ready(edev, NULL);
	if (ret)
		return ret;
	v = extoll_flash_rd(edev, EXTOLL_FLASH_JEDEC);
	if (!(v & EXTOLL_FLASH_JEDEC_VALID_MASK))
		return -ENODEV;
	*id = FIELD_GET(EXTOLL_FLASH_JEDEC_ID_MASK, v);
	return 0;
}

static int extoll_flash_wren(struct extoll_dev *edev)
{
	return extoll_flash_cmd(edev, FLASH_OP_WREN, 0, false, false,
				0, 0);
}

/* Byte i of the page buffer is byte i % 8 of data(i / 8). */
static void extoll_flash_buf_put(struct extoll_dev *edev, const u8 *buf,
				 size_t len)
{
	unsigned int w, i;
	u64 v;

	for (w = 0; w * 8 < len; w++) {
		v = ~0ULL;	/* bytes past len program nothing (0xFF) */
		for (i = 0; i < 8 && w * 8 + i < len; i++) {
			v &= ~(0xffULL << (8 * i));
			v |= (u64)buf[w * 8 + i] << (8 * i);
		}
		extoll_flash_wr(edev, EXTOLL_FLASH_DATA_N(w), v);
	}
}

static void extoll_flash_buf_get(struct extoll_dev *edev, u8 *buf, size_t len)
{
	unsigned int w, i;
	u64 v;

	for (w = 0; w * 8 < len; w++) {
		v = extoll_flash_rd(edev, EXTOLL_FLASH_DATA_N(w));
		for (i = 0; i < 8 && w * 8 + i < len; i++)
			buf[w * 8 + i] = v >> (8 * i);
	}
}

/* Read len bytes from flash address addr, a page buffer at a time. */
int extoll_flash_read(struct extoll_dev *edev, u32 addr, void *buf, size_t len)
{
	u8 *p = buf;
	size_t n;
	int ret;

	while (len) {
		n = min_t(size_t, len, FLASH_PART_MT25QU01G_PAGE);
		ret = extoll_flash_cmd(edev, FLASH_OP_READ4, 4, true,
				       false, n, addr);
		if (ret)
			return ret;
		extoll_flash_buf_get(edev, p, n);
		p += n;
		addr += n;
		len -= n;
	}
	return 0;
}

/* Erase the 4 KiB subsector holding addr. */
int extoll_flash_erase_subsector(struct extoll_dev *edev, u32 addr)
{
	int ret;

	ret = extoll_flash_wren(edev);
	if (ret)
		return ret;
	return extoll_flash_cmd(edev, FLASH_OP_SSE4, 4, false, true,
				0, addr);
}

/* Program up to one page at addr; the range must not cross a page. */
int extoll_flash_program_page(struct extoll_dev *edev, u32 addr,
			      const void *buf, size_t len)
{
	u32 page = FLASH_PART_MT25QU01G_PAGE;
	int ret;

	if (!len || len > page || (addr % page) + len > page)
		return -EINVAL;
	extoll_flash_buf_put(edev, buf, len);
	ret = extoll_flash_wren(edev);
	if (ret)
		return ret;
	return extoll_flash_cmd(edev, FLASH_OP_PP4, 4, false, true,
				len, addr);
}

/* How long a NIC reloading from its flash may take to answer config reads. */
#define EXTOLL_FLASH_RELOAD_TIMEOUT_MS	10000

/**
 * extoll_flash_activate() - reset the NIC into the update slot's image
 * @edev: the NIC, stopped (extoll_uninit()), BAR0 still mapped
 *
 * Writes flash.reload (the update slot's address, go). The NIC resets with
 * its PCI configuration (BARs unassigned), so the config space is saved
 * before and restored once the vendor ID reads back, as pci_dev_wait() does.
 *
 * Return: 0, or -ETIMEDOUT if the NIC did not answer within 10 s (the
 * config space is then not restored).
 */
int extoll_flash_activate(struct extoll_dev *edev)
{
	struct pci_dev *pdev = edev->pdev;
	unsigned long end;
	u32 id;

	pci_save_state(pdev);
	extoll_flash_wr(edev, EXTOLL_FLASH_RELOAD,
			(u64)FLASH_PART_MT25QU01G_UPDATE_OFF << EXTOLL_FLASH_RELOAD_ADDR_SHIFT |
			EXTOLL_FLASH_RELOAD_GO_MASK);
	msleep(100);
	end = jiffies + msecs_to_jiffies(EXTOLL_FLASH_RELOAD_TIMEOUT_MS);
	for (;;) {
		pci_read_config_dword(pdev, PCI_VENDOR_ID, &id);
		if ((id & 0xffff) == PCI_VENDOR_ID_EXTOLL)
			break;
		if (time_after(jiffies, end)) {
			dev_err(&pdev->dev,
				"reload: NIC did not come back within %u ms (config reads 0x%08x)\n",
				EXTOLL_FLASH_RELOAD_TIMEOUT_MS, id);
			return -ETIMEDOUT;
		}
		msleep(20);
	}
	pci_restore_state(pdev);
	return 0;
}
