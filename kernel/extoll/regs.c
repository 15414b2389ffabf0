// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: walk of the register file's block list.
 *
 * The register BAR is a linked list of self-describing blocks. Each block
 * starts with a 64-bit header: type, major/minor version and the BAR offset
 * of the next block (0 ends the list). The driver finds the units it knows
 * by type and refuses a known block whose major version differs from the
 * one it was written for; unknown block types are skipped.
 */
#include <linux/bitfield.h>

#include "extoll.h"

/* A block type this driver knows. */
struct extoll_blk_desc {
	u16 type;
	u8 ver_major;
	u32 size;		/* bytes from the block base the driver touches */
	const char *name;
	int slot;		/* offsetof() its u32 in extoll_dev, or -1: unused */
};

/*
 * One known block: its type and major version are generated names; the
 * driver keeps the offset of a block it uses in edev-><name>_off.
 */
#define EXTOLL_BLK(t, n, sz, s)						\
	{ .type = EXTOLL_BLK_TYPE_##t, .ver_major = EXTOLL_##t##_VER_MAJOR,	\
	  .size = (sz), .name = #n, .slot = (s) }
#define EXTOLL_BLK_USED(t, n, sz)					\
	EXTOLL_BLK(t, n, sz, offsetof(struct extoll_dev, n##_off))

static const struct extoll_blk_desc extoll_blk_known[] = {
	EXTOLL_BLK_USED(INFO, info, EXTOLL_INFO_CYCLES + sizeof(u64)),
#ifdef EXTOLL_BLK_TYPE_PCIE	/* register maps from before the PCIe block lack it */
	EXTOLL_BLK(PCIE, pcie, EXTOLL_PCIE_APERTURE + sizeof(u64), -1),
#endif
	EXTOLL_BLK_USED(RRA, rra, EXTOLL_RRA_SERVED + sizeof(u64)),
	EXTOLL_BLK_USED(BACKDOOR, backdoor, EXTOLL_BACKDOOR_RX_POP + sizeof(u64)),
	EXTOLL_BLK_USED(ROUTER, router, EXTOLL_ROUTER_LINK_DOWNS + sizeof(u64)),
	EXTOLL_BLK_USED(SMFU, smfu, EXTOLL_SMFU_IN_BASE +
			EXTOLL_SMFU_IN_BASE_COUNT * EXTOLL_SMFU_IN_BASE_STRIDE),
	EXTOLL_BLK_USED(NOTIFY, notify, EXTOLL_NOTIFY_EVENTS + sizeof(u64)),
	EXTOLL_BLK_USED(FLASH, flash, EXTOLL_FLASH_DATA_N(EXTOLL_FLASH_DATA_COUNT)),
	EXTOLL_BLK_USED(RMA, rma, EXTOLL_RMA_STATS + sizeof(u64)),
	EXTOLL_BLK_USED(DMA, dma, EXTOLL_DMA_WIN_LIMIT_N(EXTOLL_DMA_WIN_LIMIT_COUNT)),
};

/* Where the driver keeps the offset of a block it uses, or NULL. */
static u32 *extoll_blk_slot(struct extoll_dev *edev,
			    const struct extoll_blk_desc *desc)
{
	return desc->slot < 0 ? NULL : (u32 *)((u8 *)edev + desc->slot);
}

static const struct extoll_blk_desc *extoll_blk_lookup(u16 type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(extoll_blk_known); i++)
		if (extoll_blk_known[i].type == type)
			return &extoll_blk_known[i];
	return NULL;
}

/* Is [off, off + len) a naturally aligned range inside BAR0? */
static bool extoll_regs_range_ok(struct extoll_dev *edev, u64 off, u64 len)
{
	return IS_ALIGNED(off, sizeof(u64)) && off < edev->regs_len &&
	       len <= edev->regs_len - off;
}

/* Check one block of a known type and remember where it is. */
static int extoll_blk_accept(struct extoll_dev *edev, u32 off, u64 hdr,
			     const struct extoll_blk_desc *desc)
{
	struct device *dev = &edev->pdev->dev;
	u8 major = FIELD_GET(EXTOLL_BLK_HDR_VER_MAJOR_MASK, hdr);
	u8 minor = FIELD_GET(EXTOLL_BLK_HDR_VER_MINOR_MASK, hdr);
	u32 *slot;

	if (major != desc->ver_major) {
		dev_err(dev,
			"register block %s (type 0x%04x) at 0x%x has version %u.%u, driver supports major version %u: refusing the device\n",
			desc->name, desc->type, off, major, minor,
			desc->ver_major);
		return -ENODEV;
	}
	if (!extoll_regs_range_ok(edev, off, desc->size)) {
		dev_err(dev,
			"register block %s at 0x%x (0x%x bytes) does not fit in BAR%d (0x%llx bytes)\n",
			desc->name, off, desc->size, EXTOLL_BAR_REGS,
			(unsigned long long)edev->regs_len);
		return -ENODEV;
	}

	/* Known and version-checked; remember the ones the driver uses. */
	slot = extoll_blk_slot(edev, desc);
	if (slot && *slot != EXTOLL_NO_BLOCK)
		dev_warn(dev, "second %s block at 0x%x ignored (first at 0x%x)\n",
			 desc->name, off, *slot);
	else if (slot)
		*slot = off;
	dev_dbg(dev, "register block %s v%u.%u at 0x%x\n", desc->name, major,
		minor, off);
	return 0;
}

/* Walk the block list from offset 0, bounded in length and within BAR0. */
static int extoll_regs_walk(struct extoll_dev *edev)
{
	struct device *dev = &edev->pdev->dev;
	const struct extoll_blk_desc *desc;
	u64 off = 0, hdr;
	unsigned int i;
	u16 type;
	int ret;

	edev->nr_blocks = 0;
	for (i = 0; i < ARRAY_SIZE(extoll_blk_known); i++) {
		u32 *slot = extoll_blk_slot(edev, &extoll_blk_known[i]);

		if (slot)
			*slot = EXTOLL_NO_BLOCK;
	}

	do {
		if (edev->nr_blocks == EXTOLL_MAX_BLOCKS) {
			dev_err(dev,
				"register block list does not end within %u blocks (loop?)\n",
				EXTOLL_MAX_BLOCKS);
			return -ENODEV;
		}
		if (!extoll_regs_range_ok(edev, off, sizeof(u64))) {
			dev_err(dev,
				"register block %u: offset 0x%llx is unaligned or beyond BAR%d (0x%llx bytes)\n",
				edev->nr_blocks, off, EXTOLL_BAR_REGS,
				(unsigned long long)edev->regs_len);
			return -ENODEV;
		}

		hdr = extoll_rd(edev, off);
		if (hdr == ~0ULL) {
			dev_err(dev,
				"register block header at 0x%llx reads all-ones: device not responding (gone, or not out of reset)\n",
				off);
			edev->gone = true;
			return -ENODEV;
		}

		type = FIELD_GET(EXTOLL_BLK_HDR_BTYPE_MASK, hdr);
		desc = extoll_blk_lookup(type);
		if (desc) {
			ret = extoll_blk_accept(edev, off, hdr, desc);
			if (ret)
				return ret;
		} else {
			dev_dbg(dev, "register block type 0x%04x at 0x%llx: unknown, skipped\n",
				type, off);
		}

		edev->nr_blocks++;
		off = FIELD_GET(EXTOLL_BLK_HDR_NEXT_MASK, hdr);
	} while (off);

	return 0;
}

/* Read the NIC's identity from the INFO block. */
static int extoll_info_read(struct extoll_dev *edev)
{
	struct device *dev = &edev->pdev->dev;
	struct extoll_info *info = &edev->info;
	u64 id, ver, build;
	u32 magic;

	id = extoll_info_rd(edev, EXTOLL_INFO_ID);
	magic = FIELD_GET(EXTOLL_INFO_ID_MAGIC_MASK, id);
	if (magic != EXTOLL_INFO_ID_MAGIC_RESET) {
		dev_err(dev,
			"info block at 0x%x: bad magic 0x%08x, expected 0x%08llx ('EXTL')\n",
			edev->info_off, magic, EXTOLL_INFO_ID_MAGIC_RESET);
		return -ENODEV;
	}
	info->role = FIELD_GET(EXTOLL_INFO_ID_ROLE_MASK, id);
	info->node_id = FIELD_GET(EXTOLL_INFO_ID_NODE_ID_MASK, id);

	ver = extoll_info_rd(edev, EXTOLL_INFO_VERSION);
	info->ver_major = FIELD_GET(EXTOLL_INFO_VERSION_MAJOR_MASK, ver);
	info->ver_minor = FIELD_GET(EXTOLL_INFO_VERSION_MINOR_MASK, ver);
	info->ver_patch = FIELD_GET(EXTOLL_INFO_VERSION_PATCH_MASK, ver);

	build = extoll_info_rd(edev, EXTOLL_INFO_BUILD);
	info->build_date = FIELD_GET(EXTOLL_INFO_BUILD_DATE_MASK, build);
	info->build_commit = FIELD_GET(EXTOLL_INFO_BUILD_COMMIT_MASK, build);

	return 0;
}

/**
 * extoll_regs_probe() - find the register blocks and read the NIC's identity
 * @edev: the NIC, with BAR0 mapped
 *
 * Return: 0, or -ENODEV with the reason logged.
 */
int extoll_regs_probe(struct extoll_dev *edev)
{
	int ret;

	ret = extoll_regs_walk(edev);
	if (ret)
		return ret;

	if (edev->info_off == EXTOLL_NO_BLOCK) {
		dev_err(&edev->pdev->dev,
			"no info block (type 0x%04x) among %u register block(s)\n",
			EXTOLL_BLK_TYPE_INFO, edev->nr_blocks);
		return -ENODEV;
	}

	return extoll_info_read(edev);
}
