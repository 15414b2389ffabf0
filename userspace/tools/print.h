/* SPDX-License-Identifier: Apache-2.0 */
/*
 * naactl's one print layer, after iproute2's json_print.h: every value is
 * printed once, by a print_*() call that writes text (printf-style, with
 * fmt) or adds the value to the JSON document under key, depending on the
 * global mode set by -j/--json (and -p/--pretty). A call with PRINT_FP is
 * text only, PRINT_JSON JSON only, PRINT_ANY both. In text mode -q/--quiet
 * suppresses everything; errors never come here (err_msg, stderr).
 *
 *   new_json_obj();                         a command's output starts
 *   print_uint(PRINT_ANY, "node", "node %u", node);
 *   open_json_array(PRINT_JSON, "devices"); ... close_json_array(PRINT_JSON, NULL);
 *   delete_json_obj();                      JSON: the document is printed
 */
#ifndef NAACTL_PRINT_H
#define NAACTL_PRINT_H

#include <stdint.h>

enum output_type {
	PRINT_FP = 1,		/* text only */
	PRINT_JSON = 2,		/* JSON only */
	PRINT_ANY = 3,		/* both */
};

void print_set_mode(int json, int pretty, int quiet);
int is_json_context(void);
/* Sets quiet (text mode) and returns the previous setting. */
int print_set_quiet(int quiet);

/* The JSON document of one command: an object; printed by delete_json_obj. */
void new_json_obj(void);
void delete_json_obj(void);

/* Containers: in an array, keys are ignored. In text mode fmt (may be NULL)
 * is printed as is. */
void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(enum output_type t, const char *key);
void close_json_array(enum output_type t, const char *text);

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *value);
void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int value);
void print_int(enum output_type t, const char *key, const char *fmt, int value);
void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t value);
void print_bool(enum output_type t, const char *key, const char *fmt, int value);
/* JSON null; text: fmt with value. */
void print_null(enum output_type t, const char *key, const char *fmt,
		const char *value);
/* Both: value (text: fmt with value), or JSON null (text: fmt with none). */
void print_or_null(const char *key, const char *fmt, const char *value,
		   const char *none);
/* Text only (unless quiet), printf-style: labels and separators. */
void print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void print_nl(void);

#endif /* NAACTL_PRINT_H */
