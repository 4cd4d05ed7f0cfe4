// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl run --param @FILE: a profile, the parameters of a run kept in a
 * file.  JSON always; YAML when bmctl is built with libyaml (BM_HAVE_YAML),
 * because people write profiles by hand and YAML takes comments.  bmd sees
 * only JSON either way, and judges every value itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef BM_HAVE_YAML
#include <yaml.h>
#endif

#include "bmctl.h"


char *file_read(const char *path, size_t max, size_t *len, char *why,
		size_t size)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f) {
		snprintf(why, size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		snprintf(why, size, "%s: out of memory", path);
		return NULL;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f) || n > max) {
		snprintf(why, size, "%s: %s", path, ferror(f) ?
			 strerror(errno ? errno : EIO) : "too large");
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* What went wrong at text[at], the character the tokener refused, in a
 * user's words rather than json-c's. */
static const char *json_why(enum json_tokener_error e, const char *text,
			    size_t at, size_t len)
{
	size_t j = at;

	if (e == json_tokener_error_parse_eof)
		return "it ends early (a bracket, brace or quote left open)";
	if (e == json_tokener_error_depth)
		return "nested too deep";
	if (e == json_tokener_error_parse_utf8_string)
		return "not UTF-8";
	if (at < len && (text[at] == ']' || text[at] == '}')) {
		while (j > 0 && strchr(" \t\r\n", text[j - 1]))
			j--;
		if (j > 0 && text[j - 1] == ',')
			return "a comma before a closing bracket or brace";
	}
	if (at < len && text[at] == '\'')
		return "strings take double quotes";
	if (e == json_tokener_error_parse_object_key_name ||
	    e == json_tokener_error_parse_object_key_sep)
		return "a key must be a string in double quotes, then a colon";
	if (e == json_tokener_error_parse_string)
		return "a bad string (double quotes, \\ escapes)";
	return "unexpected text";
}

/* The offset of the first single quote outside a string, or len: json-c's
 * strict mode still takes 'single-quoted' strings, which RFC 8259 does
 * not. */
static size_t single_quote(const char *text, size_t len)
{
	bool in = false;
	size_t i;

	for (i = 0; i < len; i++) {
		if (in && text[i] == '\\')
			i++;
		else if (text[i] == '"')
			in = !in;
		else if (!in && text[i] == '\'')
			return i;
	}
	return len;
}

json_object *json_parse_strict(const char *name, const char *text,
			       size_t len, char *why, size_t size)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	json_object *o;
	size_t end, line = 1, col = 1, i;

	if (!tok) {
		snprintf(why, size, "%s: out of memory", name);
		return NULL;
	}
	/* strict: no trailing commas, no bare words; what follows the value
	 * is looked at below, to say so */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
			       JSON_TOKENER_ALLOW_TRAILING_CHARS |
			       JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o && jerr == json_tokener_continue)
		jerr = json_tokener_error_parse_eof;
	i = single_quote(text, len);
	if (i < len && (jerr != json_tokener_success || i < end)) {
		json_object_put(o);
		o = NULL;
		end = i;
		jerr = json_tokener_error_parse_unexpected;
	}
	if (o && jerr == json_tokener_success) {
		for (i = end; i < len; i++) {
			if (!strchr(" \t\r\n", text[i])) {
				end = i;
				jerr = json_tokener_error_parse_unexpected;
				break;
			}
		}
	}
	if (jerr != json_tokener_success) {
		for (i = 0; i < end && i < len; i++) {
			col = text[i] == '\n' ? 1 : col + 1;
			line += text[i] == '\n';
		}
		if (o)
			snprintf(why, size, "%s: line %zu, column %zu: text after "
				 "the JSON value", name, line, col);
		else
			snprintf(why, size, "%s: line %zu, column %zu: not JSON: "
				 "%s", name, line, col,
				 json_why(jerr, text, end, len));
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_object *json_read_strict(const char *path, char *why, size_t size)
{
	json_object *o = NULL;
	struct stat st;
	size_t len;
	char *text;

	/* a result holds every trial: as large as the file is */
	if (stat(path, &st)) {
		snprintf(why, size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	text = file_read(path, (size_t)st.st_size + 1, &len, why, size);
	if (text) {
		o = json_parse_strict(path, text, len, why, size);
		free(text);
	}
	return o;
}

#ifdef BM_HAVE_YAML
/* Deeper than any parameter needs; stops alias loops too. */
#define YAML_MAX_DEPTH	16
/* More values than any profile has.  An alias is its anchor's node once
 * more, so each level of a few hundred bytes of aliases to aliases
 * multiplies the values the JSON gets: 15 levels of ten make 1e15. */
#define YAML_MAX_VALUES	100000

/* A plain scalar is what it reads as in JSON (60, 0.5, true, null), as
 * --param KEY=VALUE takes it; anything else, and every quoted scalar, is a
 * string. */
static json_object *yaml_scalar(const yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;
	struct json_tokener *tok;
	json_object *v;

	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return json_object_new_string_len(s, (int)len);
	if (!len || !strcmp(s, "~") || !strcmp(s, "null"))
		return NULL;
	tok = json_tokener_new();
	/* -1: s is NUL-terminated, so a number at its end is complete */
	v = tok ? json_tokener_parse_ex(tok, s, -1) : NULL;
	if (v && (json_tokener_get_error(tok) != json_tokener_success ||
		  json_tokener_get_parse_end(tok) != len ||
		  json_object_is_type(v, json_type_object) ||
		  json_object_is_type(v, json_type_array) ||
		  json_object_is_type(v, json_type_string))) {
		json_object_put(v);
		v = NULL;
	}
	if (tok)
		json_tokener_free(tok);
	return v ? v : json_object_new_string_len(s, (int)len);
}

/* n as JSON into *out; *count: the values made so far.  0, or -1 with
 * the reason in why. */
static int yaml_node(yaml_document_t *doc, yaml_node_t *n, int depth,
		     size_t *count, json_object **out, const char *path,
		     char *why, size_t size)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *pr;
	json_object *o, *v;

	*out = NULL;
	if (depth > YAML_MAX_DEPTH) {
		snprintf(why, size, "%s: line %zu: nested too deeply", path,
			 n->start_mark.line + 1);
		return -1;
	}
	if (++*count > YAML_MAX_VALUES) {
		snprintf(why, size, "%s: line %zu: more than %d values "
			 "(aliases?)", path, n->start_mark.line + 1,
			 YAML_MAX_VALUES);
		return -1;
	}
	switch (n->type) {
	case YAML_SCALAR_NODE:
		*out = yaml_scalar(n);
		return 0;
	case YAML_SEQUENCE_NODE:
		o = json_object_new_array();
		for (it = n->data.sequence.items.start;
		     it < n->data.sequence.items.top; it++) {
			if (yaml_node(doc, yaml_document_get_node(doc, *it),
				      depth + 1, count, &v, path, why, size)) {
				json_object_put(o);
				return -1;
			}
			json_object_array_add(o, v);
		}
		*out = o;
		return 0;
	case YAML_MAPPING_NODE:
		o = json_object_new_object();
		for (pr = n->data.mapping.pairs.start;
		     pr < n->data.mapping.pairs.top; pr++) {
			yaml_node_t *k = yaml_document_get_node(doc, pr->key);

			if (k->type != YAML_SCALAR_NODE) {
				snprintf(why, size, "%s: line %zu: a key must "
					 "be a plain name", path,
					 k->start_mark.line + 1);
				json_object_put(o);
				return -1;
			}
			if (yaml_node(doc, yaml_document_get_node(doc,
				      pr->value), depth + 1, count, &v, path,
				      why, size)) {
				json_object_put(o);
				return -1;
			}
			json_object_object_add(o, (const char *)
					       k->data.scalar.value, v);
		}
		*out = o;
		return 0;
	default:
		break;
	}
	snprintf(why, size, "%s: line %zu: empty node", path,
		 n->start_mark.line + 1);
	return -1;
}

static json_object *parse_yaml(const char *path, const char *text,
			       size_t len, char *why, size_t size)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	json_object *o = NULL;
	size_t count = 0;

	if (!yaml_parser_initialize(&parser)) {
		snprintf(why, size, "%s: out of memory", path);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     len);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(why, size, "%s: line %zu: not YAML (%s)", path,
			 parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "parse error");
		yaml_parser_delete(&parser);
		return NULL;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root)
		snprintf(why, size, "%s: empty", path);
	else if (yaml_node(&doc, root, 0, &count, &o, path, why, size))
		o = NULL;
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return o;
}
#endif /* BM_HAVE_YAML */

static bool is_yaml(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml"));
}

json_object *profile_read(const char *path, char *why, size_t size)
{
	json_object *o;
	size_t len;
	char *text;

#ifndef BM_HAVE_YAML
	if (is_yaml(path)) {
		snprintf(why, size, "%s: YAML profiles need a bmctl built with "
			 "libyaml; give the parameters as JSON", path);
		return NULL;
	}
#endif
	text = file_read(path, PROFILE_MAX_BYTES, &len, why, size);
	if (!text)
		return NULL;
	/* A parser fails with a reason; NULL without one is a document
	 * that is null ("null", "~", an empty YAML document). */
	why[0] = '\0';
#ifdef BM_HAVE_YAML
	if (is_yaml(path))
		o = parse_yaml(path, text, len, why, size);
	else
#endif
		o = json_parse_strict(path, text, len, why, size);
	free(text);
	if (!o && why[0])
		return NULL;
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(why, size, "%s: expected an object of parameters "
			 "(KEY: VALUE)", path);
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* A value of --param: JSON when all of it parses as JSON, else a string,
 * so that "search=mlr", "frame_sizes=[64,128]" and "cbs=64KB" all do what
 * they say (json_tokener_parse alone reads "64KB" as 64 and drops the
 * rest). */
json_object *profile_param_value(const char *s)
{
	struct json_tokener *tok = json_tokener_new();
	size_t len = strlen(s);
	json_object *v = NULL;

	if (tok) {
		/* with its NUL, so that a bare number ends there */
		v = json_tokener_parse_ex(tok, s, (int)len + 1);
		if (json_tokener_get_error(tok) != json_tokener_success ||
		    json_tokener_get_parse_end(tok) < len) {
			json_object_put(v);
			v = NULL;
		}
		json_tokener_free(tok);
	}
	if (v || !strcmp(s, "null"))
		return v;
	return json_object_new_string(s);
}
