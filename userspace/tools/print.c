// SPDX-License-Identifier: Apache-2.0
/*
 * naactl's print layer (print.h): text on stdout, or one JSON document per
 * command built with json-c and printed at the end (compact with -j, pretty
 * with -j -p; slashes never escaped: "/dev/extoll0", not "\/dev\/extoll0").
 */
#include <stdarg.h>
#include <stdio.h>

#include <json-c/json.h>

#include "print.h"

#define DEPTH_MAX 8

static int json_mode, pretty_mode, quiet_mode;
static struct json_object *stack[DEPTH_MAX];
static int depth;		/* stack[0..depth-1]: open containers */

void print_set_mode(int json, int pretty, int quiet)
{
	json_mode = json;
	pretty_mode = pretty;
	quiet_mode = quiet;
}

int is_json_context(void)
{
	return json_mode;
}

int print_set_quiet(int quiet)
{
	int old = quiet_mode;

	quiet_mode = quiet;
	return old;
}

static int want_text(enum output_type t)
{
	return !json_mode && !quiet_mode && (t & PRINT_FP);
}

static int want_json(enum output_type t)
{
	return json_mode && (t & PRINT_JSON) && depth > 0;
}

/* Adds v (NULL: JSON null) to the innermost container. */
static void add(const char *key, struct json_object *v)
{
	struct json_object *top = stack[depth - 1];

	if (json_object_is_type(top, json_type_array))
		json_object_array_add(top, v);
	else
		json_object_object_add(top, key, v);
}

static void push(const char *key, struct json_object *c)
{
	if (depth > 0)
		add(key, c);
	if (depth < DEPTH_MAX)
		stack[depth++] = c;
}

void new_json_obj(void)
{
	if (json_mode && depth == 0)
		push(NULL, json_object_new_object());
}

void delete_json_obj(void)
{
	int flags = (pretty_mode ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
		     JSON_C_TO_STRING_PLAIN) | JSON_C_TO_STRING_NOSLASHESCAPE;

	if (!json_mode || depth == 0)
		return;
	puts(json_object_to_json_string_ext(stack[0], flags));
	json_object_put(stack[0]);
	depth = 0;
}

void open_json_object(const char *key)
{
	if (want_json(PRINT_JSON))
		push(key, json_object_new_object());
}

void close_json_object(void)
{
	if (want_json(PRINT_JSON) && depth > 1)
		depth--;
}

void open_json_array(enum output_type t, const char *key)
{
	if (want_json(t))
		push(key, json_object_new_array());
}

void close_json_array(enum output_type t, const char *text)
{
	if (want_json(t) && depth > 1)
		depth--;
	else if (want_text(t) && text)
		fputs(text, stdout);
}

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *value)
{
	if (want_json(t))
		add(key, value ? json_object_new_string(value) : NULL);
	else if (want_text(t) && fmt)
		printf(fmt, value);
}

/* The typed print_*(), as iproute2's _PRINT_FUNC: JSON value or text. */
#define PRINT_FUNC(name, type, json_new)					\
	void print_##name(enum output_type t, const char *key, const char *fmt, \
			  type value)						\
	{									\
		if (want_json(t))						\
			add(key, json_new(value));				\
		else if (want_text(t) && fmt)					\
			printf(fmt, value);					\
	}

PRINT_FUNC(uint, unsigned int, json_object_new_int64)
PRINT_FUNC(int, int, json_object_new_int)
PRINT_FUNC(u64, uint64_t, json_object_new_uint64)

void print_bool(enum output_type t, const char *key, const char *fmt, int value)
{
	if (want_json(t))
		add(key, json_object_new_boolean(value));
	else if (want_text(t) && fmt)
		printf(fmt, value ? "true" : "false");
}

void print_null(enum output_type t, const char *key, const char *fmt,
		const char *value)
{
	if (want_json(t))
		add(key, NULL);
	else if (want_text(t) && fmt)
		printf(fmt, value);
}

void print_text(const char *fmt, ...)
{
	va_list ap;

	if (!want_text(PRINT_FP))
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void print_nl(void)
{
	if (want_text(PRINT_FP))
		putchar('\n');
}

void print_or_null(const char *key, const char *fmt, const char *value,
		   const char *none)
{
	if (value)
		print_string(PRINT_ANY, key, fmt, value);
	else
		print_null(PRINT_ANY, key, fmt, none);
}
