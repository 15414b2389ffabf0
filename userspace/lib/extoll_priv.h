/* SPDX-License-Identifier: Apache-2.0 */
/* libextoll: what the library's files share and do not export. */
#ifndef EXTOLL_PRIV_H
#define EXTOLL_PRIV_H

#include "libextoll.h"
#include "uapi/extoll_ioctl.h"

/* libextoll.c: the open /dev/extollN of a NIC, and its driver's ABI. */
int extoll_nic_fd(const struct extoll_nic *nic);
unsigned int extoll_nic_abi(const struct extoll_nic *nic);

/* rma.c: the EXTOLL_IOC_RMA_POST request of a put/get, without a device;
 * 0 or -EINVAL (op, flags, target kind) / -ERANGE (off, len beyond what
 * the ioctl can carry). Unit-tested (tests/rma_test.c). */
int extoll_rma_post_req(struct extoll_ioc_rma_post *req, unsigned int op,
			const struct extoll_rma_buf *buf, size_t off,
			const struct extoll_rma_target *t, size_t len,
			unsigned int flags);

#endif /* EXTOLL_PRIV_H */
