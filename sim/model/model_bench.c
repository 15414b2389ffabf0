// SPDX-License-Identifier: Apache-2.0
/*
 * Standalone benchmark of the Verilated NIC: simulated cycles per second
 * (idle clock, and under a register read/write load through BAR0), and the
 * RTL's register read round trip in cycles.  Also checks that several model
 * instances can be stepped in lockstep in one process.
 *
 *   model_bench [cycles] [instances]
 *
 * BAR0 is programmed through config space at 0xfe000000 (as the firmware would).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pcie_model.h"

#define BAR0 0xfe000000u
#define SCRATCH 0x20u
#define ID (0x0010) /* 00:02.0 */

static struct pcie_model *create(const char *name)
{
	const struct pcie_model_params p = { .name = name };

	return pcie_model_create(&pcie_backend_nic, &p);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Run until a completion arrives; returns cycles or -1. */
static long wait_cpl(struct pcie_model *m, struct tlp *c)
{
	for (long n = 1; n < 100000; n++) {
		pcie_model_step(m, 1);
		int r = pcie_model_pop_tlp(m, c, NULL);
		if (r == 1 && (c->kind == TLP_CPL || c->kind == TLP_CPLD))
			return n;
	}
	return -1;
}

static int cfg(struct pcie_model *m, int wr, unsigned reg, uint32_t val, uint32_t *out)
{
	struct tlp t, c;

	tlp_cfg(&t, wr, 0, ID, reg, 0xf, val, 0, 1);
	pcie_model_push_tlp(m, &t);
	if (wait_cpl(m, &c) < 0 || c.status != TLP_CPL_SC)
		return -1;
	if (out)
		*out = c.payload[0];
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long cycles = argc > 1 ? strtoull(argv[1], NULL, 0) : 2000000;
	int inst = argc > 2 ? atoi(argv[2]) : 4;
	struct pcie_model *m;

	setenv("COSIM_FLASH_DIR", "none", 0);  /* the NIC's speed, not its flash files */
	m = create("nic0");
	struct tlp t, c;
	uint32_t id;
	double t0, dt;

	if (!m)
		return 1;
	if (cfg(m, 0, 0, 0, &id)) {
		fprintf(stderr, "model_bench: config read of the ID failed\n");
		return 1;
	}
	printf("model_bench: vendor:device %04x:%04x\n", id & 0xffff, id >> 16);
	cfg(m, 1, 0x10, BAR0, NULL);
	cfg(m, 1, 0x04, 0x6, NULL);

	t0 = now();
	pcie_model_step(m, cycles);
	dt = now() - t0;
	printf("model_bench: idle clock:          %.2f Mcycles/s (%llu cycles in %.3f s)\n",
	       cycles / dt / 1e6, cycles, dt);

	/* register traffic: 64-bit write + 64-bit read of scratch, back to back */
	unsigned long long c0 = pcie_model_cycles(m), rd_cycles = 0, n = 0, bad = 0;
	t0 = now();
	while (pcie_model_cycles(m) - c0 < cycles) {
		uint32_t v[2] = { (uint32_t)n * 2654435761u, (uint32_t)n };
		tlp_mwr(&t, BAR0 + SCRATCH, v, 2, 0xf, 0xf, 0);
		pcie_model_push_tlp(m, &t);
		tlp_mrd(&t, BAR0 + SCRATCH, 2, 0xf, 0xf, 0, (uint8_t)n);
		pcie_model_push_tlp(m, &t);
		long r = wait_cpl(m, &c);
		if (r < 0) {
			fprintf(stderr, "model_bench: no completion for a register read\n");
			return 1;
		}
		rd_cycles += r;
		if (c.payload_dw < 2 || c.payload[0] != v[0] || c.payload[1] != v[1])
			bad++;
		n++;
	}
	dt = now() - t0;
	printf("model_bench: register load:       %.2f Mcycles/s, %.0f write+read pairs/s, %.1f cycles per pair (push to completion), %llu mismatches\n",
	       (pcie_model_cycles(m) - c0) / dt / 1e6, n / dt, (double)rd_cycles / n, bad);

	/* lockstep instances */
	struct pcie_model **ms = calloc(inst, sizeof(*ms));
	for (int i = 0; i < inst; i++) {
		char name[16];
		snprintf(name, sizeof(name), "nic%d", i);
		ms[i] = create(name);
		if (!ms[i] || cfg(ms[i], 0, 0, 0, &id))
			return 1;
	}
	t0 = now();
	for (unsigned long long k = 0; k < cycles / inst; k++)
		for (int i = 0; i < inst; i++)
			pcie_model_step(ms[i], 1);
	dt = now() - t0;
	printf("model_bench: %d instances lockstep: %.2f Mcycles/s per instance, %.2f total\n", inst,
	       cycles / inst / dt / 1e6, cycles / dt / 1e6);
	for (int i = 0; i < inst; i++)
		pcie_model_destroy(ms[i]);
	free(ms);
	pcie_model_destroy(m);
	return bad ? 1 : 0;
}
