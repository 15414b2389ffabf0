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
 */
#include <net/devlink.h>

#include "extoll.h"
#include "extoll_compat.h"

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
	return devlink_info_version_running_put(req, "fw.build", buf);
}

static const struct devlink_ops extoll_devlink_ops = {
	.info_get = extoll_devlink_info_get,
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
