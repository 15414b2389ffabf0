// SPDX-License-Identifier: Apache-2.0
/* When to clock the world: see clock.h. */
#include "clock.h"

static struct world *world;
static struct pcie_model *dev;
static bool (*service)(void);
static uint64_t linger, linger_left;

void clock_init(struct world *w, struct pcie_model *d, uint64_t lg, bool (*svc)(void))
{
	world = w;
	dev = d;
	linger = lg;
	service = svc;
	linger_left = 0;
}

void clock_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		bool net = world_step(world);
		bool any = service();

		if (any || net)
			linger_left = linger;
		else if (linger_left)
			linger_left--;
	}
}

void clock_kick(void)
{
	linger_left = linger;
}

void clock_stop(void)
{
	linger_left = 0;
}

bool clock_running(void)
{
	return linger_left || pcie_model_busy(dev);
}

uint64_t clock_batch(void)
{
	return pcie_model_busy(dev) ? 64 : 16;
}
