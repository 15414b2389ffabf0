// SPDX-License-Identifier: GPL-2.0
/*
 * EXTOLL NIC: devlink instance. The per-NIC state lives in its private area.
 *
 *   $ devlink dev info pci/0000:00:02.0
 *     driver extoll
 *     versions:
 *         running:
 *           fw 0.1.0
 *           fw.build 20261122-1a2b3c4d
 *         stored:
 *           fw 1.2.3
 *           fw.build 20261124-0badcafe
 *           fw.fallback 1.0.0
 *           fw.fallback.build 20260101-11111111
 *
 *   $ devlink dev flash pci/0000:00:02.0 file nic-update.img
 *
 * Flashing writes the update slot of the configuration flash (docs/flash.md)
 * through flash.c; the running NIC is untouched. The devlink core calls both
 * ops under the instance lock, so one flash command runs at a time.
 */
#include <linux/crc32.h>
#include <linux/slab.h>
#include <net/devlink.h>

#include "extoll.h"
#include "extoll_compat.h"
#include "flash_image.h"

/*
 * What this driver flashes: the board id is not in a NIC register yet, and
 * the only NIC with a flash controller is the co-simulation's (board sim,
 * docs/flash.md); the part is checked against the JEDEC ID the controller read.
 */
#define EXTOLL_FLASH_BOARD	FLASH_BOARD_SIM
#define EXTOLL_FLASH_PART	FLASH_PART_MT25QU01G
#define EXTOLL_FLASH_SLOT_SIZE	FLASH_PART_MT25QU01G_SLOT_SIZE
#define EXTOLL_FLASH_UPDATE_OFF	FLASH_PART_MT25QU01G_UPDATE_OFF
#define EXTOLL_FLASH_FALLBACK_OFF FLASH_PART_MT25QU01G_FALLBACK_OFF
#define EXTOLL_FLASH_PAGE	FLASH_PART_MT25QU01G_PAGE
#define EXTOLL_FLASH_SUBSECTOR	FLASH_PART_MT25QU01G_SUBSECTOR

/* zlib's crc32 (docs/flash.md). */
static u32 extoll_crc32(const void *p, size_t len)
{
	return ~crc32_le(~0U, p, len);
}

static void extoll_img_decode(const u8 *b, struct flash_img_hdr *h)
{
	h->magic = get_unaligned_le32(b + FLASH_IMG_OFF_MAGIC);
	h->format = get_unaligned_le16(b + FLASH_IMG_OFF_FORMAT);
	h->header_size = get_unaligned_le16(b + FLASH_IMG_OFF_HEADER_SIZE);
	h->board_id = get_unaligned_le32(b + FLASH_IMG_OFF_BOARD_ID);
	h->part_id = get_unaligned_le32(b + FLASH_IMG_OFF_PART_ID);
	h->role = b[FLASH_IMG_OFF_ROLE];
	h->payload_len = get_unaligned_le32(b + FLASH_IMG_OFF_PAYLOAD_LEN);
	h->version = get_unaligned_le64(b + FLASH_IMG_OFF_VERSION);
	h->build = get_unaligned_le64(b + FLASH_IMG_OFF_BUILD);
	h->payload_crc = get_unaligned_le32(b + FLASH_IMG_OFF_PAYLOAD_CRC);
	h->header_crc = get_unaligned_le32(b + FLASH_IMG_OFF_HEADER_CRC);
}

/* The header's own checks (magic, format, header CRC, role); NULL if good. */
static const char *extoll_img_hdr_check(const u8 *b, struct flash_img_hdr *h)
{
	extoll_img_decode(b, h);
	if (h->magic != FLASH_IMG_MAGIC)
		return "not a flash image (wrong magic)";
	if (h->format != FLASH_IMG_FORMAT ||
	    h->header_size != FLASH_IMG_HEADER_SIZE)
		return "unknown image format version";
	if (extoll_crc32(b, FLASH_IMG_HEADER_CRC_LEN) != h->header_crc)
		return "image header CRC-32 mismatch";
	if (h->role != FLASH_ROLE_FALLBACK && h->role != FLASH_ROLE_UPDATE)
		return "unknown image role";
	return NULL;
}

#define EXTOLL_FLASH_REFUSE(edev, extack, fmt, args...)			\
	do {								\
		dev_err(&(edev)->pdev->dev, "flash update refused: " fmt "\n", ##args); \
		extoll_extack_fmt(extack, (edev)->flash_msg, fmt, ##args); \
	} while (0)

/* Every check of the image against this NIC, before anything is erased. */
static int extoll_img_check(struct extoll_dev *edev, const struct firmware *fw,
			    u32 jedec, struct netlink_ext_ack *extack)
{
	struct flash_img_hdr h;
	const char *msg;
	u32 crc;

	if (fw->size < FLASH_IMG_HEADER_SIZE) {
		EXTOLL_FLASH_REFUSE(edev, extack, "image truncated (%zu bytes, header is %u)",
				    fw->size, FLASH_IMG_HEADER_SIZE);
		return -EINVAL;
	}
	msg = extoll_img_hdr_check(fw->data, &h);
	if (msg) {
		EXTOLL_FLASH_REFUSE(edev, extack, "%s", msg);
		return -EINVAL;
	}
	if (h.board_id != EXTOLL_FLASH_BOARD) {
		EXTOLL_FLASH_REFUSE(edev, extack, "wrong board id (image for board 0x%04x, expected 0x%04x)",
				    h.board_id, EXTOLL_FLASH_BOARD);
		return -EINVAL;
	}
	if (h.part_id != jedec) {
		EXTOLL_FLASH_REFUSE(edev, extack, "wrong flash part (image for JEDEC ID 0x%06x, flash is 0x%06x)",
				    h.part_id, jedec);
		return -EINVAL;
	}
	if (h.role != FLASH_ROLE_UPDATE) {
		EXTOLL_FLASH_REFUSE(edev, extack, "not an update image (role %u: fallback)",
				    h.role);
		return -EINVAL;
	}
	if ((u64)FLASH_IMG_HEADER_SIZE + h.payload_len > EXTOLL_FLASH_SLOT_SIZE) {
		EXTOLL_FLASH_REFUSE(edev, extack, "image too large (64 + %u bytes, slot is %u)",
				    h.payload_len, EXTOLL_FLASH_SLOT_SIZE);
		return -EFBIG;
	}
	if (fw->size - FLASH_IMG_HEADER_SIZE < h.payload_len) {
		EXTOLL_FLASH_REFUSE(edev, extack, "image truncated (%zu bytes, header says 64 + %u)",
				    fw->size, h.payload_len);
		return -EINVAL;
	}
	if (fw->size - FLASH_IMG_HEADER_SIZE > h.payload_len) {
		EXTOLL_FLASH_REFUSE(edev, extack, "trailing bytes (%zu bytes, header says 64 + %u)",
				    fw->size, h.payload_len);
		return -EINVAL;
	}
	crc = extoll_crc32(fw->data + FLASH_IMG_HEADER_SIZE, h.payload_len);
	if (crc != h.payload_crc) {
		EXTOLL_FLASH_REFUSE(edev, extack, "payload CRC-32 mismatch (computed 0x%08x, header 0x%08x)",
				    crc, h.payload_crc);
		return -EINVAL;
	}
	return 0;
}

static void extoll_flash_notify(struct extoll_dev *edev, const char *msg,
				unsigned long done, unsigned long total)
{
	devlink_flash_update_status_notify(priv_to_devlink(edev), msg, NULL,
					   done, total);
}

static int extoll_flash_erase(struct extoll_dev *edev, size_t len)
{
	unsigned long n = DIV_ROUND_UP(len, EXTOLL_FLASH_SUBSECTOR), i;
	int ret;

	for (i = 0; i < n; i++) {
		extoll_flash_notify(edev, "Erasing", i, n);
		ret = extoll_flash_erase_subsector(edev, EXTOLL_FLASH_UPDATE_OFF +
						   i * EXTOLL_FLASH_SUBSECTOR);
		if (ret)
			return ret;
	}
	extoll_flash_notify(edev, "Erasing", n, n);
	return 0;
}

static int extoll_flash_program(struct extoll_dev *edev, const u8 *data,
				size_t len)
{
	unsigned long n = DIV_ROUND_UP(len, EXTOLL_FLASH_PAGE), i;
	size_t off, chunk;
	int ret;

	for (i = 0; i < n; i++) {
		extoll_flash_notify(edev, "Programming", i, n);
		off = i * EXTOLL_FLASH_PAGE;
		chunk = min_t(size_t, len - off, EXTOLL_FLASH_PAGE);
		ret = extoll_flash_program_page(edev, EXTOLL_FLASH_UPDATE_OFF + off,
						data + off, chunk);
		if (ret)
			return ret;
	}
	extoll_flash_notify(edev, "Programming", n, n);
	return 0;
}

static int extoll_flash_verify(struct extoll_dev *edev, const u8 *data,
			       size_t len, struct netlink_ext_ack *extack)
{
	unsigned long n = DIV_ROUND_UP(len, EXTOLL_FLASH_PAGE), i;
	u8 buf[EXTOLL_FLASH_PAGE];
	size_t off, chunk;
	int ret;

	for (i = 0; i < n; i++) {
		extoll_flash_notify(edev, "Verifying", i, n);
		off = i * EXTOLL_FLASH_PAGE;
		chunk = min_t(size_t, len - off, EXTOLL_FLASH_PAGE);
		ret = extoll_flash_read(edev, EXTOLL_FLASH_UPDATE_OFF + off, buf,
					chunk);
		if (ret)
			return ret;
		if (memcmp(buf, data + off, chunk)) {
			dev_err(&edev->pdev->dev, "flash: verify failed at 0x%08zx\n",
				EXTOLL_FLASH_UPDATE_OFF + off);
			extoll_extack_fmt(extack, edev->flash_msg,
					  "verify failed: flash at 0x%08zx differs from the image",
					  EXTOLL_FLASH_UPDATE_OFF + off);
			return -EIO;
		}
	}
	extoll_flash_notify(edev, "Verifying", n, n);
	return 0;
}

/* devlink dev flash: check the image, then erase, program, verify the update slot. */
static int extoll_devlink_flash_update(struct devlink *devlink,
				       struct devlink_flash_update_params *params,
				       struct netlink_ext_ack *extack)
{
	struct extoll_dev *edev = devlink_priv(devlink);
	const struct firmware *fw = params->fw;
	u32 jedec;
	int ret;

	if (!extoll_flash_present(edev)) {
		NL_SET_ERR_MSG_MOD(extack, "this NIC has no flash controller");
		return -EOPNOTSUPP;
	}
	ret = extoll_flash_jedec(edev, &jedec);
	if (ret) {
		NL_SET_ERR_MSG_MOD(extack, "flash part did not answer READ ID");
		return ret;
	}
	ret = extoll_img_check(edev, fw, jedec, extack);
	if (ret)
		return ret;

	extoll_flash_notify(edev, "Preparing to flash", 0, 0);
	ret = extoll_flash_erase(edev, fw->size);
	if (!ret)
		ret = extoll_flash_program(edev, fw->data, fw->size);
	if (!ret)
		ret = extoll_flash_verify(edev, fw->data, fw->size, extack);
	if (ret) {
		if (!extack || !extack->_msg)
			NL_SET_ERR_MSG_MOD(extack, "flash access failed (see the kernel log)");
		return ret;
	}
	extoll_flash_notify(edev, "Flash done", 0, 0);
	dev_info(&edev->pdev->dev, "flash: update slot written (%zu bytes)\n",
		 fw->size);
	return 0;
}

/* "fw" and "fw.build" (or "fw.<slot>", ...) of a slot whose header holds. */
static int extoll_devlink_info_slot(struct extoll_dev *edev,
				    struct devlink_info_req *req, u32 off,
				    const char *fw, const char *build)
{
	u8 b[FLASH_IMG_HEADER_SIZE];
	struct flash_img_hdr h;
	char buf[32];
	int ret;

	ret = extoll_flash_read(edev, off, b, sizeof(b));
	if (ret || extoll_img_hdr_check(b, &h) || h.board_id != EXTOLL_FLASH_BOARD)
		return 0;	/* nothing stored there: no version */

	snprintf(buf, sizeof(buf), "%u.%u.%u", (u16)(h.version >> 32),
		 (u16)(h.version >> 16), (u16)h.version);
	ret = devlink_info_version_stored_put(req, fw, buf);
	if (ret)
		return ret;
	snprintf(buf, sizeof(buf), "%08x-%08x", (u32)h.build,
		 (u32)(h.build >> 32));
	return devlink_info_version_stored_put(req, build, buf);
}

/* Stored versions (update and fallback slots) and the board id. */
static int extoll_devlink_info_stored(struct extoll_dev *edev,
				      struct devlink_info_req *req)
{
	char buf[16];
	u32 jedec;
	int ret;

	if (!extoll_flash_present(edev) || extoll_flash_jedec(edev, &jedec))
		return 0;
	snprintf(buf, sizeof(buf), "0x%04x", EXTOLL_FLASH_BOARD);
	ret = devlink_info_version_fixed_put(req,
					     DEVLINK_INFO_VERSION_GENERIC_BOARD_ID,
					     buf);
	if (ret)
		return ret;
	ret = extoll_devlink_info_slot(edev, req, EXTOLL_FLASH_UPDATE_OFF,
				       DEVLINK_INFO_VERSION_GENERIC_FW,
				       "fw.build");
	if (ret)
		return ret;
	return extoll_devlink_info_slot(edev, req, EXTOLL_FLASH_FALLBACK_OFF,
					"fw.fallback", "fw.fallback.build");
}
static int extoll_devlink_info_get(struct devlink *devlink,
				   struct devlink_info_req *req,
				   struct netlink_ext_ack *extack)
{
	struct extoll_dev *edev = devlink_priv(devlink);
	const struct extoll_info *info = &edev->info;
	char buf[32];
	int ret;

	ret = extoll_devlink_info_driver_name_put(req, KBUILD_MODNAME);
	if (ret)
		return ret;

	snprintf(buf, sizeof(buf), "%u.%u.%u", info->ver_major,
		 info->ver_minor, info->ver_patch);
	ret = devlink_info_version_running_put(req,
					       DEVLINK_INFO_VERSION_GENERIC_FW,
					       buf);
	if (ret)
		return ret;

	snprintf(buf, sizeof(buf), "%08x-%08x", info->build_date,
		 info->build_commit);
	ret = devlink_info_version_running_put(req, "fw.build", buf);
	if (ret)
		return ret;

	return extoll_devlink_info_stored(edev, req);
}

/*
 * devlink dev reload: tear the driver's state down (as remove does, devlink
 * and the PCI device kept), for fw_activate reset the NIC into its update
 * slot (extoll_flash_activate()), then bring it up again as probe does.
 * Refused while NAA nodes are attached: their PCI domains live on this NIC.
 * A NIC that does not come back leaves the driver down (reloading set,
 * only PCI enabled and BAR0 mapped); another reload or unbind recovers.
 */
static int extoll_devlink_reload_down(struct devlink *devlink,
				      bool netns_change,
				      enum devlink_reload_action action,
				      enum devlink_reload_limit limit,
				      struct netlink_ext_ack *extack)
{
	struct extoll_dev *edev = devlink_priv(devlink);
	bool down;

	if (netns_change) {
		NL_SET_ERR_MSG_MOD(extack, "namespace change is not supported");
		return -EOPNOTSUPP;
	}
	if (action == DEVLINK_RELOAD_ACTION_FW_ACTIVATE &&
	    !extoll_flash_present(edev)) {
		NL_SET_ERR_MSG_MOD(extack, "this NIC has no flash controller");
		return -EOPNOTSUPP;
	}

	mutex_lock(&edev->naa_lock);
	if (!list_empty(&edev->naa_list)) {
		mutex_unlock(&edev->naa_lock);
		dev_err(&edev->pdev->dev,
			"reload refused: NAA nodes are attached through this NIC\n");
		NL_SET_ERR_MSG_MOD(extack,
				   "NAA nodes are attached through this NIC: detach them first ('naactl detach N')");
		return -EBUSY;
	}
	down = edev->reloading;	/* a failed reload left it down */
	edev->reloading = true;
	mutex_unlock(&edev->naa_lock);

	edev->reload_start = ktime_get();
	if (!down) {
		extoll_cdev_unregister(edev);
		extoll_health_stop(edev, true);
		extoll_uninit(edev);
	}
	if (action != DEVLINK_RELOAD_ACTION_FW_ACTIVATE)
		return 0;
	dev_info(&edev->pdev->dev, "reload: activating the update slot's image\n");
	if (extoll_flash_activate(edev)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the NIC did not come back after the flash reload (driver left down; see the kernel log)");
		return -ETIMEDOUT;
	}
	return 0;
}

static int extoll_devlink_reload_up(struct devlink *devlink,
				    enum devlink_reload_action action,
				    enum devlink_reload_limit limit,
				    u32 *actions_performed,
				    struct netlink_ext_ack *extack)
{
	struct extoll_dev *edev = devlink_priv(devlink);
	int ret;

	ret = extoll_init(edev);
	if (ret) {
		NL_SET_ERR_MSG_MOD(extack,
				   "re-initialisation failed (driver left down; see the kernel log)");
		return ret;
	}
	extoll_health_stop(edev, false);
	mutex_lock(&edev->naa_lock);
	edev->reloading = false;
	mutex_unlock(&edev->naa_lock);

	*actions_performed = BIT(action) | BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT);
	dev_info(&edev->pdev->dev, "reload (%s) done in %lld ms: running rtl %u.%u.%u build %08x-%08x\n",
		 action == DEVLINK_RELOAD_ACTION_FW_ACTIVATE ? "fw_activate" :
		 "driver_reinit",
		 ktime_ms_delta(ktime_get(), edev->reload_start),
		 edev->info.ver_major, edev->info.ver_minor,
		 edev->info.ver_patch, edev->info.build_date,
		 edev->info.build_commit);
	return 0;
}

static const struct devlink_ops extoll_devlink_ops = {
	.info_get = extoll_devlink_info_get,
	.flash_update = extoll_devlink_flash_update,
	.reload_actions = BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT) |
			  BIT(DEVLINK_RELOAD_ACTION_FW_ACTIVATE),
	.reload_down = extoll_devlink_reload_down,
	.reload_up = extoll_devlink_reload_up,
};

/* Allocate the devlink instance and, in it, the zeroed per-NIC state. */
struct extoll_dev *extoll_devlink_alloc(struct pci_dev *pdev)
{
	struct devlink *devlink;

	devlink = devlink_alloc(&extoll_devlink_ops, sizeof(struct extoll_dev),
				&pdev->dev);
	if (!devlink)
		return NULL;
	return devlink_priv(devlink);
}

void extoll_devlink_register(struct extoll_dev *edev)
{
	extoll_devlink_enable_reload(priv_to_devlink(edev));
	devlink_register(priv_to_devlink(edev));
}

void extoll_devlink_unregister(struct extoll_dev *edev)
{
	devlink_unregister(priv_to_devlink(edev));
}

void extoll_devlink_free(struct extoll_dev *edev)
{
	devlink_free(priv_to_devlink(edev));
}
