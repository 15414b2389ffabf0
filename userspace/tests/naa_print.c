// SPDX-License-Identifier: Apache-2.0
/*
 * naactl's node lines without a NIC (make -C userspace check): print_naa
 * (naactl list: text row and JSON) for five nodes (attached with one and two
 * devices, waiting, failed, dead without a root port), and print_attach
 * (naactl attach: the attach ioctl's result, text and JSON) attached and
 * without naa_bus. tests/check.sh compares the output with
 * tests/expected/naa-print.txt. Both are static to the command file, so
 * this includes it.
 */
#define main naactl_main
#include "../tools/naactl.c"
#undef main

/* route.c, discover.c, flash.c, rma.c and dma.c are not linked in: their commands as stubs */
#define STUB_CMD(name)								\
	int name(struct extoll_nic *nic, int argc, char **argv)		\
	{									\
		(void)nic;							\
		(void)argc;							\
		(void)argv;							\
		return NAACTL_EXIT_USAGE;					\
	}
STUB_CMD(cmd_route)
STUB_CMD(cmd_topo)
STUB_CMD(cmd_flash)
STUB_CMD(cmd_rma)
STUB_CMD(cmd_dma)
const char route_usage[] = "", topo_usage[] = "", flash_usage[] = "", rma_usage[] = "", dma_usage[] = "";

static void node_case(struct extoll_naa *a, int k)
{
	static char devices[2][16];

	memset(a, 0, sizeof(*a));
	a->devices = devices;
	a->node = k == 3 ? 9 : 5;
	snprintf(a->name, sizeof(a->name), "extoll.naa.%d", k);
	a->domain = -1;
	switch (k) {
	case 0:		/* attached, one device (domain fffe) */
	case 1:		/* attached, two devices (domain fffd) */
		strcpy(a->state, "attached");
		a->domain = 0xfffe - k;
		a->has_root_port = 1;
		snprintf(a->root_port, sizeof(a->root_port), "%04x:00:00.0", a->domain);
		a->n_devices = k + 1;
		for (int d = 0; d <= k; d++)
			snprintf(a->devices[d], sizeof(devices[d]), "%04x:01:00.%d", a->domain, d);
		break;
	case 2:		/* created, naa_bus not loaded */
		strcpy(a->state, "waiting");
		break;
	case 3:		/* refused by the driver */
		strcpy(a->state, "failed");
		a->error = -113;
		break;
	default:	/* stopped answering, domain above 0xffff */
		strcpy(a->state, "dead");
		a->domain = 0x10000;
		break;
	}
}

int main(void)
{
	struct extoll_naa a;
	int k;

	for (k = 0; k < 5; k++) {
		node_case(&a, k);
		print_set_mode(0, 0, 0);
		print_naa(&a);
		fflush(stdout);
		print_set_mode(1, 0, 0);
		new_json_obj();
		print_naa(&a);
		delete_json_obj();
		fflush(stdout);
	}
	for (k = 0; k < 2; k++) {
		struct extoll_attach_result res = {
			.id = k, .domain = k ? -1 : 0xfffe, .root_bus = 0,
		};

		snprintf(res.name, sizeof(res.name), "extoll.naa.%d", k);
		print_set_mode(0, 0, 0);
		print_attach(5, &res);
		fflush(stdout);
		print_set_mode(1, 0, 0);
		print_attach(5, &res);
		fflush(stdout);
	}
	return 0;
}
