// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl report --check (SPEC REQ-REP-2): every item a procedure's standard
 * requires in its report is present and not null.  The items live in the
 * result schema (Documentation/result.schema.json, root "allOf"), where
 * tools/validate-results checks their presence with a full JSON Schema
 * validator; this walks the same entries for the one thing JSON Schema
 * cannot say: a null is an answer only where its entry says why (a
 * "result" other than "ok", an instance "state" other than "done", or a
 * "KEY_why" beside it).  A failed job's result ("error") is partial by
 * its own word: incomplete, whatever it holds.  It reads a subset of
 * the keywords: properties, additionalProperties (an object schema for
 * every member properties does not name), required, items, allOf, $ref
 * to "#/$defs/...",
 * $comment (the reference printed for a missing item), and if/then where
 * the "if" asks only required members and string consts.  One keyword is
 * its own: "x-not-applicable", a list of {item, ref, why} a standard asks
 * for that cannot apply to what bmgen tests (RFC 2544 §22's frames per
 * token on Ethernet): listed as N/A, never missing.
 */
#include <string.h>

#include "compliance.h"

struct walk {
	json_object *root;		/* the schema, for $ref */
	const char *name;		/* the document, for the lines */
	FILE *out;
	json_object *missing;		/* or NULL: see compliance_check() */
	json_object *na;		/* the same, of items not applicable */
	struct compliance *c;
	char path[512];
};

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (o && json_object_is_type(o, json_type_object))
		json_object_object_get_ex(o, key, &v);
	return v;
}

static bool has(json_object *o, const char *key)
{
	return o && json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, key, NULL);
}

/* S with its "$ref" to "#/$defs/NAME" followed (a few levels at most). */
static json_object *resolve(json_object *root, json_object *s)
{
	int depth;

	for (depth = 0; depth < 8; depth++) {
		json_object *r = member(s, "$ref");
		const char *p = r ? json_object_get_string(r) : NULL;

		if (!p || strncmp(p, "#/$defs/", 8))
			return s;
		s = member(member(root, "$defs"), p + 8);
	}
	return s;
}

static const char *comment(json_object *s, const char *inherited)
{
	json_object *c = member(s, "$comment");

	return c && json_object_is_type(c, json_type_string) ?
	       json_object_get_string(c) : inherited;
}

/* An entry that states why it has no values: its "result" is not "ok",
 * or its "state" (a concurrent instance's) is not "done". */
static bool says_why(json_object *v)
{
	json_object *r = member(v, "result"), *st = member(v, "state");

	return (r && json_object_is_type(r, json_type_string) &&
		strcmp(json_object_get_string(r), "ok")) ||
	       (st && json_object_is_type(st, json_type_string) &&
		strcmp(json_object_get_string(st), "done"));
}

/* Does v say why its member key is null, in a "KEY_why" string? */
static bool says_why_of(json_object *v, const char *key)
{
	char why[128];
	json_object *w;

	if (snprintf(why, sizeof(why), "%s_why", key) >= (int)sizeof(why))
		return false;
	w = member(v, why);
	return w && json_object_is_type(w, json_type_string) &&
	       *json_object_get_string(w);
}

static void miss(struct walk *w, const char *key, const char *what,
		 const char *ref)
{
	char item[1024];

	w->c->missing++;
	if (!w->out && !w->missing)
		return;
	snprintf(item, sizeof(item), "%s%s%s%s%s%s", w->path,
		 *w->path ? "." : "", key, what, ref ? " — " : "",
		 ref ? ref : "");
	if (w->out)
		fprintf(w->out, "%s: MISSING %s\n", w->name, item);
	if (w->missing)
		json_object_array_add(w->missing, json_object_new_string(item));
}

/* The items s lists as not applicable, once each per check. */
static void not_applicable(struct walk *w, json_object *s)
{
	json_object *l = member(s, "x-not-applicable");
	char item[1024];
	size_t i, n;

	if (!l || !json_object_is_type(l, json_type_array))
		return;
	for (i = 0, n = json_object_array_length(l); i < n; i++) {
		json_object *e = json_object_array_get_idx(l, i);

		w->c->not_applicable++;
		snprintf(item, sizeof(item), "%s — %s: %s",
			 json_object_get_string(member(e, "item")),
			 json_object_get_string(member(e, "ref")),
			 json_object_get_string(member(e, "why")));
		if (w->out)
			fprintf(w->out, "%s: N/A %s\n", w->name, item);
		if (w->na)
			json_object_array_add(w->na,
					      json_object_new_string(item));
	}
}

static void walk(struct walk *w, json_object *s, json_object *v,
		 const char *ref, bool excused);

static void walk_member(struct walk *w, const char *fmt, const char *key,
			size_t idx, json_object *s, json_object *v,
			const char *ref, bool excused)
{
	size_t len = strlen(w->path);

	if (key)
		snprintf(w->path + len, sizeof(w->path) - len, fmt, key);
	else
		snprintf(w->path + len, sizeof(w->path) - len, fmt, idx);
	walk(w, s, v, ref, excused);
	w->path[len] = '\0';
}

static void walk_required(struct walk *w, json_object *s, json_object *v,
			  const char *ref, bool excused)
{
	json_object *req = member(s, "required"), *props = member(s, "properties");
	size_t i, n;

	if (!req || !json_object_is_type(req, json_type_array))
		return;
	n = json_object_array_length(req);
	for (i = 0; i < n; i++) {
		const char *key = json_object_get_string(
			json_object_array_get_idx(req, i));
		const char *r;

		if (!key)
			continue;
		r = comment(resolve(w->root, member(props, key)), ref);
		w->c->items++;
		if (!has(v, key))
			miss(w, key, "", r);
		else if (member(v, key))
			continue;
		else if (excused || says_why_of(v, key))
			w->c->excused++;
		else
			miss(w, key, " (null, and nothing says why)", r);
	}
}

/*
 * Does v meet cond, an "if" of the subset: its "required" members all
 * present, and each of its "properties" that v has meeting its own
 * (a "const" string, or nested required and properties)?
 */
static bool meets(json_object *cond, json_object *v, int depth)
{
	json_object *req = member(cond, "required"), *props, *k;
	size_t i, n;

	if (depth > 8)
		return false;
	if (req && json_object_is_type(req, json_type_array))
		for (i = 0, n = json_object_array_length(req); i < n; i++)
			if (!has(v, json_object_get_string(
					json_object_array_get_idx(req, i))))
				return false;
	k = member(cond, "const");
	if (k && !(json_object_is_type(k, json_type_string) &&
		   json_object_is_type(v, json_type_string) &&
		   !strcmp(json_object_get_string(k),
			   json_object_get_string(v))))
		return false;
	props = member(cond, "properties");
	if (props && json_object_is_type(props, json_type_object)) {
		json_object_object_foreach(props, key, sub) {
			json_object *mv = member(v, key);

			if (mv && !meets(sub, mv, depth + 1))
				return false;
		}
	}
	return true;
}

static void walk(struct walk *w, json_object *s, json_object *v,
		 const char *ref, bool excused)
{
	json_object *all, *props, *items, *more;
	size_t i, n;

	s = resolve(w->root, s);
	if (!s)
		return;
	ref = comment(s, ref);
	not_applicable(w, s);
	/* an item only some results must carry (a module run's frames) */
	if (member(s, "if") && member(s, "then") &&
	    meets(member(s, "if"), v, 0))
		walk(w, member(s, "then"), v, ref, excused);
	all = member(s, "allOf");
	if (all && json_object_is_type(all, json_type_array))
		for (i = 0, n = json_object_array_length(all); i < n; i++)
			walk(w, json_object_array_get_idx(all, i), v, ref,
			     excused);
	if (json_object_is_type(v, json_type_object)) {
		excused = excused || says_why(v);
		walk_required(w, s, v, ref, excused);
		props = member(s, "properties");
		if (props && json_object_is_type(props, json_type_object)) {
			json_object_object_foreach(props, k, sub) {
				json_object *mv = member(v, k);

				if (mv)
					walk_member(w, *w->path ? ".%s" : "%s",
						    k, 0, sub, mv, ref,
						    excused);
			}
		}
		/* the members no "properties" names (a TM run's apps,
		 * keyed by application) */
		more = member(s, "additionalProperties");
		if (more && json_object_is_type(more, json_type_object)) {
			json_object_object_foreach(v, k, mv) {
				if (has(props, k) || !mv)
					continue;
				walk_member(w, *w->path ? ".%s" : "%s", k, 0,
					    more, mv, ref, excused);
			}
		}
	} else if (json_object_is_type(v, json_type_array)) {
		items = member(s, "items");
		if (items)
			for (i = 0, n = json_object_array_length(v); i < n; i++)
				walk_member(w, "[%zu]", NULL, i, items,
					    json_object_array_get_idx(v, i),
					    ref, excused);
	}
}

/* Does the "if" of an allOf entry pick procedure ID? */
static bool picks(json_object *cond, const char *id)
{
	json_object *p = member(member(member(member(cond, "properties"),
		"procedure"), "properties"), "id");
	json_object *k = member(p, "const"), *e = member(p, "enum");
	size_t i, n;

	if (k && json_object_is_type(k, json_type_string))
		return !strcmp(json_object_get_string(k), id);
	if (!e || !json_object_is_type(e, json_type_array))
		return false;
	for (i = 0, n = json_object_array_length(e); i < n; i++) {
		const char *s = json_object_get_string(
			json_object_array_get_idx(e, i));

		if (s && !strcmp(s, id))
			return true;
	}
	return false;
}

json_object *compliance_items(json_object *schema, const char *id)
{
	json_object *all = member(schema, "allOf");
	size_t i, n;

	if (!id || !all || !json_object_is_type(all, json_type_array))
		return NULL;
	for (i = 0, n = json_object_array_length(all); i < n; i++) {
		json_object *e = json_object_array_get_idx(all, i);

		if (picks(member(e, "if"), id))
			return member(e, "then");
	}
	return NULL;
}

void compliance_check(json_object *schema, json_object *doc,
		      const char *name, FILE *out, json_object *missing,
		      json_object *na, struct compliance *c)
{
	struct walk w = { schema, name, out, missing, na, c, "" };
	json_object *id = member(member(doc, "procedure"), "id");
	json_object *items;

	memset(c, 0, sizeof(*c));
	items = compliance_items(schema, id ? json_object_get_string(id) :
				 NULL);
	if (!items)
		return;
	c->known = true;
	c->error = member(doc, "error") ?
		   json_object_get_string(member(doc, "error")) : NULL;
	if (c->error) {		/* one line says it all: the job failed */
		w.out = NULL;
		w.missing = NULL;
		w.na = NULL;
	}
	walk(&w, items, doc, NULL, false);
}
