// SPDX-License-Identifier: GPL-2.0
/*
 * JSON exactly as RFC 8259 has it, for text that crosses a trust boundary
 * (bmd's requests).  json-c, even with JSON_TOKENER_STRICT, takes single
 * quotes, NaN and Infinity, "1." and raw control characters in strings,
 * and keeps the last of two members of one name without a word: a
 * request that means one thing to one reader and another to the next.  So
 * the text is first checked against the RFC's grammar here (no value is
 * built), then json-c parses it, and an object that lost a member to a
 * duplicate name shows as fewer members than the text had.
 */
#include <stdbool.h>
#include <string.h>

#include "bm_json.h"

struct scan {
	const char *s;
	size_t len, pos;
	unsigned int depth, max_depth;
	size_t members;		/* name : value pairs seen */
	const char *why;
};

static void ws(struct scan *c)
{
	while (c->pos < c->len && strchr(" \t\n\r", c->s[c->pos]) &&
	       c->s[c->pos])
		c->pos++;
}

static int fail(struct scan *c, const char *why)
{
	c->why = why;
	return -1;
}

/* The RFC's reason for a character no value may start with. */
static const char *bad_start(char ch)
{
	switch (ch) {
	case '\'':
		return "a single quote (JSON strings take \")";
	case '/':
	case '#':
		return "a comment (JSON has none)";
	case 'N':
	case 'I':
	case '+':
		return "NaN, Infinity and + are not JSON numbers";
	default:
		return "unexpected character";
	}
}

static bool hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
	       (ch >= 'A' && ch <= 'F');
}

/* RFC 8259 §7: '"', unescaped chars >= 0x20 but '"' and '\\', escapes. */
static int string(struct scan *c)
{
	unsigned char ch;

	c->pos++;	/* the opening quote */
	while (c->pos < c->len) {
		ch = (unsigned char)c->s[c->pos++];
		if (ch == '"')
			return 0;
		if (ch < 0x20) {
			c->pos--;
			return fail(c, "a control character in a string (escape it)");
		}
		if (ch != '\\')
			continue;
		if (c->pos >= c->len)
			break;
		ch = (unsigned char)c->s[c->pos++];
		if (ch == 'u') {
			if (c->pos + 4 > c->len || !hex(c->s[c->pos]) ||
			    !hex(c->s[c->pos + 1]) || !hex(c->s[c->pos + 2]) ||
			    !hex(c->s[c->pos + 3])) {
				c->pos -= 2;
				return fail(c, "a bad \\u escape");
			}
			c->pos += 4;
		} else if (!strchr("\"\\/bfnrt", ch) || !ch) {
			c->pos -= 2;
			return fail(c, "a bad escape in a string");
		}
	}
	return fail(c, "a string without its closing quote");
}

static bool digit(const struct scan *c)
{
	return c->pos < c->len && c->s[c->pos] >= '0' && c->s[c->pos] <= '9';
}

/* Is the integer of n digits at d (negative: after a '-') outside int64?
 * json-c would give the nearest int64 (or uint64) without a word. */
static bool beyond_int64(const char *d, size_t n, bool negative)
{
	const char *lim = negative ? "9223372036854775808" :
				     "9223372036854775807";

	return n > 19 || (n == 19 && memcmp(d, lim, 19) > 0);
}

/* RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int number(struct scan *c)
{
	bool negative = c->s[c->pos] == '-';
	size_t start = c->pos, int_at;

	if (negative)
		c->pos++;
	int_at = c->pos;
	if (!digit(c))
		return fail(c, "a number without digits");
	if (c->s[c->pos] == '0') {
		c->pos++;
		if (digit(c))
			return fail(c, "a number with a leading zero");
	} else {
		while (digit(c))
			c->pos++;
	}
	if ((c->pos >= c->len || !strchr(".eE", c->s[c->pos]) ||
	     !c->s[c->pos]) &&
	    beyond_int64(c->s + int_at, c->pos - int_at, negative)) {
		c->pos = start;
		return fail(c, "an integer beyond 64 bits");
	}
	if (c->pos < c->len && c->s[c->pos] == '.') {
		c->pos++;
		if (!digit(c))
			return fail(c, "a number without digits after '.'");
		while (digit(c))
			c->pos++;
	}
	if (c->pos < c->len && (c->s[c->pos] == 'e' || c->s[c->pos] == 'E')) {
		c->pos++;
		if (c->pos < c->len &&
		    (c->s[c->pos] == '+' || c->s[c->pos] == '-'))
			c->pos++;
		if (!digit(c))
			return fail(c, "a number without digits in its exponent");
		while (digit(c))
			c->pos++;
	}
	return 0;
}

static int literal(struct scan *c, const char *word)
{
	size_t n = strlen(word);

	if (c->len - c->pos < n || memcmp(c->s + c->pos, word, n))
		return fail(c, bad_start(c->s[c->pos]));
	c->pos += n;
	return 0;
}

static int value(struct scan *c);

/* An object or an array, at c->s[c->pos]; close is '}' or ']'. */
static int members(struct scan *c, char close)
{
	if (++c->depth > c->max_depth)
		return fail(c, "nested too deep");
	c->pos++;
	ws(c);
	if (c->pos < c->len && c->s[c->pos] == close) {
		c->pos++;
		c->depth--;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			if (c->pos >= c->len || c->s[c->pos] != '"')
				return fail(c, c->pos < c->len &&
					    c->s[c->pos] == '\'' ?
					    bad_start('\'') :
					    "an object's name must be a string");
			if (string(c))
				return -1;
			ws(c);
			if (c->pos >= c->len || c->s[c->pos] != ':')
				return fail(c, "':' expected after a name");
			c->pos++;
			c->members++;
		}
		if (value(c))
			return -1;
		ws(c);
		if (c->pos >= c->len)
			return fail(c, "the text ends inside a value");
		if (c->s[c->pos] == close) {
			c->pos++;
			c->depth--;
			return 0;
		}
		if (c->s[c->pos] == '/' || c->s[c->pos] == '#')
			return fail(c, bad_start('/'));
		if (c->s[c->pos] != ',')
			return fail(c, close == '}' ? "',' or '}' expected" :
					"',' or ']' expected");
		c->pos++;
		ws(c);
		if (c->pos < c->len && c->s[c->pos] == close)
			return fail(c, "a comma before the end (JSON has no trailing comma)");
	}
}

static int value(struct scan *c)
{
	char ch;

	ws(c);
	if (c->pos >= c->len)
		return fail(c, "a value expected");
	ch = c->s[c->pos];
	switch (ch) {
	case '{':
		return members(c, '}');
	case '[':
		return members(c, ']');
	case '"':
		return string(c);
	case 't':
		return literal(c, "true");
	case 'f':
		return literal(c, "false");
	case 'n':
		return literal(c, "null");
	default:
		if (ch == '-' || (ch >= '0' && ch <= '9'))
			return number(c);
		return fail(c, bad_start(ch));
	}
}

/* The members of every object in o, nested ones included. */
static size_t count_members(json_object *o)
{
	size_t n = 0, i;

	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, v) {
			(void)key;
			n += 1 + count_members(v);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (i = 0; i < json_object_array_length(o); i++)
			n += count_members(json_object_array_get_idx(o, i));
	}
	return n;
}

json_object *bm_json_parse_strict(const char *text, size_t len,
				  unsigned int max_depth, const char **why,
				  size_t *at)
{
	struct scan c = { .s = text, .len = len, .max_depth = max_depth };
	struct json_tokener *tok;
	json_object *o;

	*why = NULL;
	*at = 0;
	if (memchr(text, '\0', len)) {
		*why = "a NUL byte";
		*at = (const char *)memchr(text, '\0', len) - text;
		return NULL;
	}
	if (value(&c) == 0) {
		ws(&c);
		if (c.pos < c.len)
			fail(&c, "trailing data after the value");
	}
	if (c.why) {
		*why = c.why;
		*at = c.pos;
		return NULL;
	}
	tok = json_tokener_new_ex((int)max_depth + 1);
	if (!tok) {
		*why = "out of memory";
		return NULL;
	}
	o = json_tokener_parse_ex(tok, text, (int)len);
	/* a number or literal at the very end waits for more: a NUL ends
	 * the text for json-c */
	if (!o && json_tokener_get_error(tok) == json_tokener_continue)
		o = json_tokener_parse_ex(tok, "", 1);
	/* the grammar held, so only memory can fail here ("null" is a
	 * value json-c gives as NULL) */
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_tokener_free(tok);
		json_object_put(o);
		*why = "out of memory";
		return NULL;
	}
	json_tokener_free(tok);
	if (count_members(o) != c.members) {
		json_object_put(o);
		*why = "a name given twice in one object";
		return NULL;
	}
	return o;
}
