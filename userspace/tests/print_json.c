// SPDX-License-Identifier: Apache-2.0
/*
 * naactl's print layer without a NIC (make -C userspace check): one document
 * as `naactl info` prints it (a device path with slashes, numbers, a bool, a
 * null, an array), in the mode of the arguments: "text", "json" (compact,
 * -j), "pretty" (-j -p). tests/check.sh checks that the JSON is valid, on
 * one line unless pretty, holds every value of the text, and that slashes
 * are not escaped.
 */
#include <string.h>

#include "print.h"

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "text";

	print_set_mode(strcmp(mode, "text") != 0, !strcmp(mode, "pretty"), 0);
	new_json_obj();
	print_string(PRINT_ANY, "device", "%s: ", "/dev/extoll0");
	print_string(PRINT_ANY, "sysfs", "%s, ", "/sys/bus/pci/devices/0000:00:02.0");
	print_uint(PRINT_ANY, "node", "node %u, ", 5);
	print_bool(PRINT_ANY, "rra", "rra %s, ", 1);
	print_null(PRINT_ANY, "domain", "domain %s, ", "-");
	open_json_array(PRINT_ANY, "devices");
	print_string(PRINT_ANY, NULL, "[%s", "fffe:01:00.0");
	print_string(PRINT_ANY, NULL, " %s]", "fffe:01:00.1");
	close_json_array(PRINT_ANY, NULL);
	print_nl();
	delete_json_obj();
	return 0;
}
