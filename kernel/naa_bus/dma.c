// SPDX-License-Identifier: GPL-2.0
/*
 * naa_bus: the node's DMA windows (the NAA NIC's dma block, docs/security.md).
 *
 * While the windows are enforced, the NAA's NIC forwards a memory request of
 * its devices (DMA, MSI) to this host only if it lies inside a window this
 * host granted: a write outside is dropped, a read outside answered
 * Unsupported Request, both counted on the node. At attach, held by us and
 * before pass-through points at us, we grant what the node's drivers can
 * legitimately use:
 *
 *   window 0      the interrupt window, write only (MSIs, INTx messages,
 *                 RMA notification records)
 *   windows 1..7  the host's System RAM ranges, read and write: the DMA
 *                 API hands the remote devices' drivers addresses there
 *                 (naa_iommu_check() made sure no IOMMU translates the
 *                 NIC's DMA, so bus addresses are physical addresses); with
 *                 more ranges than windows the last window spans the rest
 *
 * then switch enforcement on. So a device can no longer write the host's
 * MMIO (other devices' BARs, the APIC) or anything outside RAM. Granting
 * only the buffers the DMA API maps would be tighter but needs a hook in
 * every mapping (an IOMMU driver's job); not done.
 *
 * At detach (pass-through already off) the windows are cleared and
 * enforcement switched off, the node's reset state; any change of the
 * node's holder also clears their permissions in hardware.
 */
#include <linux/bitfield.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/pfn.h>

#include "naa_bus.h"
#include "extoll_regs.h"

#define NAA_DMA_WINS	EXTOLL_DMA_WIN_BASE_COUNT

struct naa_dma_grant {
	u64 first[NAA_DMA_WINS], last[NAA_DMA_WINS];
	unsigned int n;
};

static int naa_dma_wr(struct naa_host *host, u32 reg, u64 val)
{
	return extoll_rra_write(host->nic, host->node, EXTOLL_DMA_BASE + reg, val);
}

/* One System RAM range: a window of its own, or the last one grows. */
static int naa_dma_ram(struct resource *res, void *arg)
{
	struct naa_dma_grant *g = arg;

	if (g->n < NAA_DMA_WINS) {
		g->first[g->n] = res->start;
		g->last[g->n] = res->end;
		g->n++;
	} else {
		g->last[NAA_DMA_WINS - 1] = max_t(u64, g->last[NAA_DMA_WINS - 1], res->end);
	}
	return 0;
}

static int naa_dma_set(struct naa_host *host, unsigned int i, u64 first,
		       u64 last, bool rd, bool wr)
{
	u64 base = (first & EXTOLL_DMA_WIN_BASE_BASE_MASK) |
		   (rd ? EXTOLL_DMA_WIN_BASE_READ_MASK : 0) |
		   (wr ? EXTOLL_DMA_WIN_BASE_WRITE_MASK : 0);
	int ret;

	ret = naa_dma_wr(host, EXTOLL_DMA_WIN_LIMIT_N(i),
			 last & EXTOLL_DMA_WIN_LIMIT_LIMIT_MASK);
	if (!ret)
		ret = naa_dma_wr(host, EXTOLL_DMA_WIN_BASE_N(i), base);
	if (!ret && (rd || wr))
		dev_dbg(host->dev, "node %u: DMA window %u: %#llx-%#llx%s%s\n",
			host->node, i, first, last | (PAGE_SIZE - 1),
			rd ? " read" : "", wr ? " write" : "");
	return ret;
}

/* The node's NIC has the dma block (1; a NIC before issue 11: 0), or -errno. */
static int naa_dma_present(struct naa_host *host)
{
	u64 hdr;
	int ret = extoll_rra_read(host->nic, host->node, EXTOLL_DMA_BASE, &hdr);

	if (ret == -EREMOTEIO)
		return 0;
	if (ret)
		return ret;
	return FIELD_GET(EXTOLL_BLK_HDR_BTYPE_MASK, hdr) == EXTOLL_DMA_TYPE;
}

/**
 * naa_dma_grant() - grant the node's devices the interrupt window and RAM
 * @host: the node, held by this host, its MSI window known (naa_msi_create)
 *
 * Return: 0 (also for a NIC without the dma block: a warning, the devices'
 * DMA then goes anywhere as before), or the remote access error with
 * nothing granted.
 */
int naa_dma_grant(struct naa_host *host)
{
	struct naa_dma_grant g = { .n = 1 };
	u64 win, size;
	unsigned int i;
	int ret;

	ret = naa_dma_present(host);
	if (ret < 0)
		return ret == -ETIMEDOUT ? -EHOSTUNREACH : -EIO;
	if (!ret) {
		dev_warn(host->dev, "node %u has no DMA window table: its devices' DMA is not restricted\n",
			 host->node);
		return 0;
	}
	ret = extoll_notify_window(host->nic, &win, &size);
	if (ret)
		win = size = 0;
	g.first[0] = win;
	g.last[0] = win + size - 1;
	walk_iomem_res_desc(IORES_DESC_NONE, IORESOURCE_SYSTEM_RAM | IORESOURCE_BUSY,
			    0, U64_MAX, &g, naa_dma_ram);

	ret = naa_dma_set(host, 0, g.first[0], g.last[0], false, size != 0);
	for (i = 1; !ret && i < NAA_DMA_WINS; i++)
		ret = naa_dma_set(host, i, g.first[i], g.last[i], i < g.n, i < g.n);
	if (!ret)
		ret = naa_dma_wr(host, EXTOLL_DMA_CTRL, EXTOLL_DMA_CTRL_ENFORCE_MASK);
	if (ret) {
		dev_err(host->dev, "node %u: cannot grant its DMA windows: %d\n", host->node, ret);
		naa_dma_revoke(host);
		return ret == -ETIMEDOUT ? -EHOSTUNREACH : -EIO;
	}
	host->dma_granted = true;
	dev_info(host->dev, "node %u: DMA windows: the interrupt window and %u System RAM range(s)%s\n",
		 host->node, g.n - 1, g.n > NAA_DMA_WINS - 1 ? " (the last spans the rest)" : "");
	return 0;
}

/**
 * naa_dma_revoke() - clear the node's windows, enforcement off
 * @host: the node, its pass-through off
 *
 * Best effort: a node that stopped answering is left alone (a new holder's
 * claim clears the permissions in hardware).
 */
void naa_dma_revoke(struct naa_host *host)
{
	unsigned int i;
	int ret = 0;

	host->dma_granted = false;
	if (READ_ONCE(host->unreachable))
		return;
	for (i = 0; !ret && i < NAA_DMA_WINS; i++)
		ret = naa_dma_wr(host, EXTOLL_DMA_WIN_BASE_N(i), 0);
	if (!ret)
		ret = naa_dma_wr(host, EXTOLL_DMA_CTRL, 0);
	if (ret)
		dev_warn(host->dev, "node %u: could not clear its DMA windows (%d)\n",
			 host->node, ret);
}
