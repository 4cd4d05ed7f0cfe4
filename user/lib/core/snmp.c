// SPDX-License-Identifier: GPL-2.0
/*
 * SNMPv1 GetRequest and GetResponse in BER (RFC 1157, X.690's definite
 * lengths), what RFC 2544 §11.2 needs: bm_snmp.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bm_snmp.h"

void bm_snmp_c243_oids(uint32_t ifindex,
		       struct bm_snmp_oid oids[BM_SNMP_C243_VARS])
{
	/* 1.3.6.1.2.1.1.3.0 and 1.3.6.1.2.1.2.2.1.{10,16,11,17}.ifindex */
	static const uint32_t mib2[] = { 1, 3, 6, 1, 2, 1 };
	static const uint32_t col[] = { 10, 16, 11, 17 };
	unsigned int k;

	memset(oids, 0, sizeof(*oids) * BM_SNMP_C243_VARS);
	for (k = 0; k < BM_SNMP_C243_VARS; k++) {
		memcpy(oids[k].sub, mib2, sizeof(mib2));
		oids[k].n = 6;
	}
	oids[0].sub[oids[0].n++] = 1;
	oids[0].sub[oids[0].n++] = 3;
	oids[0].sub[oids[0].n++] = 0;
	for (k = 1; k < BM_SNMP_C243_VARS; k++) {
		oids[k].sub[oids[k].n++] = 2;
		oids[k].sub[oids[k].n++] = 2;
		oids[k].sub[oids[k].n++] = 1;
		oids[k].sub[oids[k].n++] = col[k - 1];
		oids[k].sub[oids[k].n++] = ifindex;
	}
}

/* --- encoding: each part into a buffer of its own, inside out -------- */

struct wbuf {
	uint8_t b[BM_SNMP_MAX_MSG];
	size_t n;
	bool bad;
};

static void put(struct wbuf *w, const void *p, size_t n)
{
	if (w->bad || n > sizeof(w->b) - w->n) {
		w->bad = true;
		return;
	}
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

/* A tag and a definite length (short form, or long form 0x81/0x82). */
static void put_head(struct wbuf *w, uint8_t tag, size_t n)
{
	uint8_t h[4] = { tag };

	if (n < 0x80) {
		h[1] = (uint8_t)n;
		put(w, h, 2);
	} else if (n <= 0xff) {
		h[1] = 0x81;
		h[2] = (uint8_t)n;
		put(w, h, 3);
	} else {
		h[1] = 0x82;
		h[2] = (uint8_t)(n >> 8);
		h[3] = (uint8_t)n;
		put(w, h, 4);
	}
}

static void put_tlv(struct wbuf *w, uint8_t tag, const struct wbuf *in)
{
	if (in->bad)
		w->bad = true;
	put_head(w, tag, in->n);
	put(w, in->b, in->n);
}

/* An INTEGER in the fewest two's complement bytes. */
static void put_int(struct wbuf *w, int32_t v)
{
	uint8_t b[4];
	int k;

	b[0] = (uint8_t)((uint32_t)v >> 24);
	b[1] = (uint8_t)((uint32_t)v >> 16);
	b[2] = (uint8_t)((uint32_t)v >> 8);
	b[3] = (uint8_t)v;
	k = 0;
	while (k < 3 && ((b[k] == 0x00 && !(b[k + 1] & 0x80)) ||
			 (b[k] == 0xff && (b[k + 1] & 0x80))))
		k++;
	put_head(w, BM_SNMP_INTEGER, (size_t)(4 - k));
	put(w, b + k, (size_t)(4 - k));
}

/* An OID: the first two arcs in one byte (40 x + y), the rest base 128. */
static void put_oid(struct wbuf *w, const struct bm_snmp_oid *o)
{
	struct wbuf c = { .n = 0 };
	uint8_t b[5];
	unsigned int i;
	int k;

	if (o->n < 2 || o->n > BM_SNMP_MAX_SUBIDS || o->sub[0] > 2 ||
	    o->sub[1] >= 40) {
		w->bad = true;
		return;
	}
	b[0] = (uint8_t)(o->sub[0] * 40 + o->sub[1]);
	put(&c, b, 1);
	for (i = 2; i < o->n; i++) {
		uint32_t v = o->sub[i];

		k = 4;
		b[k] = v & 0x7f;
		while (v >>= 7)
			b[--k] = 0x80 | (v & 0x7f);
		put(&c, b + k, (size_t)(5 - k));
	}
	put_tlv(w, BM_SNMP_OID, &c);
}

size_t bm_snmp_get_request(uint8_t *buf, size_t len, const char *community,
			   int32_t request_id, const struct bm_snmp_oid *oids,
			   unsigned int n)
{
	static struct wbuf zero;
	struct wbuf vb, list = zero, pdu = zero, msg = zero, top = zero;
	static const uint8_t null[2] = { BM_SNMP_NULL, 0 };
	size_t clen = strlen(community);
	unsigned int k;

	for (k = 0; k < n; k++) {
		vb = zero;
		put_oid(&vb, &oids[k]);
		put(&vb, null, 2);
		put_tlv(&list, BM_SNMP_SEQUENCE, &vb);
	}
	put_int(&pdu, request_id);
	put_int(&pdu, 0);		/* error-status */
	put_int(&pdu, 0);		/* error-index */
	put_tlv(&pdu, BM_SNMP_SEQUENCE, &list);
	put_int(&msg, 0);		/* version-1 */
	put_head(&msg, BM_SNMP_OCTETS, clen);
	put(&msg, community, clen);
	put_tlv(&msg, BM_SNMP_GET_REQUEST, &pdu);
	put_tlv(&top, BM_SNMP_SEQUENCE, &msg);
	if (top.bad || top.n > len)
		return 0;
	memcpy(buf, top.b, top.n);
	return top.n;
}

/* --- parsing: a cursor over [p, end), every read bounds-checked ------ */

struct rd {
	const uint8_t *p, *end;
	char *why;
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static int bad(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	if (r->len) {
		va_start(ap, fmt);
		vsnprintf(r->why, r->len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The next TLV of r, which must have tag: its value in *v, r past it. */
static int take(struct rd *r, uint8_t tag, const char *what, struct rd *v)
{
	size_t n, k, lb;

	if (r->end - r->p < 2)
		return bad(r, "%s: truncated", what);
	if (r->p[0] != tag)
		return bad(r, "%s: tag 0x%02x, want 0x%02x", what, r->p[0], tag);
	n = r->p[1];
	r->p += 2;
	if (n & 0x80) {
		lb = n & 0x7f;
		if (lb == 0 || lb > 2)
			return bad(r, "%s: length of %zu bytes", what, lb);
		if ((size_t)(r->end - r->p) < lb)
			return bad(r, "%s: truncated length", what);
		for (n = 0, k = 0; k < lb; k++)
			n = n << 8 | *r->p++;
	}
	if ((size_t)(r->end - r->p) < n)
		return bad(r, "%s: length %zu past the end", what, n);
	*v = *r;
	v->end = r->p + n;
	r->p += n;
	return 0;
}

/* An INTEGER of at most 4 bytes (request-id, error-status, ...). */
static int take_int(struct rd *r, const char *what, int32_t *out)
{
	struct rd v;
	uint32_t u;
	size_t n;
	int ret = take(r, BM_SNMP_INTEGER, what, &v);

	if (ret)
		return ret;
	n = (size_t)(v.end - v.p);
	if (n < 1 || n > 4)
		return bad(r, "%s: an integer of %zu bytes", what, n);
	u = v.p[0] & 0x80 ? UINT32_MAX : 0;
	while (v.p < v.end)
		u = u << 8 | *v.p++;
	*out = (int32_t)u;
	return 0;
}

static int take_oid(struct rd *r, struct bm_snmp_oid *o)
{
	struct rd v;
	uint64_t x;
	int ret = take(r, BM_SNMP_OID, "varbind name", &v);

	if (ret)
		return ret;
	if (v.p == v.end)
		return bad(r, "varbind name: an empty OID");
	if (v.p[0] & 0x80)
		return bad(r, "varbind name: first arcs over one byte");
	o->sub[0] = v.p[0] < 80 ? v.p[0] / 40u : 2;
	o->sub[1] = v.p[0] - 40u * o->sub[0];
	o->n = 2;
	v.p++;
	while (v.p < v.end) {
		x = 0;
		do {
			if (v.p == v.end)
				return bad(r, "varbind name: a truncated "
					   "sub-identifier");
			x = x << 7 | (*v.p & 0x7f);
			if (x > UINT32_MAX)
				return bad(r, "varbind name: a sub-identifier "
					   "over 32 bits");
		} while (*v.p++ & 0x80);
		if (o->n == BM_SNMP_MAX_SUBIDS)
			return bad(r, "varbind name: over %d sub-identifiers",
				   BM_SNMP_MAX_SUBIDS);
		o->sub[o->n++] = (uint32_t)x;
	}
	return 0;
}

/* A varbind's value: any tag; integer-like ones (up to 9 bytes, a
 * Counter64's leading zero) into value. */
static int take_value(struct rd *r, struct bm_snmp_varbind *vb)
{
	struct rd v;
	size_t n;
	int ret;

	if (r->end - r->p < 1)
		return bad(r, "varbind value: missing");
	vb->tag = r->p[0];
	ret = take(r, vb->tag, "varbind value", &v);
	if (ret)
		return ret;
	vb->value = 0;
	n = (size_t)(v.end - v.p);
	if (vb->tag == BM_SNMP_INTEGER || vb->tag == BM_SNMP_COUNTER32 ||
	    vb->tag == BM_SNMP_GAUGE32 || vb->tag == BM_SNMP_TIMETICKS ||
	    vb->tag == BM_SNMP_COUNTER64) {
		if (n < 1 || n > 9 || (n == 9 && v.p[0]))
			return bad(r, "varbind value: an integer of %zu bytes",
				   n);
		while (v.p < v.end)
			vb->value = vb->value << 8 | *v.p++;
	}
	return 0;
}

int bm_snmp_parse_response(const uint8_t *buf, size_t n,
			   struct bm_snmp_response *resp, char *why,
			   size_t len)
{
	struct rd r = { buf, buf + n, why, len }, msg, pdu, list, vb, c;
	size_t cn;
	int ret;

	memset(resp, 0, sizeof(*resp));
	ret = take(&r, BM_SNMP_SEQUENCE, "message", &msg);
	if (!ret)
		ret = take_int(&msg, "version", &resp->version);
	if (!ret)
		ret = take(&msg, BM_SNMP_OCTETS, "community", &c);
	if (ret)
		return ret;
	cn = (size_t)(c.end - c.p);
	if (cn >= sizeof(resp->community))
		return bad(&r, "community: %zu bytes", cn);
	memcpy(resp->community, c.p, cn);
	ret = take(&msg, BM_SNMP_GET_RESPONSE, "GetResponse-PDU", &pdu);
	if (!ret)
		ret = take_int(&pdu, "request-id", &resp->request_id);
	if (!ret)
		ret = take_int(&pdu, "error-status", &resp->error_status);
	if (!ret)
		ret = take_int(&pdu, "error-index", &resp->error_index);
	if (!ret)
		ret = take(&pdu, BM_SNMP_SEQUENCE, "variable-bindings", &list);
	while (!ret && list.p < list.end) {
		if (resp->n_vb == BM_SNMP_MAX_VARBINDS)
			return bad(&r, "over %d varbinds",
				   BM_SNMP_MAX_VARBINDS);
		ret = take(&list, BM_SNMP_SEQUENCE, "varbind", &vb);
		if (!ret)
			ret = take_oid(&vb, &resp->vb[resp->n_vb].oid);
		if (!ret)
			ret = take_value(&vb, &resp->vb[resp->n_vb]);
		if (!ret && vb.p != vb.end)
			ret = bad(&r, "varbind %u: bytes after the value",
				  resp->n_vb);
		resp->n_vb++;
	}
	if (!ret && (pdu.p != pdu.end || msg.p != msg.end || r.p != r.end))
		ret = bad(&r, "bytes after the message");
	return ret;
}

static bool oid_eq(const struct bm_snmp_oid *a, const struct bm_snmp_oid *b)
{
	return a->n == b->n && !memcmp(a->sub, b->sub, a->n * sizeof(a->sub[0]));
}

int bm_snmp_verify(const struct bm_snmp_response *r, const char *community,
		   int32_t request_id, const struct bm_snmp_oid *oids,
		   unsigned int n, char *why, size_t len)
{
	unsigned int k;
	uint8_t t;

	if (r->version != 0)
		return snprintf(why, len, "version %d, want 0 (SNMPv1)",
				r->version), -EINVAL;
	if (strcmp(r->community, community))
		return snprintf(why, len, "community \"%s\", want \"%s\"",
				r->community, community), -EINVAL;
	if (r->request_id != request_id)
		return snprintf(why, len, "request-id %d, want %d",
				r->request_id, request_id), -EINVAL;
	if (r->error_status)
		return snprintf(why, len, "error-status %d (index %d)%s",
				r->error_status, r->error_index,
				r->error_status == 2 ? ": noSuchName, no such "
				"interface?" : ""), -EINVAL;
	if (r->n_vb != n)
		return snprintf(why, len, "%u varbinds, want %u", r->n_vb, n),
		       -EINVAL;
	for (k = 0; k < n; k++) {
		if (!oid_eq(&r->vb[k].oid, &oids[k]))
			return snprintf(why, len, "varbind %u: another OID", k),
			       -EINVAL;
		t = r->vb[k].tag;
		if (k == 0 ? t != BM_SNMP_TIMETICKS :
			     t != BM_SNMP_COUNTER32 && t != BM_SNMP_COUNTER64)
			return snprintf(why, len, "varbind %u: type 0x%02x, "
					"want %s", k, t, k == 0 ? "TimeTicks" :
					"Counter32"), -EINVAL;
	}
	return 0;
}
