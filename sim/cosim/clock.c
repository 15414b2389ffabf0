// SPDX-License-Identifier: Apache-2.0
/* When to clock the world: see clock.h. */
#include "clock.h"

static struct world *world;
static struct pcie_model *const *devs;
static unsigned ndevs;
static bool (*service)(void);
static uint64_t linger, linger_left;

void clock_init(struct world *w, struct pcie_model *const *d, unsigned n, uint64_t lg,
		bool (*svc)(void))
{
	world = w;
	devs = d;
	ndevs = n;
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

static bool any_busy(void)
{
	for (unsigned i = 0; i < ndevs; i++)
		if (pcie_model_busy(devs[i]))
			return true;
	return false;
}

bool clock_running(void)
{
	return linger_left || any_busy();
}

uint64_t clock_batch(void)
{
	return any_busy() ? 64 : 16;
}
