// SPDX-License-Identifier: GPL-2.0
/*
 * bmgen-nlcheck: checks that every malformed or out-of-range netlink
 * request is rejected with an extack message and changes nothing, and
 * that an unprivileged caller gets EPERM.
 *
 * It speaks raw generic netlink (libmnl, not libbm), so that it can send
 * what the library never would: wrong types and lengths, out-of-range
 * values, missing attributes, stray flags, truncated messages.  Each case
 * of the table below is one request and the errno it must get; for each
 * the program checks
 *   - the errno,
 *   - an extack message (NETLINK_EXT_ACK) that contains the expected text,
 *     and, where the check concerns one attribute, that NLMSGERR_ATTR_OFFS
 *     points at that attribute of the request,
 *   - that nothing changed: STATUS_GET, the PORT_GET dump and the
 *     STREAM_GET dump are byte for byte the same before and after.
 *
 *   bmgen-nlcheck [NAMES] [--empty]   the rejection table
 *   bmgen-nlcheck [NAMES] --privilege EPERM for every change, reads work
 *   bmgen-nlcheck --list              the table as Markdown rows
 * NAMES: --tx DEV --rx DEV (attached ports with at least one stream)
 * --spare DEV (an Ethernet device nobody attached) --enslaved DEV (a bridge
 * port) --foreign DEV (a name that exists only in another netns).
 * Prints "ok NAME: errno E: "msg"" or "not ok ..." per case and a summary;
 * exit 0 only if every case passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <net/if.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/bmgen.h>

#define BUFSZ		65536
#define NOATTR		(-1)	/* the extack need not point at an attribute */
/* an attribute's bit in stream_base()'s omit mask; the base puts none
 * past 63, so those have none */
#define M(a)		((a) < 64 ? 1ULL << ((a) % 64) : 0ULL)
#define FREE_ID_BASE	1000	/* ids the checker may use for its own streams */
#define RUN_RATE_UFPS	(100ULL * 1000000)	/* 100 fps */
#define HOUR_NS		(3600ULL * 1000000000ULL)

/* One generic netlink socket and the bmgen family id as seen from it. */
struct nl {
	struct mnl_socket *sk;
	unsigned int portid, seq;
	uint16_t family;
};

/* The kernel's answer to one request. */
struct reply {
	int err;		/* positive errno, 0 = accepted */
	char msg[256];		/* NLMSGERR_ATTR_MSG, "" if none */
	int have_offs;
	uint32_t offs;		/* NLMSGERR_ATTR_OFFS */
};

/* A growing text buffer: the canonical form of a snapshot. */
struct text {
	char *s;
	size_t len, cap;
};

/* What the cases refer to. */
struct ctx {
	uint32_t tx, rx, spare, enslaved, lo;	/* ifindexes */
	const char *tx_name, *spare_name, *foreign_name;
	uint32_t sid;		/* an existing stream */
	uint32_t free_id;	/* an unused stream id */
	uint32_t run_id;	/* the continuous stream of the running phase */
	/* for the sequences: one stream to add, a trial's start delay */
	struct sspec {
		uint32_t id, tx, rx, size, pattern, burst_len, burst_count;
		uint64_t rate, count, burst_gap, start;
	} sp;
	uint64_t delay;
	const char *peer_ns;	/* a netns with veths p1, p2 (--peer) */
};

enum phase {
	P_IDLE,		/* ports and streams exist, no trial running */
	P_RUNNING,	/* a trial runs */
	P_FOREIGN,	/* as P_IDLE, the request comes from a fresh netns */
	P_RUNNING_FOREIGN, /* as P_RUNNING, from a fresh netns */
	P_EMPTY,	/* no ports, no streams */
};

static const char *const phase_name[] = {
	[P_IDLE] = "idle", [P_RUNNING] = "running",
	[P_FOREIGN] = "other netns", [P_RUNNING_FOREIGN] = "running, other netns",
	[P_EMPTY] = "empty module",
};

#define F_NOVER	0x1	/* the builder writes (or omits) BMGEN_A_VERSION */
#define F_DUMP	0x2	/* sent with NLM_F_DUMP (the builder may change flags) */

typedef void (*build_fn)(struct nlmsghdr *nlh, const struct ctx *c);

struct ncase {
	const char *name;
	enum phase phase;
	uint8_t cmd;
	unsigned int flags;
	build_fn build;
	int err;		/* expected errno */
	const char *msg;	/* expected extack text (substring); NULL: none needed */
	int attr;		/* attribute NLMSGERR_ATTR_OFFS must name, or NOATTR */
};

static char reqbuf[BUFSZ] __attribute__((aligned(8)));
static char rxbuf[BUFSZ] __attribute__((aligned(8)));
/* Passed and failed checks and cases run, shared with the unprivileged
 * children (MAP_SHARED). */
static int *counts;
#define n_ok		(counts[0])
#define n_fail		(counts[1])
#define n_cases		(counts[2])

static void text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL,
			      t->s ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			abort();
		if (t->s && t->len + n < t->cap) {
			t->len += n;
			return;
		}
		t->cap = (t->cap + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			abort();
	}
}

static void text_reset(struct text *t)
{
	t->len = 0;
	if (t->s)
		t->s[0] = '\0';
}

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0 (accepted)";
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EPERM: return "EPERM";
	case EMSGSIZE: return "EMSGSIZE";
	case ENETDOWN: return "ENETDOWN";
	case ENODATA: return "ENODATA";
	case ENOSPC: return "ENOSPC";
	default: {
		static char b[16];

		snprintf(b, sizeof(b), "errno %d", e);
		return b;
	}
	}
}

/* --- netlink ---------------------------------------------------------------- */

/* Start a request for cmd on socket n at buf; with VERSION unless !ver. */
static struct nlmsghdr *msg_start_at(void *buf, struct nl *n, uint16_t type,
				     uint8_t cmd, uint16_t flags, int ver)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *gh;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++n->seq;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = BMGEN_GENL_VERSION;
	if (ver)
		mnl_attr_put_u32(nlh, BMGEN_A_VERSION, BMGEN_GENL_VERSION);
	return nlh;
}

/* The same in reqbuf. */
static struct nlmsghdr *msg_start(struct nl *n, uint16_t type, uint8_t cmd,
				  uint16_t flags, int ver)
{
	return msg_start_at(reqbuf, n, type, cmd, flags, ver);
}

typedef void (*msg_fn)(const struct nlmsghdr *nlh, void *data);

/* NLMSG_ERROR / NLMSG_DONE: errno, extack message and offset. */
static void parse_ack(const struct nlmsghdr *h, struct reply *r)
{
	const struct nlattr *a;
	unsigned int off;

	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

		r->err = -e->error;
		off = sizeof(*e);
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - sizeof(e->msg);
	} else {
		r->err = -*(const int *)mnl_nlmsg_get_payload(h);
		off = sizeof(int);
	}
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	mnl_attr_for_each(a, h, off) {
		switch (mnl_attr_get_type(a)) {
		case NLMSGERR_ATTR_MSG:
			snprintf(r->msg, sizeof(r->msg), "%.*s",
				 (int)mnl_attr_get_payload_len(a),
				 (const char *)mnl_attr_get_payload(a));
			r->msg[strcspn(r->msg, "\n")] = '\0';
			break;
		case NLMSGERR_ATTR_OFFS:
			r->have_offs = 1;
			r->offs = mnl_attr_get_u32(a);
			break;
		}
	}
}

/*
 * Send the request in reqbuf and read until its ACK (do) or DONE (dump);
 * data messages go to fn.  Returns 0 with *r filled, or -errno of the
 * socket itself.
 */
static int nl_talk(struct nl *n, struct nlmsghdr *req, struct reply *r,
		   msg_fn fn, void *data)
{
	unsigned int seq = req->nlmsg_seq;

	memset(r, 0, sizeof(*r));
	if (mnl_socket_sendto(n->sk, req, req->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t len = mnl_socket_recvfrom(n->sk, rxbuf, sizeof(rxbuf));
		const struct nlmsghdr *h = (const struct nlmsghdr *)rxbuf;
		int rem = (int)len;

		if (len < 0)
			return -errno;
		for (; mnl_nlmsg_ok(h, rem); h = mnl_nlmsg_next(h, &rem)) {
			if (h->nlmsg_seq != seq || h->nlmsg_pid != n->portid)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR ||
			    h->nlmsg_type == NLMSG_DONE) {
				parse_ack(h, r);
				return 0;
			}
			if (h->nlmsg_type >= NLMSG_MIN_TYPE && fn)
				fn(h, data);
		}
	}
}

static void family_cb(const struct nlmsghdr *h, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			*(uint16_t *)data = mnl_attr_get_u16(a);
}

static int nl_open(struct nl *n)
{
	struct nlmsghdr *nlh;
	struct reply r;
	int one = 1;

	memset(n, 0, sizeof(*n));
	n->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!n->sk || mnl_socket_bind(n->sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		fprintf(stderr, "bmgen-nlcheck: netlink socket: %s\n",
			strerror(errno));
		return -1;
	}
	if (mnl_socket_setsockopt(n->sk, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    mnl_socket_setsockopt(n->sk, NETLINK_CAP_ACK, &one, sizeof(one))) {
		fprintf(stderr, "bmgen-nlcheck: NETLINK_EXT_ACK: %s\n",
			strerror(errno));
		return -1;
	}
	n->portid = mnl_socket_get_portid(n->sk);
	n->seq = (unsigned int)time(NULL);
	nlh = msg_start(n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_ACK, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, BMGEN_GENL_NAME);
	if (nl_talk(n, nlh, &r, family_cb, &n->family) || r.err || !n->family) {
		fprintf(stderr, "bmgen-nlcheck: family %s: %s\n",
			BMGEN_GENL_NAME, r.err ? strerror(r.err) : "not found");
		return -1;
	}
	return 0;
}

static void nl_close(struct nl *n)
{
	if (n->sk)
		mnl_socket_close(n->sk);
	n->sk = NULL;
}

/* A simple well-formed request; 0 or the positive errno (r->msg). */
static int nl_do(struct nl *n, struct nlmsghdr *nlh, struct reply *r)
{
	int ret = nl_talk(n, nlh, r, NULL, NULL);

	if (ret) {
		r->err = -ret;
		snprintf(r->msg, sizeof(r->msg), "socket: %s", strerror(-ret));
	}
	return r->err;
}

/* --- snapshots ---------------------------------------------------------------- */

/* Canonical text of one message: command, then every attribute in hex. */
static void text_cb(const struct nlmsghdr *h, void *data)
{
	const struct genlmsghdr *gh = mnl_nlmsg_get_payload(h);
	struct text *t = data;
	const struct nlattr *a;

	text_add(t, "  cmd %u:", gh->cmd);
	mnl_attr_for_each(a, h, sizeof(*gh)) {
		const uint8_t *p = mnl_attr_get_payload(a);
		uint16_t i, len = mnl_attr_get_payload_len(a);

		text_add(t, " %u=", mnl_attr_get_type(a));
		for (i = 0; i < len; i++)
			text_add(t, "%02x", p[i]);
	}
	text_add(t, "\n");
}

/* STATUS_GET (unless from 1) + PORT_GET dump + STREAM_GET dump as text. */
static int snapshot_from(struct nl *n, struct text *t, size_t from)
{
	static const struct { uint8_t cmd; uint16_t flags; const char *name; } q[] = {
		{ BMGEN_CMD_STATUS_GET, NLM_F_ACK, "status" },
		{ BMGEN_CMD_PORT_GET, NLM_F_DUMP, "ports" },
		{ BMGEN_CMD_STREAM_GET, NLM_F_DUMP, "streams" },
	};
	struct reply r;
	size_t i;

	text_reset(t);
	for (i = from; i < sizeof(q) / sizeof(q[0]); i++) {
		struct nlmsghdr *nlh = msg_start(n, n->family, q[i].cmd,
						 q[i].flags, 1);

		text_add(t, "%s\n", q[i].name);
		if (nl_talk(n, nlh, &r, text_cb, t) || r.err) {
			fprintf(stderr, "bmgen-nlcheck: snapshot %s: %s %s\n",
				q[i].name, strerror(r.err), r.msg);
			return -1;
		}
	}
	return 0;
}

static int snapshot(struct nl *n, struct text *t)
{
	return snapshot_from(n, t, 0);
}

/* The configuration only: ports and streams, not the trial's state. */
static int snapshot_cfg(struct nl *n, struct text *t)
{
	return snapshot_from(n, t, 1);
}

struct status {
	uint32_t nports, nstreams, state, id;
	int32_t error;
};

static void status_cb(const struct nlmsghdr *h, void *data)
{
	struct status *st = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case BMGEN_A_NPORTS: st->nports = mnl_attr_get_u32(a); break;
		case BMGEN_A_NSTREAMS: st->nstreams = mnl_attr_get_u32(a); break;
		case BMGEN_A_TRIAL_STATE: st->state = mnl_attr_get_u32(a); break;
		case BMGEN_A_TRIAL_ID: st->id = mnl_attr_get_u32(a); break;
		case BMGEN_A_TRIAL_ERROR: st->error = (int32_t)mnl_attr_get_u32(a); break;
		}
	}
}

static int status_get(struct nl *n, struct status *st)
{
	struct reply r;

	memset(st, 0, sizeof(*st));
	return nl_talk(n, msg_start(n, n->family, BMGEN_CMD_STATUS_GET,
				    NLM_F_ACK, 1), &r, status_cb, st) || r.err;
}

/* Attribute a (u32) of every message of a dump, as a set of small ids. */
struct idset {
	int attr;
	unsigned char has[1 << 16];
	unsigned int n;
};

static void idset_cb(const struct nlmsghdr *h, void *data)
{
	struct idset *s = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == s->attr &&
		    mnl_attr_get_u32(a) < sizeof(s->has)) {
			s->has[mnl_attr_get_u32(a)] = 1;
			s->n++;
		}
	}
}

static int dump_ids(struct nl *n, uint8_t cmd, int attr, struct idset *s)
{
	struct reply r;

	memset(s, 0, sizeof(*s));
	s->attr = attr;
	return nl_talk(n, msg_start(n, n->family, cmd, NLM_F_DUMP, 1), &r,
		       idset_cb, s) || r.err;
}

/* --- the request builders ------------------------------------------------------ */

#define BUILD(fn) \
	static void fn(struct nlmsghdr *nlh __attribute__((unused)), \
		       const struct ctx *c __attribute__((unused)))

/*
 * The valid base of every STREAM_ADD case (the control proves the module
 * takes it): a 128-byte IPv4 stream of 1000 frames at 1000 fps, t1 -> t2.
 * Attributes in omit are left out, so that a case can replace them.
 */
static void stream_base(struct nlmsghdr *nlh, const struct ctx *c,
			uint64_t omit)
{
	if (!(omit & M(BMGEN_A_STREAM_ID)))
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->free_id);
	if (!(omit & M(BMGEN_A_STREAM_TX_IFINDEX)))
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_IFINDEX, c->tx);
	if (!(omit & M(BMGEN_A_STREAM_RX_IFINDEX)))
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_RX_IFINDEX, c->rx);
	if (!(omit & M(BMGEN_A_STREAM_FRAME_SIZE)))
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, 128);
	if (!(omit & M(BMGEN_A_STREAM_PATTERN)))
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_PATTERN, BMGEN_PAT_COUNT);
	if (!(omit & M(BMGEN_A_STREAM_COUNT)))
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_COUNT, 1000);
	if (!(omit & M(BMGEN_A_STREAM_RATE_UFPS)))
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_RATE_UFPS, 1000ULL * 1000000);
}

/* The base with one attribute replaced by a value of the given width. */
#define STREAM_PUT(fn, width, attr, val) \
	BUILD(fn) \
	{ \
		stream_base(nlh, c, M(attr)); \
		mnl_attr_put_u##width(nlh, attr, val); \
	}

/* A burst stream: the base without count, then the burst attributes. */
static void burst_base(struct nlmsghdr *nlh, const struct ctx *c)
{
	stream_base(nlh, c, M(BMGEN_A_STREAM_PATTERN) | M(BMGEN_A_STREAM_COUNT));
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_PATTERN, BMGEN_PAT_BURST);
}

BUILD(b_stream_ok) { stream_base(nlh, c, 0); }

/* protocol */
BUILD(b_version_2) { mnl_attr_put_u32(nlh, BMGEN_A_VERSION, 2); stream_base(nlh, c, 0); }
BUILD(b_version_0) { mnl_attr_put_u32(nlh, BMGEN_A_VERSION, 0); }
BUILD(b_version_u16)
{
	mnl_attr_put_u16(nlh, BMGEN_A_VERSION, BMGEN_GENL_VERSION);
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->rx);
}
BUILD(b_version_u64) { mnl_attr_put_u64(nlh, BMGEN_A_VERSION, BMGEN_GENL_VERSION); }
BUILD(b_unknown_attr) { mnl_attr_put_u32(nlh, BMGEN_A_MAX + 1, 1); }
BUILD(b_attr_type_0) { stream_base(nlh, c, 0); mnl_attr_put_u32(nlh, 0, 1); }
BUILD(b_readonly_attr) { stream_base(nlh, c, 0); mnl_attr_put_u32(nlh, BMGEN_A_NPORTS, 0); }
BUILD(b_del_stream_attr) { mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, 128); }
BUILD(b_start_stream_attr) { mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->sid); }
BUILD(b_attach_stream_attr)
{
	mnl_attr_put_strz(nlh, BMGEN_A_PORT_IFNAME, c->spare_name);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->free_id);
}
BUILD(b_nested_flag)
{
	uint32_t id = c->free_id;

	stream_base(nlh, c, M(BMGEN_A_STREAM_ID));
	mnl_attr_put(nlh, BMGEN_A_STREAM_ID | NLA_F_NESTED, sizeof(id), &id);
}
BUILD(b_truncated_attr)
{
	struct nlattr *a;

	stream_base(nlh, c, 0);
	/* an attribute header that claims 64 bytes where 4 remain */
	a = mnl_nlmsg_get_payload_tail(nlh);
	a->nla_len = 64;
	a->nla_type = BMGEN_A_STREAM_DSCP;
	nlh->nlmsg_len += sizeof(*a);
}

/* the genetlink header and the netlink flags */
static struct genlmsghdr *genl_hdr(struct nlmsghdr *nlh)
{
	return mnl_nlmsg_get_payload(nlh);
}
BUILD(b_reserved_1) { stream_base(nlh, c, 0); genl_hdr(nlh)->reserved = 1; }
BUILD(b_reserved_dump) { genl_hdr(nlh)->reserved = 0x8000; }
BUILD(b_hdr_version_0) { stream_base(nlh, c, 0); genl_hdr(nlh)->version = 0; }
BUILD(b_hdr_version_2) { genl_hdr(nlh)->version = 2; }
BUILD(b_flag_replace) { stream_base(nlh, c, 0); nlh->nlmsg_flags |= NLM_F_REPLACE; }
BUILD(b_flag_excl_create)
{
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->sid);
	nlh->nlmsg_flags |= NLM_F_EXCL | NLM_F_CREATE;
}
BUILD(b_flag_root_only) { nlh->nlmsg_flags |= NLM_F_ROOT; }
BUILD(b_flag_dump_atomic) { nlh->nlmsg_flags |= NLM_F_ATOMIC; }

/* duplicate attributes */
BUILD(b_dup_frame_size)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, 256);
}
BUILD(b_dup_stream_id)
{
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->free_id + 10);
	stream_base(nlh, c, 0);
}
BUILD(b_dup_version) { mnl_attr_put_u32(nlh, BMGEN_A_VERSION, BMGEN_GENL_VERSION); }
BUILD(b_dup_ifindex)
{
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->spare);
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->spare);
}
BUILD(b_dup_del_id)
{
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->sid);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->sid);
}
BUILD(b_dup_delay)
{
	mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_DELAY_NS, 1000000);
	mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_DELAY_NS, 2000000);
}

/* dump requests */
BUILD(b_dump_frame_size) { mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, 128); }
BUILD(b_dump_stats_id_u16) { mnl_attr_put_u16(nlh, BMGEN_A_STREAM_ID, 1); }
BUILD(b_dump_version_2) { mnl_attr_put_u32(nlh, BMGEN_A_VERSION, 2); }

/* ports */
BUILD(b_nothing) { }
BUILD(b_port_ifindex_0) { mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, 0); }
BUILD(b_port_ifindex_u8) { mnl_attr_put_u8(nlh, BMGEN_A_PORT_IFINDEX, (uint8_t)c->spare); }
BUILD(b_port_ifindex_missing) { mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, 999999); }
BUILD(b_port_ifname_missing) { mnl_attr_put_strz(nlh, BMGEN_A_PORT_IFNAME, "nosuchdev0"); }
BUILD(b_port_ifname_empty) { mnl_attr_put_strz(nlh, BMGEN_A_PORT_IFNAME, ""); }
BUILD(b_port_ifname_no_nul)
{
	mnl_attr_put(nlh, BMGEN_A_PORT_IFNAME, strlen(c->spare_name),
		     c->spare_name);
}
BUILD(b_port_ifname_long) { mnl_attr_put_strz(nlh, BMGEN_A_PORT_IFNAME, "abcdefghijklmnopq"); }
BUILD(b_port_foreign) { mnl_attr_put_strz(nlh, BMGEN_A_PORT_IFNAME, c->foreign_name); }
BUILD(b_port_tx) { mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->tx); }
BUILD(b_port_tx_name) { mnl_attr_put_strz(nlh, BMGEN_A_PORT_IFNAME, c->tx_name); }
BUILD(b_port_lo) { mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->lo); }
BUILD(b_port_enslaved) { mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->enslaved); }
BUILD(b_port_spare) { mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->spare); }
BUILD(b_port_spare_name) { mnl_attr_put_strz(nlh, BMGEN_A_PORT_IFNAME, c->spare_name); }
BUILD(b_port_rx) { mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->rx); }
/* PORT_SET (hardware timestamps): veth cannot stamp */
BUILD(b_hwts_tx)
{
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->tx);
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_HWTS, BMGEN_HWTS_TX);
}
BUILD(b_hwts_rx)
{
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->rx);
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_HWTS, BMGEN_HWTS_RX);
}
BUILD(b_hwts_bad_bit)
{
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->tx);
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_HWTS, 0x4);
}
BUILD(b_hwts_off_u32)
{
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->tx);
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_PHC_OFFSET_NS, 5);
}
BUILD(b_hwts_spare)
{
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->spare);
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_HWTS, 0);
}
BUILD(b_port_index_and_name)
{
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, c->spare);
	mnl_attr_put_strz(nlh, BMGEN_A_PORT_IFNAME, c->tx_name);
}

/* streams: ids and ports */
BUILD(b_stream_no_id) { stream_base(nlh, c, M(BMGEN_A_STREAM_ID)); }
BUILD(b_stream_no_tx) { stream_base(nlh, c, M(BMGEN_A_STREAM_TX_IFINDEX)); }
STREAM_PUT(b_stream_id_0, 32, BMGEN_A_STREAM_ID, 0)
STREAM_PUT(b_stream_id_max, 32, BMGEN_A_STREAM_ID, BMGEN_MAX_STREAMS)
STREAM_PUT(b_stream_id_u16, 16, BMGEN_A_STREAM_ID, 7)
STREAM_PUT(b_stream_id_exists, 32, BMGEN_A_STREAM_ID, c->sid)
STREAM_PUT(b_stream_tx_spare, 32, BMGEN_A_STREAM_TX_IFINDEX, c->spare)
STREAM_PUT(b_stream_tx_missing, 32, BMGEN_A_STREAM_TX_IFINDEX, 999999)
STREAM_PUT(b_stream_tx_0, 32, BMGEN_A_STREAM_TX_IFINDEX, 0)
STREAM_PUT(b_stream_rx_spare, 32, BMGEN_A_STREAM_RX_IFINDEX, c->spare)
BUILD(b_stream_no_dst) { stream_base(nlh, c, M(BMGEN_A_STREAM_RX_IFINDEX)); }

/* frame sizes and IMIX */
STREAM_PUT(b_frame_63, 32, BMGEN_A_STREAM_FRAME_SIZE, BMGEN_MIN_FRAME - 1)
STREAM_PUT(b_frame_9217, 32, BMGEN_A_STREAM_FRAME_SIZE, BMGEN_MAX_FRAME + 1)
STREAM_PUT(b_frame_u16, 16, BMGEN_A_STREAM_FRAME_SIZE, 128)
BUILD(b_frame_64_ipv6)
{
	stream_base(nlh, c, M(BMGEN_A_STREAM_FRAME_SIZE));
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, 64);
	mnl_attr_put_u8(nlh, BMGEN_A_STREAM_IP_VERSION, 6);
}
BUILD(b_frame_83_ipv6)
{
	stream_base(nlh, c, M(BMGEN_A_STREAM_FRAME_SIZE));
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, 83);
	mnl_attr_put_u8(nlh, BMGEN_A_STREAM_IP_VERSION, 6);
}
BUILD(b_frame_67_vlan)
{
	stream_base(nlh, c, M(BMGEN_A_STREAM_FRAME_SIZE));
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, 67);
	mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_ID, 100);
}
static void imix(struct nlmsghdr *nlh, const struct ctx *c, const uint32_t *v,
		 size_t bytes)
{
	stream_base(nlh, c, M(BMGEN_A_STREAM_FRAME_SIZE));
	mnl_attr_put(nlh, BMGEN_A_STREAM_IMIX, bytes, v);
}
BUILD(b_imix_and_size)
{
	static const uint32_t v[2] = { 128, 256 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_IMIX, sizeof(v), v);
}
BUILD(b_imix_empty)
{
	static const uint32_t v[1] = { 128 };

	imix(nlh, c, v, 0);
}
BUILD(b_imix_6_bytes)
{
	static const uint32_t v[2] = { 128, 128 };

	imix(nlh, c, v, 6);
}
BUILD(b_imix_65)
{
	uint32_t v[BMGEN_MAX_IMIX + 1];
	size_t i;

	for (i = 0; i < BMGEN_MAX_IMIX + 1; i++)
		v[i] = 128;
	imix(nlh, c, v, sizeof(v));
}
BUILD(b_imix_9217)
{
	static const uint32_t v[3] = { 64, 1518, BMGEN_MAX_FRAME + 1 };

	imix(nlh, c, v, sizeof(v));
}
BUILD(b_imix_63)
{
	static const uint32_t v[2] = { 128, BMGEN_MIN_FRAME - 1 };

	imix(nlh, c, v, sizeof(v));
}
BUILD(b_imix_small_ipv6)
{
	static const uint32_t v[2] = { 128, 64 };

	imix(nlh, c, v, sizeof(v));
	mnl_attr_put_u8(nlh, BMGEN_A_STREAM_IP_VERSION, 6);
}

/* addresses and header fields */
BUILD(b_dst_mac_5)
{
	static const uint8_t mac[5] = { 0x02, 0, 0, 0, 1 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_DST_MAC, sizeof(mac), mac);
}
BUILD(b_src_mac_7)
{
	static const uint8_t mac[7] = { 0x02, 0, 0, 0, 0, 1, 2 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_SRC_MAC, sizeof(mac), mac);
}
BUILD(b_src_mac_mcast)
{
	static const uint8_t mac[6] = { 0x01, 0x00, 0x5e, 0, 0, 1 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_SRC_MAC, sizeof(mac), mac);
}
BUILD(b_src_mac_zero)
{
	static const uint8_t mac[6];

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_SRC_MAC, sizeof(mac), mac);
}
STREAM_PUT(b_vlan_4095, 16, BMGEN_A_STREAM_VLAN_ID, 4095)
BUILD(b_pcp_8)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_ID, 100);
	mnl_attr_put_u8(nlh, BMGEN_A_STREAM_VLAN_PCP, 8);
}
STREAM_PUT(b_pcp_no_vlan, 8, BMGEN_A_STREAM_VLAN_PCP, 5)
STREAM_PUT(b_ip_version_5, 8, BMGEN_A_STREAM_IP_VERSION, 5)
STREAM_PUT(b_ip_version_7, 8, BMGEN_A_STREAM_IP_VERSION, 7)
BUILD(b_ip6_on_ip4)
{
	uint8_t a[16] = { 0x20, 0x01, 0, 2, 0, 0, 0, 1 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_DST_IP6, sizeof(a), a);
}
BUILD(b_ip4_on_ip6)
{
	uint8_t a[4] = { 198, 19, 1, 2 };

	stream_base(nlh, c, 0);
	mnl_attr_put_u8(nlh, BMGEN_A_STREAM_IP_VERSION, 6);
	mnl_attr_put(nlh, BMGEN_A_STREAM_DST_IP4, sizeof(a), a);
}
BUILD(b_src_ip4_16)
{
	uint8_t a[16] = { 198, 18, 1, 2 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_SRC_IP4, sizeof(a), a);
}
BUILD(b_dst_ip6_4)
{
	uint8_t a[4] = { 0x20, 0x01, 0, 2 };

	stream_base(nlh, c, 0);
	mnl_attr_put_u8(nlh, BMGEN_A_STREAM_IP_VERSION, 6);
	mnl_attr_put(nlh, BMGEN_A_STREAM_DST_IP6, sizeof(a), a);
}
STREAM_PUT(b_dscp_64, 8, BMGEN_A_STREAM_DSCP, 64)
STREAM_PUT(b_ttl_0, 8, BMGEN_A_STREAM_TTL, 0)
STREAM_PUT(b_udp_src_u32, 32, BMGEN_A_STREAM_UDP_SRC, 49184)
STREAM_PUT(b_flows_0, 32, BMGEN_A_STREAM_FLOWS, 0)
STREAM_PUT(b_flows_65537, 32, BMGEN_A_STREAM_FLOWS, BMGEN_MAX_FLOWS + 1)
STREAM_PUT(b_flow_mode_4, 32, BMGEN_A_STREAM_FLOW_MODE, BMGEN_FLOW_MAC_SRC + 1)
/* §12 random destinations */
STREAM_PUT(b_flow_step_0, 32, BMGEN_A_STREAM_FLOW_STEP, 0)
BUILD(b_flow_step_udp)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOWS, 4);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_STEP, 256);
}
BUILD(b_flow_step_wrap)
{
	uint8_t a[4] = { 255, 255, 0, 2 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_DST_IP4, sizeof(a), a);
	/* 255.255.0.2 + 256 * 256 is past 255.255.255.255 */
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOWS, 257);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_MODE, BMGEN_FLOW_IP_DST);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_STEP, 256);
}
STREAM_PUT(b_flow_seed_u32, 32, BMGEN_A_STREAM_FLOW_SEED, 7)
/* §12 random MACs (R2544-ADDR) */
BUILD(b_mac_seed_ip_flows)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOWS, 4);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_MODE, BMGEN_FLOW_IP_DST);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_MAC_SEED, 7);
}
BUILD(b_mac_seed_u32)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_MODE, BMGEN_FLOW_MAC_DST);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_MAC_SEED, 7);
}
/* §26.2 new-net (R2544-LAT): the tagged frame's own destination */
BUILD(b_tag_dst_untagged)
{
	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_TAG_DST_IP4, 4,
		     (const uint8_t[]){ 198, 19, 65, 2 });
}
BUILD(b_tag_dst_zero)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_LATENCY_TAG_SEQ, 5);
	mnl_attr_put(nlh, BMGEN_A_STREAM_TAG_DST_IP4, 4,
		     (const uint8_t[]){ 0, 0, 0, 0 });
}
BUILD(b_tag_dst_short)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_LATENCY_TAG_SEQ, 5);
	mnl_attr_put_u16(nlh, BMGEN_A_STREAM_TAG_DST_IP4, 7);
}

/* patterns, rates, times */
STREAM_PUT(b_pattern_3, 32, BMGEN_A_STREAM_PATTERN, BMGEN_PAT_BURST + 1)
STREAM_PUT(b_rate_over, 64, BMGEN_A_STREAM_RATE_UFPS,
	   100000000ULL * 1000000ULL + 1)
STREAM_PUT(b_rate_u32, 32, BMGEN_A_STREAM_RATE_UFPS, 1000000)
BUILD(b_count_missing) { stream_base(nlh, c, M(BMGEN_A_STREAM_COUNT)); }
STREAM_PUT(b_count_0, 64, BMGEN_A_STREAM_COUNT, 0)
STREAM_PUT(b_count_2p48, 64, BMGEN_A_STREAM_COUNT, 1ULL << 48)
STREAM_PUT(b_count_continuous, 32, BMGEN_A_STREAM_PATTERN, BMGEN_PAT_CONTINUOUS)
/* the base sends 1000 frames, 0..999 */
STREAM_PUT(b_tag_beyond_count, 64, BMGEN_A_STREAM_LATENCY_TAG_SEQ, 1000)
BUILD(b_burst_no_len) { burst_base(nlh, c); }
BUILD(b_burst_len_0)
{
	burst_base(nlh, c);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, 0);
}
BUILD(b_burst_len_big)
{
	burst_base(nlh, c);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, BMGEN_MAX_BURST + 1);
}
BUILD(b_burst_gap_hour)
{
	burst_base(nlh, c);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, 10);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_GAP_NS, HOUR_NS + 1);
}
STREAM_PUT(b_burst_attr_count, 64, BMGEN_A_STREAM_BURST_GAP_NS, 1000000)
/* RFC 7640 additions: start-to-start bursts, byte-exact bursts, logs */
BUILD(b_burst_period_and_gap)
{
	burst_base(nlh, c);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, 10);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_GAP_NS, 1000000);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_PERIOD_NS, 2000000);
}
BUILD(b_burst_period_999)
{
	burst_base(nlh, c);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, 10);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_PERIOD_NS, 999);
}
BUILD(b_burst_period_hour)
{
	burst_base(nlh, c);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, 10);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_PERIOD_NS, HOUR_NS + 1);
}
BUILD(b_burst_last_63)
{
	burst_base(nlh, c);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, 10);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LAST_SIZE, 63);
}
STREAM_PUT(b_last_without_burst, 32, BMGEN_A_STREAM_BURST_LAST_SIZE, 244)
STREAM_PUT(b_due_without_burst, 64, BMGEN_A_STREAM_BURST_DUE_UFPS, 14880952380952ULL)
BUILD(b_burst_due_big)
{
	burst_base(nlh, c);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, 10);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_DUE_UFPS,
			 1000000000000000ULL + 1);
}
STREAM_PUT(b_tpid_untagged, 16, BMGEN_A_STREAM_VLAN_TPID, 0x88a8)
BUILD(b_tpid_bad)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_ID, 5);
	mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_TPID, 0x9100);
}
STREAM_PUT(b_vlan2_untagged, 16, BMGEN_A_STREAM_VLAN2_ID, 7)
BUILD(b_vlan2_4095)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_ID, 5);
	mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN2_ID, 4095);
}
BUILD(b_vlan2_pcp_alone)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_ID, 5);
	mnl_attr_put_u8(nlh, BMGEN_A_STREAM_VLAN2_PCP, 3);
}
BUILD(b_mpls_3)
{
	uint32_t v[3] = { 100 << 12, 200 << 12, 300 << 12 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_MPLS, sizeof(v), v);
}
BUILD(b_mpls_6_bytes)
{
	uint8_t v[6] = { 0 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_MPLS, sizeof(v), v);
}
BUILD(b_mpls_reserved)
{
	uint32_t v[1] = { 3 << 12 };

	stream_base(nlh, c, 0);
	mnl_attr_put(nlh, BMGEN_A_STREAM_MPLS, sizeof(v), v);
}
STREAM_PUT(b_log_0, 32, BMGEN_A_STREAM_LOG_FRAMES, 0)
STREAM_PUT(b_log_big, 32, BMGEN_A_STREAM_LOG_FRAMES, BMGEN_MAX_LOG_FRAMES + 1)
STREAM_PUT(b_hw_log_0, 32, BMGEN_A_STREAM_HW_LOG, 0)
STREAM_PUT(b_hw_log_big, 32, BMGEN_A_STREAM_HW_LOG, BMGEN_MAX_HW_LOG + 1)
STREAM_PUT(b_hw_every_alone, 32, BMGEN_A_STREAM_HW_LOG_EVERY, 4)
BUILD(b_hw_every_0)
{
	stream_base(nlh, c, 0);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_HW_LOG, 16);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_HW_LOG_EVERY, 0);
}
STREAM_PUT(b_start_hour, 64, BMGEN_A_STREAM_START_NS, HOUR_NS + 1)
STREAM_PUT(b_cpu_offline, 32, BMGEN_A_STREAM_CPU, 100000)
STREAM_PUT(b_tx_mode_2, 32, BMGEN_A_STREAM_TX_MODE, BMGEN_TX_QDISC + 1)
STREAM_PUT(b_learn_payload, 32, BMGEN_A_STREAM_LEARN, 1)

/* stream delete, trials */
BUILD(b_del_free) { mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->free_id); }
BUILD(b_del_sid) { mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->sid); }
BUILD(b_del_0) { mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, 0); }
BUILD(b_del_id_max) { mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, BMGEN_MAX_STREAMS); }
BUILD(b_delay_hour) { mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_DELAY_NS, HOUR_NS + 1); }
BUILD(b_delay_u32) { mnl_attr_put_u32(nlh, BMGEN_A_TRIAL_START_DELAY_NS, 1000); }

/* a trial across hosts: the start on CLOCK_TAI, the receiving half */
static uint64_t tai_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
BUILD(b_tai_delay)
{
	mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_TAI_NS, tai_ns() + 100000000);
	mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_DELAY_NS, 1000000);
}
BUILD(b_tai_passed) { mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_TAI_NS, tai_ns() - 1000000000); }
BUILD(b_tai_hour) { mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_TAI_NS, tai_ns() + HOUR_NS + 1000000000); }
BUILD(b_tai_0) { mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_TAI_NS, 0); }
BUILD(b_tai_u32) { mnl_attr_put_u32(nlh, BMGEN_A_TRIAL_START_TAI_NS, 1); }
BUILD(b_epoch_tai_in) { mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_EPOCH_TAI_NS, tai_ns()); }
/* the base's receiving half: no tx port, none of what only a sender says */
#define RX_ONLY_OMIT (M(BMGEN_A_STREAM_TX_IFINDEX) | M(BMGEN_A_STREAM_PATTERN) | \
		      M(BMGEN_A_STREAM_COUNT) | M(BMGEN_A_STREAM_RATE_UFPS))
BUILD(b_rx_only_ok) { stream_base(nlh, c, RX_ONLY_OMIT); }
BUILD(b_rx_only_rate)
{
	stream_base(nlh, c, RX_ONLY_OMIT);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_RATE_UFPS, 1000ULL * 1000000);
}
BUILD(b_rx_only_mac)
{
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };

	stream_base(nlh, c, RX_ONLY_OMIT);
	mnl_attr_put(nlh, BMGEN_A_STREAM_SRC_MAC, sizeof(mac), mac);
}
BUILD(b_rx_only_flag)
{
	stream_base(nlh, c, RX_ONLY_OMIT);
	mnl_attr_put(nlh, BMGEN_A_STREAM_RX_ONLY, 0, NULL);
}
BUILD(b_no_port)
{
	stream_base(nlh, c, RX_ONLY_OMIT | M(BMGEN_A_STREAM_RX_IFINDEX));
}

/* The control streams of the checker itself. */
BUILD(b_run_stream)
{
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->run_id);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_IFINDEX, c->tx);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_RX_IFINDEX, c->rx);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, 128);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_PATTERN, BMGEN_PAT_CONTINUOUS);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_RATE_UFPS, RUN_RATE_UFPS);
}
BUILD(b_del_run) { mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->run_id); }

#define ADD	BMGEN_CMD_STREAM_ADD
#define STOP	BMGEN_CMD_TRIAL_STOP
#define STATUS	BMGEN_CMD_STATUS_GET
#define PGET	BMGEN_CMD_PORT_GET
#define SGET	BMGEN_CMD_STREAM_GET
#define XGET	BMGEN_CMD_STATS_GET
#define LGET	BMGEN_CMD_LOG_GET
#define RESV	"genlmsghdr.reserved field is not 0"
#define HDRVER	"genlmsghdr.version is not 1"
#define NLFLAGS	"ambiguous or reserved bits set in nlmsg_flags"
#define TWICE	"attribute given twice"
#define DEL	BMGEN_CMD_STREAM_DEL
#define ATT	BMGEN_CMD_PORT_ATTACH
#define DET	BMGEN_CMD_PORT_DETACH
#define START	BMGEN_CMD_TRIAL_START
#define PSET	BMGEN_CMD_PORT_SET
#define A(x)	BMGEN_A_##x
#define POLICY	"Attribute failed policy validation"
#define RANGE	"integer out of range"
#define BINLEN	"binary attribute size out of range"
#define BADLEN	"invalid attribute length"
#define UNSUPP	"Unsupported attribute"
#define FROZEN	"streams cannot change while a trial runs"

/*
 * The rejection table.  Each row would change the module's state if it
 * were accepted (or, for the running phase, would if the trial were not
 * running), and each targets one check of kmod/netlink*.c, kmod/port.c,
 * kmod/stream.c or kmod/tx.c, or of the strict policy the netlink core
 * enforces for the family.
 */
static const struct ncase cases[] = {
	/* protocol and message form */
	{ "version_missing", P_IDLE, ADD, F_NOVER, b_stream_ok, EINVAL, "missing protocol version", NOATTR },
	{ "version_2", P_IDLE, ADD, F_NOVER, b_version_2, ERANGE, RANGE, A(VERSION) },
	{ "version_0", P_IDLE, START, F_NOVER, b_version_0, ERANGE, RANGE, A(VERSION) },
	{ "version_u16", P_IDLE, DET, F_NOVER, b_version_u16, EINVAL, BADLEN, A(VERSION) },
	{ "version_u64", P_IDLE, DEL, F_NOVER, b_version_u64, EINVAL, BADLEN, A(VERSION) },
	{ "unknown_attr_type", P_IDLE, DEL, 0, b_unknown_attr, EINVAL, "Unknown attribute type", A(MAX) + 1 },
	{ "attr_type_0", P_IDLE, ADD, 0, b_attr_type_0, EINVAL, "Unknown attribute type", 0 },
	{ "read_only_attr", P_IDLE, ADD, 0, b_readonly_attr, EINVAL, UNSUPP, A(NPORTS) },
	{ "stream_del_foreign_attr", P_IDLE, DEL, 0, b_del_stream_attr, EINVAL, UNSUPP, A(STREAM_FRAME_SIZE) },
	{ "trial_start_foreign_attr", P_IDLE, START, 0, b_start_stream_attr, EINVAL, UNSUPP, A(STREAM_ID) },
	{ "port_attach_foreign_attr", P_IDLE, ATT, 0, b_attach_stream_attr, EINVAL, UNSUPP, A(STREAM_ID) },
	{ "nested_flag_on_u32", P_IDLE, ADD, 0, b_nested_flag, EINVAL, "NLA_F_NESTED not expected", A(STREAM_ID) },
	{ "truncated_attr", P_IDLE, ADD, 0, b_truncated_attr, EINVAL, "bytes leftover after parsing attributes", NOATTR },
	/* the genetlink header and nlmsg_flags */
	{ "genl_reserved_nonzero", P_IDLE, ADD, 0, b_reserved_1, EINVAL, RESV, NOATTR },
	{ "genl_reserved_nonzero_dump", P_IDLE, SGET, F_DUMP, b_reserved_dump, EINVAL, RESV, NOATTR },
	{ "genl_version_0", P_IDLE, ADD, 0, b_hdr_version_0, EINVAL, HDRVER, NOATTR },
	{ "genl_version_2", P_IDLE, START, 0, b_hdr_version_2, EINVAL, HDRVER, NOATTR },
	{ "genl_version_2_dump", P_IDLE, XGET, F_DUMP, b_hdr_version_2, EINVAL, HDRVER, NOATTR },
	{ "nlmsg_flag_replace", P_IDLE, ADD, 0, b_flag_replace, EINVAL, NLFLAGS, NOATTR },
	{ "nlmsg_flag_excl_create", P_IDLE, DEL, 0, b_flag_excl_create, EINVAL, NLFLAGS, NOATTR },
	{ "nlmsg_flag_root_without_match", P_IDLE, SGET, 0, b_flag_root_only, EINVAL, NLFLAGS, NOATTR },
	{ "nlmsg_flag_atomic_dump", P_IDLE, SGET, F_DUMP, b_flag_dump_atomic, EINVAL, NLFLAGS, NOATTR },
	/* commands: unknown ones, do on a dump, dump on a do (the core
	 * answers before the family sees them: no extack) */
	{ "cmd_unspec", P_IDLE, BMGEN_CMD_UNSPEC, 0, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "cmd_trial_event", P_IDLE, BMGEN_CMD_TRIAL_EVENT, 0, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "cmd_max_plus_1", P_IDLE, BMGEN_CMD_MAX + 1, 0, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "cmd_255", P_IDLE, 255, F_DUMP, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "do_port_get", P_IDLE, PGET, 0, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "do_stream_get", P_IDLE, SGET, 0, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "do_stats_get", P_IDLE, XGET, 0, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "dump_status_get", P_IDLE, STATUS, F_DUMP, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "dump_stream_add", P_IDLE, ADD, F_DUMP, b_stream_ok, EOPNOTSUPP, NULL, NOATTR },
	{ "dump_stream_del", P_IDLE, DEL, F_DUMP, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "dump_trial_start", P_IDLE, START, F_DUMP, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	/* an attribute twice: refused, nla_parse would keep the last */
	{ "dup_frame_size", P_IDLE, ADD, 0, b_dup_frame_size, EINVAL, TWICE, A(STREAM_FRAME_SIZE) },
	{ "dup_stream_id", P_IDLE, ADD, 0, b_dup_stream_id, EINVAL, TWICE, A(STREAM_ID) },
	{ "dup_version", P_IDLE, DEL, 0, b_dup_version, EINVAL, TWICE, A(VERSION) },
	{ "dup_port_ifindex_same_value", P_IDLE, ATT, 0, b_dup_ifindex, EINVAL, TWICE, A(PORT_IFINDEX) },
	{ "dup_stream_del_id", P_IDLE, DEL, 0, b_dup_del_id, EINVAL, TWICE, A(STREAM_ID) },
	{ "dup_trial_start_delay", P_IDLE, START, 0, b_dup_delay, EINVAL, TWICE, A(TRIAL_START_DELAY_NS) },
	{ "dup_stats_dump_stream_id", P_IDLE, XGET, F_DUMP, b_dup_del_id, EINVAL, TWICE, NOATTR },
	/* bad attributes in dump requests */
	{ "dump_version_missing", P_IDLE, SGET, F_DUMP | F_NOVER, b_nothing, EINVAL, "missing protocol version", NOATTR },
	{ "dump_version_2", P_IDLE, PGET, F_DUMP | F_NOVER, b_dump_version_2, ERANGE, RANGE, A(VERSION) },
	{ "dump_stream_get_foreign_attr", P_IDLE, SGET, F_DUMP, b_dump_frame_size, EINVAL, UNSUPP, A(STREAM_FRAME_SIZE) },
	{ "dump_port_get_unknown_attr", P_IDLE, PGET, F_DUMP, b_unknown_attr, EINVAL, "Unknown attribute type", A(MAX) + 1 },
	{ "dump_stats_stream_id_0", P_IDLE, XGET, F_DUMP, b_del_0, ERANGE, RANGE, A(STREAM_ID) },
	{ "dump_stats_stream_id_u16", P_IDLE, XGET, F_DUMP, b_dump_stats_id_u16, EINVAL, BADLEN, A(STREAM_ID) },
	/* ports */
	{ "port_attach_no_device", P_IDLE, ATT, 0, b_nothing, EINVAL, "give a port ifindex or ifname", NOATTR },
	{ "port_attach_ifindex_0", P_IDLE, ATT, 0, b_port_ifindex_0, ERANGE, RANGE, A(PORT_IFINDEX) },
	{ "port_attach_ifindex_u8", P_IDLE, ATT, 0, b_port_ifindex_u8, EINVAL, BADLEN, A(PORT_IFINDEX) },
	{ "port_attach_no_such_ifindex", P_IDLE, ATT, 0, b_port_ifindex_missing, ENODEV, "no such device in this netns", NOATTR },
	{ "port_attach_no_such_ifname", P_IDLE, ATT, 0, b_port_ifname_missing, ENODEV, "no such device in this netns", NOATTR },
	{ "port_attach_ifindex_and_ifname", P_IDLE, ATT, 0, b_port_index_and_name, EINVAL, "not both", A(PORT_IFNAME) },
	{ "port_attach_ifname_empty", P_IDLE, ATT, 0, b_port_ifname_empty, ENODEV, "no such device in this netns", NOATTR },
	{ "port_attach_ifname_no_nul", P_IDLE, ATT, 0, b_port_ifname_no_nul, EINVAL, POLICY, A(PORT_IFNAME) },
	{ "port_attach_ifname_too_long", P_IDLE, ATT, 0, b_port_ifname_long, EINVAL, POLICY, A(PORT_IFNAME) },
	{ "port_attach_other_netns_name", P_IDLE, ATT, 0, b_port_foreign, ENODEV, "no such device in this netns", NOATTR },
	{ "port_attach_twice", P_IDLE, ATT, 0, b_port_tx, EEXIST, "port is already attached", NOATTR },
	{ "port_attach_loopback", P_IDLE, ATT, 0, b_port_lo, EOPNOTSUPP, "not an Ethernet device", NOATTR },
	{ "port_attach_bridge_port", P_IDLE, ATT, 0, b_port_enslaved, EBUSY, "already has an rx handler", NOATTR },
	{ "port_detach_not_attached", P_IDLE, DET, 0, b_port_spare, ENOENT, "not an attached port", NOATTR },
	{ "port_detach_no_device", P_IDLE, DET, 0, b_nothing, EINVAL, "give a port ifindex or ifname", NOATTR },
	{ "port_detach_no_such_ifindex", P_IDLE, DET, 0, b_port_ifindex_missing, ENODEV, "no such device in this netns", NOATTR },
	{ "port_set_hwts_tx_veth", P_IDLE, PSET, 0, b_hwts_tx, EOPNOTSUPP, "cannot hardware-stamp tx", NOATTR },
	{ "port_set_hwts_rx_veth", P_IDLE, PSET, 0, b_hwts_rx, EOPNOTSUPP, "cannot hardware-stamp rx", NOATTR },
	{ "port_set_hwts_reserved_bit", P_IDLE, PSET, 0, b_hwts_bad_bit, EINVAL, "reserved bit set", A(PORT_HWTS) },
	{ "port_set_phc_offset_u32", P_IDLE, PSET, 0, b_hwts_off_u32, EINVAL, BADLEN, A(PORT_PHC_OFFSET_NS) },
	{ "port_set_not_attached", P_IDLE, PSET, 0, b_hwts_spare, ENOENT, "not an attached port", NOATTR },
	{ "port_set_no_device", P_IDLE, PSET, 0, b_nothing, EINVAL, "give a port ifindex or ifname", NOATTR },
	/* stream ids and ports */
	{ "stream_no_id", P_IDLE, ADD, 0, b_stream_no_id, EINVAL, "needs an id and a tx port", NOATTR },
	/* without a tx port the stream is rx-only, and the base sends */
	{ "stream_no_tx_port", P_IDLE, ADD, 0, b_stream_no_tx, EINVAL, "an rx-only stream (no tx port) does not send", A(STREAM_PATTERN) },
	{ "stream_id_0", P_IDLE, ADD, 0, b_stream_id_0, ERANGE, RANGE, A(STREAM_ID) },
	{ "stream_id_max", P_IDLE, ADD, 0, b_stream_id_max, ERANGE, RANGE, A(STREAM_ID) },
	{ "stream_id_u16", P_IDLE, ADD, 0, b_stream_id_u16, EINVAL, BADLEN, A(STREAM_ID) },
	{ "stream_id_exists", P_IDLE, ADD, 0, b_stream_id_exists, EEXIST, "stream id already exists", NOATTR },
	{ "stream_tx_not_attached", P_IDLE, ADD, 0, b_stream_tx_spare, ENOENT, "tx device is not an attached port", A(STREAM_TX_IFINDEX) },
	{ "stream_tx_no_such_ifindex", P_IDLE, ADD, 0, b_stream_tx_missing, ENOENT, "tx device is not an attached port", A(STREAM_TX_IFINDEX) },
	{ "stream_tx_ifindex_0", P_IDLE, ADD, 0, b_stream_tx_0, ERANGE, RANGE, A(STREAM_TX_IFINDEX) },
	{ "stream_rx_not_attached", P_IDLE, ADD, 0, b_stream_rx_spare, ENOENT, "rx device is not an attached port", A(STREAM_RX_IFINDEX) },
	{ "stream_no_destination", P_IDLE, ADD, 0, b_stream_no_dst, EINVAL, "needs a destination MAC or an rx port", NOATTR },
	/* frame sizes, IMIX */
	{ "frame_size_63", P_IDLE, ADD, 0, b_frame_63, ERANGE, RANGE, A(STREAM_FRAME_SIZE) },
	{ "frame_size_9217", P_IDLE, ADD, 0, b_frame_9217, ERANGE, RANGE, A(STREAM_FRAME_SIZE) },
	{ "frame_size_u16", P_IDLE, ADD, 0, b_frame_u16, EINVAL, BADLEN, A(STREAM_FRAME_SIZE) },
	{ "frame_64_ipv6_no_test_header", P_IDLE, ADD, 0, b_frame_64_ipv6, EINVAL, "frame size too small", NOATTR },
	{ "frame_83_ipv6_no_test_header", P_IDLE, ADD, 0, b_frame_83_ipv6, EINVAL, "frame size too small", NOATTR },
	{ "frame_67_vlan_no_test_header", P_IDLE, ADD, 0, b_frame_67_vlan, EINVAL, "frame size too small", NOATTR },
	{ "imix_empty", P_IDLE, ADD, 0, b_imix_empty, EINVAL, "IMIX must be a non-empty array of u32", A(STREAM_IMIX) },
	{ "imix_6_bytes", P_IDLE, ADD, 0, b_imix_6_bytes, EINVAL, "IMIX must be a non-empty array of u32", A(STREAM_IMIX) },
	{ "imix_65_sizes", P_IDLE, ADD, 0, b_imix_65, ERANGE, POLICY, A(STREAM_IMIX) },
	{ "imix_size_9217", P_IDLE, ADD, 0, b_imix_9217, ERANGE, "IMIX size outside 64..9216", A(STREAM_IMIX) },
	{ "imix_size_63", P_IDLE, ADD, 0, b_imix_63, ERANGE, "IMIX size outside 64..9216", A(STREAM_IMIX) },
	{ "imix_and_frame_size", P_IDLE, ADD, 0, b_imix_and_size, EINVAL, "not both", A(STREAM_IMIX) },
	{ "imix_64_ipv6_no_test_header", P_IDLE, ADD, 0, b_imix_small_ipv6, EINVAL, "IMIX size is too small", NOATTR },
	/* addresses, header fields */
	{ "dst_mac_5_bytes", P_IDLE, ADD, 0, b_dst_mac_5, ERANGE, BINLEN, A(STREAM_DST_MAC) },
	{ "src_mac_7_bytes", P_IDLE, ADD, 0, b_src_mac_7, ERANGE, BINLEN, A(STREAM_SRC_MAC) },
	{ "src_mac_multicast", P_IDLE, ADD, 0, b_src_mac_mcast, EINVAL, "source MAC must be", A(STREAM_SRC_MAC) },
	{ "src_mac_zero", P_IDLE, ADD, 0, b_src_mac_zero, EINVAL, "source MAC must be", A(STREAM_SRC_MAC) },
	{ "vlan_id_4095", P_IDLE, ADD, 0, b_vlan_4095, ERANGE, RANGE, A(STREAM_VLAN_ID) },
	{ "vlan_pcp_8", P_IDLE, ADD, 0, b_pcp_8, ERANGE, RANGE, A(STREAM_VLAN_PCP) },
	{ "vlan_pcp_without_vlan", P_IDLE, ADD, 0, b_pcp_no_vlan, EINVAL, "PCP needs a VLAN id", NOATTR },
	{ "ip_version_5", P_IDLE, ADD, 0, b_ip_version_5, EINVAL, "IP version must be 4 or 6", A(STREAM_IP_VERSION) },
	{ "ip_version_7", P_IDLE, ADD, 0, b_ip_version_7, ERANGE, RANGE, A(STREAM_IP_VERSION) },
	{ "ipv6_address_on_ipv4", P_IDLE, ADD, 0, b_ip6_on_ip4, EINVAL, "IPv6 addresses on an IPv4 stream", NOATTR },
	{ "ipv4_address_on_ipv6", P_IDLE, ADD, 0, b_ip4_on_ip6, EINVAL, "IPv4 addresses on an IPv6 stream", NOATTR },
	{ "src_ip4_16_bytes", P_IDLE, ADD, 0, b_src_ip4_16, ERANGE, BINLEN, A(STREAM_SRC_IP4) },
	{ "dst_ip6_4_bytes", P_IDLE, ADD, 0, b_dst_ip6_4, ERANGE, BINLEN, A(STREAM_DST_IP6) },
	{ "dscp_64", P_IDLE, ADD, 0, b_dscp_64, ERANGE, RANGE, A(STREAM_DSCP) },
	{ "ttl_0", P_IDLE, ADD, 0, b_ttl_0, ERANGE, RANGE, A(STREAM_TTL) },
	{ "udp_src_u32", P_IDLE, ADD, 0, b_udp_src_u32, EINVAL, BADLEN, A(STREAM_UDP_SRC) },
	{ "flows_0", P_IDLE, ADD, 0, b_flows_0, ERANGE, RANGE, A(STREAM_FLOWS) },
	{ "flows_65537", P_IDLE, ADD, 0, b_flows_65537, ERANGE, "more than 65536 flows", A(STREAM_FLOWS) },
	{ "flow_mode_4", P_IDLE, ADD, 0, b_flow_mode_4, ERANGE, RANGE, A(STREAM_FLOW_MODE) },
	{ "flow_step_0", P_IDLE, ADD, 0, b_flow_step_0, ERANGE, RANGE, A(STREAM_FLOW_STEP) },
	{ "flow_step_on_udp_flows", P_IDLE, ADD, 0, b_flow_step_udp, EINVAL, "a flow step needs IPv4 destination flows", A(STREAM_FLOW_STEP) },
	{ "flow_step_past_255", P_IDLE, ADD, 0, b_flow_step_wrap, ERANGE, "destinations beyond 255.255.255.255", A(STREAM_FLOWS) },
	{ "flow_seed_u32", P_IDLE, ADD, 0, b_flow_seed_u32, EINVAL, BADLEN, A(STREAM_FLOW_SEED) },
	{ "mac_seed_on_ip_flows", P_IDLE, ADD, 0, b_mac_seed_ip_flows, EINVAL, "a MAC seed needs a MAC flow mode", A(STREAM_MAC_SEED) },
	{ "mac_seed_u32", P_IDLE, ADD, 0, b_mac_seed_u32, EINVAL, BADLEN, A(STREAM_MAC_SEED) },
	{ "tag_dst_untagged", P_IDLE, ADD, 0, b_tag_dst_untagged, EINVAL, "a tagged frame's destination needs a tagged IPv4 stream", A(STREAM_TAG_DST_IP4) },
	{ "tag_dst_zero", P_IDLE, ADD, 0, b_tag_dst_zero, EINVAL, "a tagged frame's destination needs a tagged IPv4 stream", A(STREAM_TAG_DST_IP4) },
	{ "tag_dst_2_bytes", P_IDLE, ADD, 0, b_tag_dst_short, ERANGE, BINLEN, A(STREAM_TAG_DST_IP4) },
	/* patterns, rates, times */
	{ "pattern_3", P_IDLE, ADD, 0, b_pattern_3, ERANGE, RANGE, A(STREAM_PATTERN) },
	{ "rate_over_100_mfps", P_IDLE, ADD, 0, b_rate_over, ERANGE, "rate above 100 Mfps", A(STREAM_RATE_UFPS) },
	{ "rate_u32", P_IDLE, ADD, 0, b_rate_u32, EINVAL, BADLEN, A(STREAM_RATE_UFPS) },
	{ "count_pattern_without_count", P_IDLE, ADD, 0, b_count_missing, EINVAL, "count pattern needs a frame count", NOATTR },
	{ "count_0", P_IDLE, ADD, 0, b_count_0, EINVAL, "count pattern needs a frame count", NOATTR },
	{ "count_2p48", P_IDLE, ADD, 0, b_count_2p48, ERANGE, "48-bit sequence space", A(STREAM_COUNT) },
	{ "count_without_count_pattern", P_IDLE, ADD, 0, b_count_continuous, EINVAL, "frame count needs the count pattern", A(STREAM_COUNT) },
	{ "latency_tag_beyond_count", P_IDLE, ADD, 0, b_tag_beyond_count, ERANGE, "beyond the frames sent", A(STREAM_LATENCY_TAG_SEQ) },
	{ "burst_without_length", P_IDLE, ADD, 0, b_burst_no_len, EINVAL, "burst pattern needs a burst length", NOATTR },
	{ "burst_length_0", P_IDLE, ADD, 0, b_burst_len_0, ERANGE, RANGE, A(STREAM_BURST_LEN) },
	{ "burst_length_2p24_plus_1", P_IDLE, ADD, 0, b_burst_len_big, ERANGE, "burst longer than 2^24 frames", A(STREAM_BURST_LEN) },
	{ "burst_gap_over_1h", P_IDLE, ADD, 0, b_burst_gap_hour, ERANGE, "burst gap longer than an hour", A(STREAM_BURST_GAP_NS) },
	{ "burst_gap_without_burst", P_IDLE, ADD, 0, b_burst_attr_count, EINVAL, "burst attributes need the burst pattern", NOATTR },
	{ "burst_period_and_gap", P_IDLE, ADD, 0, b_burst_period_and_gap, EINVAL, "not both", A(STREAM_BURST_PERIOD_NS) },
	{ "burst_period_999_ns", P_IDLE, ADD, 0, b_burst_period_999, ERANGE, RANGE, A(STREAM_BURST_PERIOD_NS) },
	{ "burst_period_over_1h", P_IDLE, ADD, 0, b_burst_period_hour, ERANGE, "burst period longer than an hour", A(STREAM_BURST_PERIOD_NS) },
	{ "burst_last_size_63", P_IDLE, ADD, 0, b_burst_last_63, ERANGE, RANGE, A(STREAM_BURST_LAST_SIZE) },
	{ "burst_last_size_without_burst", P_IDLE, ADD, 0, b_last_without_burst, EINVAL, "burst attributes need the burst pattern", NOATTR },
	{ "burst_due_without_burst", P_IDLE, ADD, 0, b_due_without_burst, EINVAL, "burst attributes need the burst pattern", NOATTR },
	{ "burst_due_over_1e9_fps", P_IDLE, ADD, 0, b_burst_due_big, ERANGE, "burst due rate above 10^9 fps", A(STREAM_BURST_DUE_UFPS) },
	{ "vlan_tpid_without_vlan", P_IDLE, ADD, 0, b_tpid_untagged, EINVAL, "a TPID needs a VLAN id", A(STREAM_VLAN_TPID) },
	{ "vlan_tpid_0x9100", P_IDLE, ADD, 0, b_tpid_bad, EINVAL, "TPID must be 0x8100 (802.1Q) or 0x88a8 (802.1ad)", A(STREAM_VLAN_TPID) },
	{ "vlan2_without_vlan", P_IDLE, ADD, 0, b_vlan2_untagged, EINVAL, "an inner VLAN needs an outer one", A(STREAM_VLAN2_ID) },
	{ "vlan2_id_4095", P_IDLE, ADD, 0, b_vlan2_4095, ERANGE, RANGE, A(STREAM_VLAN2_ID) },
	{ "vlan2_pcp_without_vlan2", P_IDLE, ADD, 0, b_vlan2_pcp_alone, EINVAL, "an inner PCP needs an inner VLAN id", A(STREAM_VLAN2_PCP) },
	{ "mpls_3_labels", P_IDLE, ADD, 0, b_mpls_3, ERANGE, POLICY, A(STREAM_MPLS) },
	{ "mpls_6_bytes", P_IDLE, ADD, 0, b_mpls_6_bytes, EINVAL, "MPLS must be 1 or 2 u32 label stack entries", A(STREAM_MPLS) },
	{ "mpls_label_3_reserved", P_IDLE, ADD, 0, b_mpls_reserved, EINVAL, "MPLS labels 0..15 are reserved", A(STREAM_MPLS) },
	{ "log_frames_0", P_IDLE, ADD, 0, b_log_0, ERANGE, RANGE, A(STREAM_LOG_FRAMES) },
	{ "log_frames_2p20_plus_1", P_IDLE, ADD, 0, b_log_big, ERANGE, "more than 2^20 frames", A(STREAM_LOG_FRAMES) },
	{ "hw_log_0", P_IDLE, ADD, 0, b_hw_log_0, ERANGE, RANGE, A(STREAM_HW_LOG) },
	{ "hw_log_2p16_plus_1", P_IDLE, ADD, 0, b_hw_log_big, ERANGE, "more than 2^16 records", A(STREAM_HW_LOG) },
	{ "hw_log_every_without_hw_log", P_IDLE, ADD, 0, b_hw_every_alone, EINVAL, "HW_LOG_EVERY needs HW_LOG", A(STREAM_HW_LOG_EVERY) },
	{ "hw_log_every_0", P_IDLE, ADD, 0, b_hw_every_0, ERANGE, RANGE, A(STREAM_HW_LOG_EVERY) },
	{ "log_get_do", P_IDLE, LGET, 0, b_nothing, EOPNOTSUPP, NULL, NOATTR },
	{ "log_get_without_stream_id", P_IDLE, LGET, F_DUMP, b_nothing, EINVAL, "a log dump needs a stream id", NOATTR },
	{ "log_get_no_such_stream", P_IDLE, LGET, F_DUMP, b_del_free, ENOENT, "no such stream", NOATTR },
	{ "log_get_stream_without_log", P_IDLE, LGET, F_DUMP, b_del_sid, ENODATA, "keeps no log", NOATTR },
	{ "log_get_while_running", P_RUNNING, LGET, F_DUMP, b_del_sid, EBUSY, "while a trial runs", NOATTR },
	{ "start_over_1h", P_IDLE, ADD, 0, b_start_hour, ERANGE, "more than an hour after the epoch", A(STREAM_START_NS) },
	{ "cpu_not_online", P_IDLE, ADD, 0, b_cpu_offline, EINVAL, "CPU is not online", A(STREAM_CPU) },
	{ "tx_mode_2", P_IDLE, ADD, 0, b_tx_mode_2, ERANGE, RANGE, A(STREAM_TX_MODE) },
	{ "learn_flag_with_payload", P_IDLE, ADD, 0, b_learn_payload, ERANGE, POLICY, A(STREAM_LEARN) },
	/* stream delete, trial start */
	{ "stream_del_no_such_id", P_IDLE, DEL, 0, b_del_free, ENOENT, "no such stream in this network namespace", NOATTR },
	{ "stream_del_id_0", P_IDLE, DEL, 0, b_del_0, ERANGE, RANGE, A(STREAM_ID) },
	{ "stream_del_id_max", P_IDLE, DEL, 0, b_del_id_max, ERANGE, RANGE, A(STREAM_ID) },
	{ "trial_start_delay_over_1h", P_IDLE, START, 0, b_delay_hour, ERANGE, "start delay longer than an hour", A(TRIAL_START_DELAY_NS) },
	{ "trial_start_delay_u32", P_IDLE, START, 0, b_delay_u32, EINVAL, BADLEN, A(TRIAL_START_DELAY_NS) },
	{ "trial_start_tai_and_delay", P_IDLE, START, 0, b_tai_delay, EINVAL, "a start time or a start delay, not both", A(TRIAL_START_TAI_NS) },
	{ "trial_start_tai_passed", P_IDLE, START, 0, b_tai_passed, ERANGE, "the start time has passed", NOATTR },
	{ "trial_start_tai_over_1h", P_IDLE, START, 0, b_tai_hour, ERANGE, "start time more than an hour ahead", A(TRIAL_START_TAI_NS) },
	{ "trial_start_tai_0", P_IDLE, START, 0, b_tai_0, ERANGE, RANGE, A(TRIAL_START_TAI_NS) },
	{ "trial_start_tai_u32", P_IDLE, START, 0, b_tai_u32, EINVAL, BADLEN, A(TRIAL_START_TAI_NS) },
	{ "trial_start_epoch_tai_given", P_IDLE, START, 0, b_epoch_tai_in, EINVAL, UNSUPP, A(TRIAL_EPOCH_TAI_NS) },
	{ "rx_only_with_rate", P_IDLE, ADD, 0, b_rx_only_rate, EINVAL, "an rx-only stream (no tx port) does not send", A(STREAM_RATE_UFPS) },
	{ "rx_only_with_src_mac", P_IDLE, ADD, 0, b_rx_only_mac, EINVAL, "an rx-only stream (no tx port) does not send", A(STREAM_SRC_MAC) },
	{ "rx_only_flag_given", P_IDLE, ADD, 0, b_rx_only_flag, EINVAL, UNSUPP, A(STREAM_RX_ONLY) },
	{ "stream_add_no_port", P_IDLE, ADD, 0, b_no_port, EINVAL, "a stream needs an id and a tx port", NOATTR },
	/* while a trial runs */
	{ "trial_start_while_running", P_RUNNING, START, 0, b_nothing, EBUSY, "a trial is already running", NOATTR },
	{ "stream_add_while_running", P_RUNNING, ADD, 0, b_stream_ok, EBUSY, FROZEN, NOATTR },
	{ "stream_del_while_running", P_RUNNING, DEL, 0, b_del_sid, EBUSY, FROZEN, NOATTR },
	{ "stream_del_all_while_running", P_RUNNING, DEL, 0, b_nothing, EBUSY, FROZEN, NOATTR },
	{ "port_detach_while_running", P_RUNNING, DET, 0, b_port_tx, EBUSY, "port is in use by a running trial", NOATTR },
	{ "port_set_while_running", P_RUNNING, PSET, 0, b_port_tx, EBUSY, "a trial is running", NOATTR },
	{ "rx_close_while_running", P_RUNNING, BMGEN_CMD_RX_CLOSE, 0, b_nothing, EBUSY, "the trial still sends", NOATTR },
	/* from a fresh network namespace: the ports are not there */
	{ "other_netns_port_attach", P_FOREIGN, ATT, 0, b_port_tx_name, ENODEV, "no such device in this netns", NOATTR },
	{ "other_netns_port_detach", P_FOREIGN, DET, 0, b_port_tx, ENODEV, "no such device in this netns", NOATTR },
	{ "other_netns_port_set", P_FOREIGN, PSET, 0, b_port_tx, ENODEV, "no such device in this netns", NOATTR },
	{ "other_netns_stream_add", P_FOREIGN, ADD, 0, b_stream_ok, ENOENT, "tx device is not an attached port", A(STREAM_TX_IFINDEX) },
	/* the namespace model: another namespace's streams and trial are
	 * not there for this caller */
	{ "other_netns_stream_del", P_FOREIGN, DEL, 0, b_del_sid, ENOENT, "no such stream in this network namespace", NOATTR },
	{ "other_netns_stream_del_all", P_FOREIGN, DEL, 0, b_nothing, 0, NULL, NOATTR },
	{ "other_netns_trial_start", P_FOREIGN, START, 0, b_nothing, EINVAL, "no streams configured in this network namespace", NOATTR },
	{ "other_netns_trial_stop_idle", P_FOREIGN, STOP, 0, b_nothing, 0, NULL, NOATTR },
	{ "other_netns_trial_stop", P_RUNNING_FOREIGN, STOP, 0, b_nothing, EPERM, "the running trial belongs to another network namespace", NOATTR },
	{ "other_netns_trial_start_running", P_RUNNING_FOREIGN, START, 0, b_nothing, EBUSY, "a trial is already running", NOATTR },
	{ "other_netns_stream_del_all_running", P_RUNNING_FOREIGN, DEL, 0, b_nothing, EBUSY, FROZEN, NOATTR },
	/* an empty module */
	{ "trial_start_no_streams", P_EMPTY, START, 0, b_nothing, EINVAL, "no streams configured in this network namespace", NOATTR },
	{ "stream_add_no_ports", P_EMPTY, ADD, 0, b_stream_ok, ENOENT, "tx device is not an attached port", A(STREAM_TX_IFINDEX) },
	{ "stream_del_none", P_EMPTY, DEL, 0, b_del_free, ENOENT, "no such stream", NOATTR },
	{ "port_detach_none_attached", P_EMPTY, DET, 0, b_port_tx, ENOENT, "not an attached port", NOATTR },
};

/* Valid changes an unprivileged caller must not make (EPERM, no change). */
static const struct ncase priv_cases[] = {
	{ "port_attach", P_IDLE, ATT, 0, b_port_spare_name, EPERM, NULL, NOATTR },
	{ "port_detach", P_IDLE, DET, 0, b_port_rx, EPERM, NULL, NOATTR },
	{ "port_set", P_IDLE, PSET, 0, b_port_rx, EPERM, NULL, NOATTR },
	{ "stream_add", P_IDLE, ADD, 0, b_stream_ok, EPERM, NULL, NOATTR },
	{ "stream_del", P_IDLE, DEL, 0, b_del_sid, EPERM, NULL, NOATTR },
	{ "stream_del_all", P_IDLE, DEL, 0, b_nothing, EPERM, NULL, NOATTR },
	{ "trial_start", P_IDLE, START, 0, b_nothing, EPERM, NULL, NOATTR },
	{ "trial_stop", P_RUNNING, BMGEN_CMD_TRIAL_STOP, 0, b_nothing, EPERM, NULL, NOATTR },
	{ "rx_close", P_IDLE, BMGEN_CMD_RX_CLOSE, 0, b_nothing, EPERM, NULL, NOATTR },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *cmd_name(uint8_t cmd)
{
	static char b[16];

	switch (cmd) {
	case BMGEN_CMD_UNSPEC: return "0 (UNSPEC)";
	case BMGEN_CMD_STATUS_GET: return "STATUS_GET";
	case BMGEN_CMD_PORT_ATTACH: return "PORT_ATTACH";
	case BMGEN_CMD_PORT_DETACH: return "PORT_DETACH";
	case BMGEN_CMD_PORT_SET: return "PORT_SET";
	case BMGEN_CMD_LOG_GET: return "LOG_GET";
	case BMGEN_CMD_PORT_GET: return "PORT_GET";
	case BMGEN_CMD_STREAM_ADD: return "STREAM_ADD";
	case BMGEN_CMD_STREAM_DEL: return "STREAM_DEL";
	case BMGEN_CMD_STREAM_GET: return "STREAM_GET";
	case BMGEN_CMD_TRIAL_START: return "TRIAL_START";
	case BMGEN_CMD_TRIAL_STOP: return "TRIAL_STOP";
	case BMGEN_CMD_STATS_GET: return "STATS_GET";
	case BMGEN_CMD_TRIAL_EVENT: return "TRIAL_EVENT";
	case BMGEN_CMD_DEV_GET: return "DEV_GET";
	case BMGEN_CMD_RX_CLOSE: return "RX_CLOSE";
	default:
		snprintf(b, sizeof(b), "%u", cmd);
		return b;
	}
}

/* --- running the cases ---------------------------------------------------------- */

static void verdict(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void verdict(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s", ok ? "ok " : "not ok ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		n_ok++;
	else
		n_fail++;
}

/*
 * One case: snapshot (via snap), the request (via via), snapshot again.
 * prefix names the variant (privilege mode).
 */
static void run_case(struct nl *snap, struct nl *via, const struct ncase *k,
		     const struct ctx *c, const char *prefix)
{
	static struct text before, after;
	char why[512] = "";
	struct nlmsghdr *nlh;
	struct reply r;
	int ret;

	if (snapshot(snap, &before)) {
		verdict(0, "%s%s: no snapshot before", prefix, k->name);
		return;
	}
	nlh = msg_start(via, via->family, k->cmd,
			NLM_F_ACK | (k->flags & F_DUMP ? NLM_F_DUMP : 0),
			!(k->flags & F_NOVER));
	k->build(nlh, c);
	ret = nl_talk(via, nlh, &r, NULL, NULL);
	if (ret) {
		verdict(0, "%s%s: socket: %s", prefix, k->name, strerror(-ret));
		return;
	}
	if (r.err != k->err)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "; want %s", errname(k->err));
	if (k->msg && !r.msg[0])
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "; no extack message");
	else if (k->msg && !strstr(r.msg, k->msg))
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "; want a message with \"%s\"", k->msg);
	if (k->attr != NOATTR) {
		const struct nlattr *a = (const void *)(reqbuf + r.offs);

		if (!r.have_offs)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "; no NLMSGERR_ATTR_OFFS");
		else if (r.offs + sizeof(*a) > nlh->nlmsg_len ||
			 (a->nla_type & NLA_TYPE_MASK) != k->attr)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "; offset %u does not name attribute %d",
				 r.offs, k->attr);
	}
	/* the request is gone from reqbuf after this */
	if (snapshot(snap, &after)) {
		verdict(0, "%s%s: no snapshot after", prefix, k->name);
		return;
	}
	if (before.len != after.len || memcmp(before.s, after.s, before.len))
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "; the module's state changed");
	n_cases++;
	verdict(!why[0], "%s%s: errno %s: \"%s\"%s", prefix, k->name,
		errname(r.err), r.msg, why);
	if (before.len != after.len || memcmp(before.s, after.s, before.len))
		printf("# before:\n%s# after:\n%s", before.s, after.s);
}

static void run_phase(struct nl *snap, struct nl *via, enum phase p,
		      const struct ctx *c)
{
	size_t i;

	printf("# phase: %s\n", phase_name[p]);
	for (i = 0; i < N(cases); i++)
		if (cases[i].phase == p)
			run_case(snap, via, &cases[i], c, "");
}

/*
 * A valid change must show in the snapshot, or "nothing changed" would prove
 * nothing: the snapshot before and after b (which must succeed) differ.
 */
static int control_seen(struct nl *n, uint8_t cmd, build_fn b,
			const struct ctx *c, const char *what)
{
	static struct text s0, s1;
	struct nlmsghdr *nlh;
	struct reply r;

	if (snapshot(n, &s0))
		return -1;
	nlh = msg_start(n, n->family, cmd, NLM_F_ACK, 1);
	b(nlh, c);
	nl_do(n, nlh, &r);
	if (snapshot(n, &s1))
		return -1;
	verdict(!r.err && (s0.len != s1.len || memcmp(s0.s, s1.s, s0.len)),
		"control: %s: %s%s%s, %s", what,
		r.err ? errname(r.err) : "accepted", r.msg[0] ? ": " : "", r.msg,
		s0.len != s1.len || memcmp(s0.s, s1.s, s0.len) ?
		"the snapshot shows it" : "the snapshot DOES NOT show it");
	return r.err ? -1 : 0;
}

/* A valid request that must succeed (setup and controls). */
static int control(struct nl *n, uint8_t cmd, build_fn b, const struct ctx *c,
		   const char *what)
{
	struct nlmsghdr *nlh = msg_start(n, n->family, cmd, NLM_F_ACK, 1);
	struct reply r;

	b(nlh, c);
	nl_do(n, nlh, &r);
	verdict(!r.err, "control: %s: %s%s%s", what,
		r.err ? errname(r.err) : "accepted", r.msg[0] ? ": " : "", r.msg);
	return r.err ? -1 : 0;
}

static int wait_state(struct nl *n, uint32_t want, double timeout_s)
{
	struct status st;
	int i;

	for (i = 0; i < timeout_s * 100; i++) {
		if (status_get(n, &st))
			return -1;
		if (st.state == want)
			return 0;
		usleep(10000);
	}
	return -1;
}

/* Add the continuous stream and start a trial; 0 once it runs. */
static int start_running(struct nl *n, const struct ctx *c)
{
	if (control(n, ADD, b_run_stream, c, "add a continuous stream for the running phase") ||
	    control(n, START, b_nothing, c, "start a trial"))
		return -1;
	if (wait_state(n, BMGEN_TRIAL_RUNNING, 5)) {
		verdict(0, "control: the trial did not reach RUNNING");
		return -1;
	}
	return 0;
}

static int stop_running(struct nl *n, const struct ctx *c)
{
	int ret = control(n, BMGEN_CMD_TRIAL_STOP, b_nothing, c, "stop the trial");

	return control(n, DEL, b_del_run, c, "delete the continuous stream") ||
	       ret;
}

/* A socket in a fresh network namespace (the process stays in its own). */
static int open_foreign(struct nl *f)
{
	int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC), ret = -1;

	if (self < 0)
		return -1;
	if (unshare(CLONE_NEWNET) == 0) {
		ret = nl_open(f);
		if (setns(self, CLONE_NEWNET)) {
			fprintf(stderr, "bmgen-nlcheck: setns back: %s\n",
				strerror(errno));
			exit(2);
		}
	} else {
		fprintf(stderr, "bmgen-nlcheck: unshare(CLONE_NEWNET): %s\n",
			strerror(errno));
	}
	close(self);
	return ret;
}

/* --- privileges ---------------------------------------------------------------- */

static int cap_effective(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	return !!(d[cap / 32].effective & (1U << (cap % 32)));
}

/* "nobody": uid/gid 65534, no supplementary groups, hence no capabilities. */
static int drop_nobody(void)
{
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
		return -1;
	return getuid() == 65534 && geteuid() == 65534 ? 0 : -1;
}

/* "nocap": still uid 0, without CAP_NET_ADMIN (bounding set and all sets). */
static int drop_net_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	uint32_t bit = 1U << (CAP_NET_ADMIN % 32);

	if (prctl(PR_CAPBSET_DROP, CAP_NET_ADMIN, 0, 0, 0) ||
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) ||
	    syscall(SYS_capget, &h, d))
		return -1;
	d[CAP_NET_ADMIN / 32].effective &= ~bit;
	d[CAP_NET_ADMIN / 32].permitted &= ~bit;
	d[CAP_NET_ADMIN / 32].inheritable &= ~bit;
	if (syscall(SYS_capset, &h, d))
		return -1;
	return getuid() == 0 ? 0 : -1;
}

/*
 * Read-only requests that take no lock of the data path work for anyone: a
 * status and the port and stream dumps.  The statistics and the frame log
 * take each stream's receive lock, which the receive path takes for every
 * frame: EPERM (a user could otherwise slow a trial down).
 */
static void unpriv_reads(struct nl *n, const char *pfx, const struct text *root)
{
	static const struct { uint8_t cmd; const char *name; int want; } d[] = {
		{ BMGEN_CMD_PORT_GET, "port_dump", 0 },
		{ BMGEN_CMD_STREAM_GET, "stream_dump", 0 },
		{ BMGEN_CMD_STATS_GET, "stats_dump", EPERM },
		{ BMGEN_CMD_LOG_GET, "log_dump", EPERM },
	};
	struct text t = { 0 };
	struct reply r;
	size_t i;

	nl_do(n, msg_start(n, n->family, BMGEN_CMD_STATUS_GET, NLM_F_ACK, 1), &r);
	verdict(!r.err, "%sstatus_get: reads: %s", pfx, r.err ? errname(r.err) : "works");
	for (i = 0; i < N(d); i++) {
		int ret = nl_talk(n, msg_start(n, n->family, d[i].cmd,
					       NLM_F_DUMP, 1), &r, NULL, NULL);

		if (!d[i].want)
			verdict(!ret && !r.err, "%s%s: reads: %s", pfx,
				d[i].name, ret ? strerror(-ret) : r.err ?
				errname(r.err) : "works");
		else
			verdict(ret == -d[i].want || r.err == d[i].want,
				"%s%s: %s (want %s)", pfx, d[i].name,
				ret ? strerror(-ret) : errname(r.err),
				errname(d[i].want));
	}
	/* and sees what root sees */
	if (snapshot(n, &t))
		verdict(0, "%ssnapshot: no snapshot", pfx);
	else
		verdict(t.len == root->len && !memcmp(t.s, root->s, t.len),
			"%ssnapshot: reads the same state as root", pfx);
	free(t.s);
}

/*
 * In a child: drop privileges (variant), open a new socket, check the
 * reads and every changing request of phase p.  Returns the failures.
 */
static void unpriv_child(const char *variant, enum phase p,
			 const struct ctx *c, const struct text *root)
{
	char pfx[32];
	struct nl n;
	pid_t pid;
	size_t i;
	int st;

	snprintf(pfx, sizeof(pfx), "%s/", variant);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		verdict(0, "%sfork: %s", pfx, strerror(errno));
		return;
	}
	if (!pid) {
		int ret = strcmp(variant, "nobody") ? drop_net_admin() : drop_nobody();

		verdict(!ret && cap_effective(CAP_NET_ADMIN) == 0,
			"%sdrop: uid %u, CAP_NET_ADMIN %s", pfx, getuid(),
			cap_effective(CAP_NET_ADMIN) ? "still effective" : "gone");
		if (ret || cap_effective(CAP_NET_ADMIN) != 0 || nl_open(&n))
			_exit(1);
		if (p == P_IDLE)
			unpriv_reads(&n, pfx, root);
		for (i = 0; i < N(priv_cases); i++)
			if (priv_cases[i].phase == p)
				run_case(&n, &n, &priv_cases[i], c, pfx);
		nl_close(&n);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		verdict(0, "%s: the unprivileged child failed (status %#x)",
			variant, st);
}

/* --- sequences ------------------------------------------------------------ */

/*
 * What one request cannot show: accepted boundary values and what they
 * mean, several messages in one datagram, a dump across changes, and the
 * namespace model seen from both sides.  Each sequence is one row of
 * abi.md's table ("seq" phase) and passes only if every check in it does.
 */

/* One stream from c->sp (rate always given, so that 0 is sent as 0). */
BUILD(b_spec)
{
	const struct sspec *p = &c->sp;

	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, p->id);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_IFINDEX, p->tx);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_RX_IFINDEX, p->rx);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, p->size);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_PATTERN, p->pattern);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_RATE_UFPS, p->rate);
	if (p->pattern == BMGEN_PAT_COUNT)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_COUNT, p->count);
	if (p->pattern == BMGEN_PAT_BURST) {
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, p->burst_len);
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_GAP_NS, p->burst_gap);
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_COUNT, p->burst_count);
	}
	if (p->start)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_START_NS, p->start);
}
BUILD(b_spec_del) { mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->sp.id); }
BUILD(b_delay) { mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_DELAY_NS, c->delay); }

/* 1000 frames of 128 B at 1000 fps on tx -> rx, as stream id. */
static struct sspec spec(uint32_t id, uint32_t tx, uint32_t rx)
{
	struct sspec p = {
		.id = id, .tx = tx, .rx = rx, .size = 128,
		.pattern = BMGEN_PAT_COUNT, .rate = 1000ULL * 1000000,
		.count = 1000,
	};

	return p;
}

/* One request on n; its errno (0: accepted), the answer in *r. */
static int ask(struct nl *n, uint8_t cmd, build_fn b, const struct ctx *c,
	       struct reply *r)
{
	struct nlmsghdr *nlh = msg_start(n, n->family, cmd, NLM_F_ACK, 1);

	b(nlh, c);
	return nl_do(n, nlh, r);
}

/* The check of one sequence step: "ok"/"not ok" SEQ: WHAT. */
#define STEP(ok, seq, fmt, ...) \
	do { \
		int _ok = (ok); \
		verdict(_ok, "%s: " fmt, seq, ##__VA_ARGS__); \
		if (!_ok) \
			failed++; \
	} while (0)

/* A request that must get errno want, as one step. */
#define EXPECT(seq, n, cmd, b, c, want, what) \
	do { \
		struct reply _r; \
		int _e = ask(n, cmd, b, c, &_r); \
		STEP(_e == (want), seq, "%s: %s%s%s (want %s)", what, \
		     errname(_e), _r.msg[0] ? ": " : "", _r.msg, \
		     errname(want)); \
	} while (0)

/* Per-stream statistics of one STATS_GET dump. */
struct sstats {
	unsigned int found;
	uint64_t tx, rx_unique;
	uint32_t max_batch;
};

static void sstats_cb(const struct nlmsghdr *h, void *data)
{
	struct sstats *st = data;
	const struct nlattr *a, *b;

	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != BMGEN_A_STATS)
			continue;
		st->found++;
		mnl_attr_for_each_nested(b, a) {
			switch (mnl_attr_get_type(b)) {
			case BMGEN_STATS_TX_FRAMES: st->tx = mnl_attr_get_u64(b); break;
			case BMGEN_STATS_RX_UNIQUE: st->rx_unique = mnl_attr_get_u64(b); break;
			case BMGEN_STATS_TX_MAX_BATCH: st->max_batch = mnl_attr_get_u32(b); break;
			}
		}
	}
}

/* Statistics of stream id (found = 0: the dump has no such stream). */
static int stats_get(struct nl *n, uint32_t id, struct sstats *st)
{
	struct nlmsghdr *nlh = msg_start(n, n->family, BMGEN_CMD_STATS_GET,
					 NLM_F_DUMP, 1);
	struct reply r;

	memset(st, 0, sizeof(*st));
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
	return nl_talk(n, nlh, &r, sstats_cb, st) || r.err;
}

/* Stream id's STATS_GET dump as text (the histogram too). */
static int stats_text(struct nl *n, uint32_t id, struct text *t)
{
	struct nlmsghdr *nlh = msg_start(n, n->family, BMGEN_CMD_STATS_GET,
					 NLM_F_DUMP, 1);
	struct reply r;

	text_reset(t);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
	return nl_talk(n, nlh, &r, text_cb, t) || r.err;
}

static int same(const struct text *a, const struct text *b)
{
	return a->len == b->len && !memcmp(a->s, b->s, a->len);
}

/* A socket in the network namespace of a path (/run/netns/NAME), and the
 * ifindexes of p1 and p2 there.
 */
static int open_in_netns(const char *path, struct nl *f, uint32_t *p1,
			 uint32_t *p2)
{
	int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;

	if (self < 0 || fd < 0) {
		fprintf(stderr, "bmgen-nlcheck: %s: %s\n", path, strerror(errno));
	} else if (setns(fd, CLONE_NEWNET) == 0) {
		*p1 = if_nametoindex("p1");
		*p2 = if_nametoindex("p2");
		ret = *p1 && *p2 ? nl_open(f) : -1;
		if (setns(self, CLONE_NEWNET)) {
			fprintf(stderr, "bmgen-nlcheck: setns back: %s\n",
				strerror(errno));
			exit(2);
		}
	}
	if (fd >= 0)
		close(fd);
	if (self >= 0)
		close(self);
	return ret;
}

/* Trial state on n after up to timeout_s: the first of want seen, or the last. */
static uint32_t wait_for(struct nl *n, uint32_t want, double timeout_s,
			 struct status *st)
{
	int i;

	for (i = 0; i <= timeout_s * 100; i++) {
		if (status_get(n, st))
			return (uint32_t)-1;
		if (st->state == want)
			break;
		usleep(10000);
	}
	return st->state;
}

typedef int (*seq_fn)(struct nl *n, struct ctx *c, const char *seq);

/* The 1 h bounds are accepted: a start delay, a stream start, a burst
 * gap of exactly 1 h, and a count stream that lasts 1 h.
 */
static int seq_hour(struct nl *n, struct ctx *c, const char *seq)
{
	struct status st;
	struct sstats ss;
	int failed = 0;

	c->delay = HOUR_NS;
	EXPECT(seq, n, START, b_delay, c, 0, "TRIAL_START 1 h after now");
	STEP(wait_for(n, BMGEN_TRIAL_ARMED, 0, &st) == BMGEN_TRIAL_ARMED,
	     seq, "the trial is armed (state %u)", st.state);
	EXPECT(seq, n, STOP, b_nothing, c, 0, "and stopped");
	c->sp = spec(c->free_id, c->tx, c->rx);
	c->sp.start = HOUR_NS;
	EXPECT(seq, n, ADD, b_spec, c, 0, "a stream that starts 1 h after the epoch");
	EXPECT(seq, n, DEL, b_spec_del, c, 0, "deleted");
	c->sp = spec(c->free_id, c->tx, c->rx);
	c->sp.pattern = BMGEN_PAT_BURST;
	c->sp.burst_len = 10;
	c->sp.burst_count = 2;
	c->sp.burst_gap = HOUR_NS;
	EXPECT(seq, n, ADD, b_spec, c, 0, "a burst gap of 1 h");
	EXPECT(seq, n, DEL, b_spec_del, c, 0, "deleted");
	c->sp = spec(c->free_id, c->tx, c->rx);
	c->sp.count = 3600 * 1000;
	EXPECT(seq, n, ADD, b_spec, c, 0, "3.6 M frames at 1000 fps: a 1 h stream");
	EXPECT(seq, n, START, b_nothing, c, 0, "its trial starts");
	wait_for(n, BMGEN_TRIAL_RUNNING, 5, &st);
	usleep(300000);
	stats_get(n, c->sp.id, &ss);
	STEP(wait_for(n, BMGEN_TRIAL_RUNNING, 0, &st) == BMGEN_TRIAL_RUNNING &&
	     ss.tx > 0 && ss.tx < c->sp.count, seq,
	     "it runs: state %u, %llu frames sent", st.state,
	     (unsigned long long)ss.tx);
	EXPECT(seq, n, STOP, b_nothing, c, 0, "and stops");
	EXPECT(seq, n, DEL, b_spec_del, c, 0, "deleted");
	return failed;
}

/* Rate 0 is accepted and means unpaced: all due at once, sent in batches. */
static int seq_rate_0(struct nl *n, struct ctx *c, const char *seq)
{
	struct status st;
	struct sstats ss;
	int failed = 0;

	c->sp = spec(c->free_id, c->tx, c->rx);
	c->sp.rate = 0;
	EXPECT(seq, n, ADD, b_spec, c, 0, "1000 frames at rate 0");
	EXPECT(seq, n, START, b_nothing, c, 0, "its trial starts");
	STEP(wait_for(n, BMGEN_TRIAL_DONE, 20, &st) == BMGEN_TRIAL_DONE, seq,
	     "the trial is done (state %u)", st.state);
	stats_get(n, c->sp.id, &ss);
	STEP(ss.tx == 1000 && ss.max_batch > 1, seq,
	     "all %llu frames sent, up to %u back to back (unpaced: > 1)",
	     (unsigned long long)ss.tx, ss.max_batch);
	EXPECT(seq, n, DEL, b_spec_del, c, 0, "deleted");
	return failed;
}

/* BURST_COUNT 0 is accepted and means bursts until TRIAL_STOP. */
static int seq_endless_burst(struct nl *n, struct ctx *c, const char *seq)
{
	struct sstats a, b;
	struct status st;
	int failed = 0;

	c->sp = spec(c->free_id, c->tx, c->rx);
	c->sp.pattern = BMGEN_PAT_BURST;
	c->sp.burst_len = 5;
	c->sp.burst_count = 0;
	c->sp.burst_gap = 10000000;
	EXPECT(seq, n, ADD, b_spec, c, 0, "bursts of 5 every 10 ms, count 0");
	EXPECT(seq, n, START, b_nothing, c, 0, "its trial starts");
	wait_for(n, BMGEN_TRIAL_RUNNING, 5, &st);
	usleep(500000);
	stats_get(n, c->sp.id, &a);
	usleep(500000);
	stats_get(n, c->sp.id, &b);
	STEP(wait_for(n, BMGEN_TRIAL_RUNNING, 0, &st) == BMGEN_TRIAL_RUNNING &&
	     a.tx > 5 && b.tx > a.tx, seq,
	     "after 0.5 s %llu frames, after 1 s %llu, still running (state %u)",
	     (unsigned long long)a.tx, (unsigned long long)b.tx, st.state);
	EXPECT(seq, n, STOP, b_nothing, c, 0, "TRIAL_STOP ends it");
	STEP(wait_for(n, BMGEN_TRIAL_STOPPED, 0, &st) == BMGEN_TRIAL_STOPPED,
	     seq, "stopped (state %u)", st.state);
	EXPECT(seq, n, DEL, b_spec_del, c, 0, "deleted");
	return failed;
}

static unsigned int sys_mtu(const char *dev)
{
	char path[128];
	unsigned int mtu = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", dev);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%u", &mtu) != 1)
			mtu = 0;
		fclose(f);
	}
	return mtu;
}

/* A frame longer than the tx port's MTU is a stream (the MTU may change
 * before the trial) but no trial: TRIAL_START says EMSGSIZE; MTU + 18 runs.
 */
static int seq_mtu(struct nl *n, struct ctx *c, const char *seq)
{
	unsigned int mtu = sys_mtu(c->tx_name);
	struct text before = { 0 }, after = { 0 };
	struct status st;
	struct sstats ss;
	struct reply r;
	int failed = 0, e;

	STEP(mtu >= 1280 && mtu + 19 <= BMGEN_MAX_FRAME, seq,
	     "%s has MTU %u, so %u B is the largest untagged frame", c->tx_name,
	     mtu, mtu + 18);
	if (failed)
		return failed;
	c->sp = spec(c->free_id, c->tx, c->rx);
	c->sp.size = mtu + 19;
	EXPECT(seq, n, ADD, b_spec, c, 0, "a stream of MTU + 19 B frames");
	snapshot(n, &before);
	e = ask(n, START, b_nothing, c, &r);
	STEP(e == EMSGSIZE && strstr(r.msg, "exceed its tx port MTU"), seq,
	     "TRIAL_START: %s: %s (want EMSGSIZE)", errname(e), r.msg);
	snapshot(n, &after);
	STEP(same(&before, &after), seq, "and nothing changed");
	EXPECT(seq, n, DEL, b_spec_del, c, 0, "deleted");
	c->sp.size = mtu + 18;
	c->sp.count = 100;
	EXPECT(seq, n, ADD, b_spec, c, 0, "a stream of MTU + 18 B frames");
	EXPECT(seq, n, START, b_nothing, c, 0, "its trial starts");
	STEP(wait_for(n, BMGEN_TRIAL_DONE, 20, &st) == BMGEN_TRIAL_DONE, seq,
	     "the trial is done (state %u)", st.state);
	stats_get(n, c->sp.id, &ss);
	STEP(ss.tx == 100, seq, "%llu of 100 frames sent",
	     (unsigned long long)ss.tx);
	EXPECT(seq, n, DEL, b_spec_del, c, 0, "deleted");
	free(before.s);
	free(after.s);
	return failed;
}

/* Messages of one dump: ids of attribute attr in order, flags seen. */
struct dumpset {
	int attr;
	uint32_t ids[8192];
	unsigned int n, intr;
	unsigned int first_intr;	/* 1 + index of the first marked message */
};

static void dumpset_msg(struct dumpset *d, const struct nlmsghdr *h)
{
	const struct nlattr *a;

	if (h->nlmsg_flags & NLM_F_DUMP_INTR) {
		d->intr++;
		if (!d->first_intr)
			d->first_intr = d->n + 1;
	}
	if (h->nlmsg_type < NLMSG_MIN_TYPE)
		return;
	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == d->attr && d->n < N(d->ids))
			d->ids[d->n++] = mnl_attr_get_u32(a);
}

/* Read one datagram of n for seq into d; 1 once DONE came, 0, or -1. */
static int dump_read(struct nl *n, unsigned int seq, struct dumpset *d,
		     struct reply *r)
{
	ssize_t len = mnl_socket_recvfrom(n->sk, rxbuf, sizeof(rxbuf));
	const struct nlmsghdr *h = (const struct nlmsghdr *)rxbuf;
	int rem = (int)len, done = 0;

	if (len < 0)
		return -1;
	for (; mnl_nlmsg_ok(h, rem); h = mnl_nlmsg_next(h, &rem)) {
		if (h->nlmsg_seq != seq)
			continue;
		dumpset_msg(d, h);
		if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
			parse_ack(h, r);
			done = 1;
		}
	}
	return done;
}

static int has_id(const struct dumpset *d, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < d->n; i++)
		if (d->ids[i] == id)
			return 1;
	return 0;
}

static int ascending(const struct dumpset *d)
{
	unsigned int i;

	for (i = 1; i < d->n; i++)
		if (d->ids[i] <= d->ids[i - 1])
			return 0;
	return 1;
}

#define MANY_BASE	3000
#define MANY		600

/*
 * A STREAM_GET dump of 600 streams takes several datagrams of at most
 * 32 KiB.  The kernel builds each datagram when the reader has taken the
 * one before, so after the first is read the second already exists.
 * Then a stream already dumped and the second to last are deleted and
 * one is added beyond the last.  The rule: the dump goes by increasing
 * id, so it shows each stream at most once, misses what was deleted
 * ahead of it and shows what was added ahead of it, and the first message
 * built after the change (or the DONE) carries NLM_F_DUMP_INTR, so the
 * reader knows to dump again.  A dump without a change carries no mark.
 */
static int seq_dump_interleaved(struct nl *n, struct ctx *c, const char *seq)
{
	static struct dumpset d;
	struct text before = { 0 }, after = { 0 };
	uint32_t i, last, ahead = MANY_BASE + MANY - 2, added = MANY_BASE + MANY + 10;
	int gone_ahead = 0, gone_first = 0, have_added = 0;
	unsigned int part1, dseq;
	struct nlmsghdr *nlh;
	struct reply r;
	int failed = 0, ret, bad = 0;

	snapshot_cfg(n, &before);
	for (i = 0; i < MANY; i++) {
		c->sp = spec(MANY_BASE + i, c->tx, c->rx);
		bad += ask(n, ADD, b_spec, c, &r) != 0;
	}
	STEP(!bad, seq, "%u streams added, %d refused", MANY, bad);
	/* the dump, read one datagram at a time */
	memset(&d, 0, sizeof(d));
	d.attr = BMGEN_A_STREAM_ID;
	nlh = msg_start(n, n->family, SGET, NLM_F_DUMP, 1);
	dseq = nlh->nlmsg_seq;
	if (mnl_socket_sendto(n->sk, nlh, nlh->nlmsg_len) < 0)
		return failed + 1;
	ret = dump_read(n, dseq, &d, &r);
	part1 = d.n;
	last = d.n ? d.ids[d.n - 1] : 0;
	STEP(ret == 0 && !d.intr && last >= MANY_BASE && last + 300 < ahead,
	     seq, "the first datagram holds %u streams up to id %u, unmarked",
	     part1, last);
	if (failed)
		goto out;
	/* changes from another socket while the dump is under way */
	{
		struct nl m;

		if (nl_open(&m)) {
			failed++;
			goto out;
		}
		c->sp.id = ahead;
		gone_ahead = !ask(&m, DEL, b_spec_del, c, &r);
		c->sp.id = MANY_BASE;
		gone_first = !ask(&m, DEL, b_spec_del, c, &r);
		c->sp = spec(added, c->tx, c->rx);
		have_added = !ask(&m, ADD, b_spec, c, &r);
		nl_close(&m);
		STEP(gone_ahead && gone_first && have_added, seq,
		     "meanwhile %u and %u deleted, %u added", MANY_BASE,
		     ahead, added);
	}
	while ((ret = dump_read(n, dseq, &d, &r)) == 0)
		;
	STEP(ret == 1 && !r.err, seq, "the dump ends: %s", errname(r.err));
	STEP(d.intr == 1 && d.first_intr > part1, seq,
	     "NLM_F_DUMP_INTR on %u message(s), at message %u of %u (want one, after the first datagram's %u)",
	     d.intr, d.first_intr, d.n, part1);
	STEP(ascending(&d) && !has_id(&d, ahead) && has_id(&d, added) &&
	     has_id(&d, MANY_BASE), seq,
	     "ids ascend, once each; %u (deleted ahead) is missing, %u (added ahead) is there, %u (shown before) stayed",
	     ahead, added, MANY_BASE);
	/* and a dump without changes is not marked */
	memset(&d, 0, sizeof(d));
	d.attr = BMGEN_A_STREAM_ID;
	nlh = msg_start(n, n->family, SGET, NLM_F_DUMP, 1);
	dseq = nlh->nlmsg_seq;
	if (mnl_socket_sendto(n->sk, nlh, nlh->nlmsg_len) < 0)
		return failed + 1;
	while ((ret = dump_read(n, dseq, &d, &r)) == 0)
		;
	STEP(ret == 1 && !r.err && !d.intr && ascending(&d) &&
	     !has_id(&d, MANY_BASE) && !has_id(&d, ahead) && has_id(&d, added),
	     seq, "a dump with no change: %u streams, %u marked", d.n, d.intr);
out:
	bad = 0;
	for (i = 0; i < MANY; i++) {
		c->sp.id = MANY_BASE + i;
		if (!(c->sp.id == ahead && gone_ahead) &&
		    !(c->sp.id == MANY_BASE && gone_first))
			bad += ask(n, DEL, b_spec_del, c, &r) != 0;
	}
	c->sp.id = added;
	if (have_added)
		bad += ask(n, DEL, b_spec_del, c, &r) != 0;
	snapshot_cfg(n, &after);
	STEP(!bad && same(&before, &after), seq,
	     "all deleted again (%d refused), the configuration is as before", bad);
	free(before.s);
	free(after.s);
	return failed;
}

/* The answers to one request of a datagram. */
struct answer {
	unsigned int seq;
	int done;		/* ERROR or DONE came */
	int order;		/* 1 + its place among the final answers */
	unsigned int data, intr;
	struct reply r;
};

/*
 * Seven requests in one datagram: each gets its answer, in order, and each
 * sees the state the ones before it left.  A dump's first part comes at
 * once, the rest and its DONE only as the reader reads, so a second dump
 * in the same datagram finds the socket busy, and the first dump's DONE,
 * last, carries NLM_F_DUMP_INTR: a later request changed the streams.
 */
static int seq_batch(struct nl *n, struct ctx *c, const char *seq)
{
	static char buf[BUFSZ] __attribute__((aligned(8)));
	static const struct {
		uint8_t cmd;
		uint16_t flags;
		build_fn b;
		int err;
		const char *what;
	} m[] = {
		{ ADD, NLM_F_ACK, b_stream_ok, 0, "STREAM_ADD" },
		{ ADD, NLM_F_ACK, b_stream_ok, EEXIST, "the same STREAM_ADD" },
		{ SGET, NLM_F_DUMP, b_nothing, 0, "STREAM_GET dump" },
		{ ADD, NLM_F_ACK, b_frame_63, ERANGE, "STREAM_ADD of 63 B" },
		{ DEL, NLM_F_ACK, b_del_free, 0, "STREAM_DEL" },
		{ PGET, NLM_F_DUMP, b_nothing, EBUSY, "PORT_GET dump" },
		{ STATUS, NLM_F_ACK, b_nothing, 0, "STATUS_GET" },
	};
	struct answer a[N(m)];
	struct text before = { 0 }, after = { 0 };
	size_t off = 0, i;
	int failed = 0, finals = 0, dump_had_new = 0;

	snapshot_cfg(n, &before);
	memset(a, 0, sizeof(a));
	for (i = 0; i < N(m); i++) {
		struct nlmsghdr *nlh = msg_start_at(buf + off, n, n->family,
						    m[i].cmd, m[i].flags, 1);

		m[i].b(nlh, c);
		a[i].seq = nlh->nlmsg_seq;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	if (mnl_socket_sendto(n->sk, buf, off) < 0)
		return failed + 1;
	while (finals < (int)N(m)) {
		ssize_t len = mnl_socket_recvfrom(n->sk, rxbuf, sizeof(rxbuf));
		const struct nlmsghdr *h = (const struct nlmsghdr *)rxbuf;
		int rem = (int)len;

		if (len < 0)
			return failed + 1;
		for (; mnl_nlmsg_ok(h, rem); h = mnl_nlmsg_next(h, &rem)) {
			for (i = 0; i < N(m) && a[i].seq != h->nlmsg_seq; i++)
				;
			if (i == N(m))
				continue;
			if (h->nlmsg_flags & NLM_F_DUMP_INTR)
				a[i].intr++;
			if (h->nlmsg_type == NLMSG_ERROR ||
			    h->nlmsg_type == NLMSG_DONE) {
				parse_ack(h, &a[i].r);
				a[i].done++;
				a[i].order = ++finals;
			} else if (h->nlmsg_type >= NLMSG_MIN_TYPE) {
				const struct nlattr *at;

				a[i].data++;
				mnl_attr_for_each(at, h, sizeof(struct genlmsghdr))
					if (i == 2 &&
					    mnl_attr_get_type(at) == BMGEN_A_STREAM_ID &&
					    mnl_attr_get_u32(at) == c->free_id)
						dump_had_new = 1;
			}
		}
	}
	for (i = 0; i < N(m); i++) {
		/* the dump's DONE comes last, the others in order */
		int want_order = i == 2 ? (int)N(m) : (int)(i < 2 ? i + 1 : i);

		STEP(a[i].done == 1 && a[i].r.err == m[i].err &&
		     a[i].order == want_order, seq,
		     "%zu %s: %s%s%s, answer %d of %zu (want %s, answer %d)",
		     i + 1, m[i].what, errname(a[i].r.err),
		     a[i].r.msg[0] ? ": " : "", a[i].r.msg, a[i].order, N(m),
		     errname(m[i].err), want_order);
	}
	STEP(dump_had_new && a[2].intr, seq,
	     "the dump showed the stream message 1 added, and its DONE is marked NLM_F_DUMP_INTR (%u)",
	     a[2].intr);
	STEP(a[3].r.msg[0] && strstr(a[3].r.msg, RANGE), seq,
	     "message 4 has its own extack: \"%s\"", a[3].r.msg);
	STEP(a[6].data == 1, seq, "STATUS_GET answered with %u message(s)",
	     a[6].data);
	snapshot_cfg(n, &after);
	STEP(same(&before, &after), seq, "the configuration is as before");
	free(before.s);
	free(after.s);
	return failed;
}

static void count_cb(const struct nlmsghdr *h, void *data)
{
	(void)h;
	++*(unsigned int *)data;
}

/* The number of messages of one dump of cmd (UINT_MAX: it failed). */
static unsigned int dump_count(struct nl *n, uint8_t cmd)
{
	unsigned int k = 0;
	struct reply r;

	if (nl_talk(n, msg_start(n, n->family, cmd, NLM_F_DUMP, 1), &r,
		    count_cb, &k) || r.err)
		return (unsigned int)-1;
	return k;
}

/* From a fresh netns: STATUS_GET counts nothing, every dump is empty. */
static int seq_netns_empty(struct nl *n, struct ctx *c, const char *seq)
{
	struct status rs, fs;
	struct nl f;
	int failed = 0;

	(void)c;
	if (open_foreign(&f))
		return 1;
	status_get(n, &rs);
	status_get(&f, &fs);
	STEP(rs.nports >= 2 && rs.nstreams >= 1 && !fs.nports && !fs.nstreams,
	     seq, "STATUS_GET: %u ports, %u streams here; %u, %u there",
	     rs.nports, rs.nstreams, fs.nports, fs.nstreams);
	STEP(!dump_count(&f, PGET) && !dump_count(&f, SGET) &&
	     !dump_count(&f, XGET) && dump_count(n, SGET), seq,
	     "the PORT_GET, STREAM_GET and STATS_GET dumps there are empty");
	nl_close(&f);
	return failed;
}

/*
 * A second namespace with its own ports (p1, p2 in --peer NS): each side
 * sees and changes only its own ports, streams and trial, stream ids are
 * shared; at the end the namespace goes away mid-trial, which ends that
 * trial (FAILED, ENODEV) and leaves this namespace's objects alone.
 */
/* Write bmgen.ko's netns_max_streams; 0 or -1. */
static int set_netns_max_streams(int v)
{
	FILE *f = fopen("/sys/module/bmgen/parameters/netns_max_streams", "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", v) > 0 ? 0 : -1;
	return fclose(f) ? -1 : ret;
}

static int seq_netns_peer(struct nl *n, struct ctx *c, const char *seq)
{
	char path[256];
	struct text rb = { 0 }, ra = { 0 }, xb = { 0 }, xa = { 0 };
	struct text cb = { 0 }, ca = { 0 };
	struct ctx pc = *c;
	struct status st;
	struct sstats ss;
	struct nl p;
	int failed = 0;

	snprintf(path, sizeof(path), "/run/netns/%s", c->peer_ns);
	if (open_in_netns(path, &p, &pc.tx, &pc.rx)) {
		STEP(0, seq, "a socket in %s, with p1 and p2", path);
		return failed;
	}
	snapshot(n, &rb);
	snapshot_cfg(n, &cb);
	stats_text(n, c->sid, &xb);
	pc.spare = pc.tx;
	EXPECT(seq, &p, ATT, b_port_spare, &pc, 0, "there: attach p1");
	pc.spare = pc.rx;
	EXPECT(seq, &p, ATT, b_port_spare, &pc, 0, "there: attach p2");
	pc.sp = spec(c->sid, pc.tx, pc.rx);
	EXPECT(seq, &p, ADD, b_spec, &pc, EEXIST, "there: a stream with an id used here");
	pc.sp = spec(c->free_id + 2, pc.tx, pc.rx);
	pc.sp.count = 100;
	EXPECT(seq, &p, ADD, b_spec, &pc, 0, "there: stream P, p1 -> p2");
	/* the host's ids are not a container's to take */
	STEP(!set_netns_max_streams(1), seq, "netns_max_streams = 1");
	pc.sp = spec(c->free_id + 4, pc.tx, pc.rx);
	EXPECT(seq, &p, ADD, b_spec, &pc, ENOSPC, "there: a second stream beyond netns_max_streams");
	STEP(!set_netns_max_streams(BMGEN_MAX_STREAMS / 2), seq,
	     "netns_max_streams = %d again", BMGEN_MAX_STREAMS / 2);
	pc.sp = spec(c->free_id + 2, pc.tx, pc.rx);
	pc.sp.count = 100;
	snapshot(n, &ra);
	STEP(same(&rb, &ra), seq, "here: STATUS_GET and the dumps are unchanged");
	EXPECT(seq, n, DEL, b_spec_del, &pc, ENOENT, "here: delete P");
	stats_get(n, pc.sp.id, &ss);
	STEP(!ss.found, seq, "here: the STATS_GET dump of P is empty");
	status_get(&p, &st);
	STEP(st.nports == 2 && st.nstreams == 1 && dump_count(&p, SGET) == 1,
	     seq, "there: %u ports, %u streams", st.nports, st.nstreams);
	EXPECT(seq, &p, START, b_nothing, &pc, 0, "there: a trial of P");
	STEP(wait_for(&p, BMGEN_TRIAL_DONE, 20, &st) == BMGEN_TRIAL_DONE, seq,
	     "there: the trial is done (state %u)", st.state);
	stats_get(&p, pc.sp.id, &ss);
	STEP(ss.tx == 100 && ss.rx_unique == 100, seq,
	     "there: P sent %llu, received %llu of 100",
	     (unsigned long long)ss.tx, (unsigned long long)ss.rx_unique);
	stats_text(n, c->sid, &xa);
	STEP(xb.len && same(&xb, &xa), seq,
	     "here: stream %u's statistics are untouched by that trial", c->sid);
	EXPECT(seq, &p, DEL, b_nothing, &pc, 0, "there: delete all streams");
	snapshot_cfg(n, &ca);
	STEP(dump_count(&p, SGET) == 0 && same(&cb, &ca), seq,
	     "there: none left; here: all still there");
	/* the namespace goes away while its trial runs */
	pc.sp = spec(c->free_id + 3, pc.tx, pc.rx);
	pc.sp.pattern = BMGEN_PAT_CONTINUOUS;
	pc.sp.rate = RUN_RATE_UFPS;
	EXPECT(seq, &p, ADD, b_spec, &pc, 0, "there: a continuous stream");
	/* the host may stop any namespace's trial, which could otherwise
	 * hold the module's one trial for as long as it liked */
	EXPECT(seq, &p, START, b_nothing, &pc, 0, "there: its trial starts");
	STEP(wait_for(&p, BMGEN_TRIAL_RUNNING, 5, &st) == BMGEN_TRIAL_RUNNING,
	     seq, "there: it runs (state %u)", st.state);
	EXPECT(seq, n, BMGEN_CMD_TRIAL_STOP, b_nothing, c, 0,
	       "here, the host: stop that namespace's trial");
	STEP(wait_for(&p, BMGEN_TRIAL_STOPPED, 5, &st) == BMGEN_TRIAL_STOPPED,
	     seq, "there: the trial is stopped (state %u)", st.state);
	EXPECT(seq, &p, START, b_nothing, &pc, 0, "there: its trial starts again");
	STEP(wait_for(&p, BMGEN_TRIAL_RUNNING, 5, &st) == BMGEN_TRIAL_RUNNING,
	     seq, "there: it runs (state %u)", st.state);
	nl_close(&p);
	errno = 0;
	{
		int gone = !umount2(path, MNT_DETACH) && !unlink(path);

		STEP(gone, seq, "delete netns %s: %s", c->peer_ns,
		     gone ? "done" : strerror(errno));
	}
	wait_for(n, BMGEN_TRIAL_FAILED, 20, &st);
	STEP(st.state == BMGEN_TRIAL_FAILED && st.error == -ENODEV, seq,
	     "here: the trial failed with %d (state %u; want FAILED, -ENODEV)",
	     st.error, st.state);
	snapshot_cfg(n, &ca);
	STEP(same(&cb, &ca), seq, "here: the ports and streams are as before");
	free(cb.s);
	free(ca.s);
	free(rb.s);
	free(ra.s);
	free(xb.s);
	free(xa.s);
	return failed;
}

static const struct sequence {
	const char *name;
	seq_fn run;
	const char *what;
} sequences[] = {
	{ "accept_1h_bounds", seq_hour, "TRIAL_START delay, STREAM_START_NS and BURST_GAP_NS of exactly 1 h, and a 1 h count stream (3.6 M frames at 1000 fps), are accepted; the trials arm or run until stopped" },
	{ "accept_rate_0_unpaced", seq_rate_0, "RATE_UFPS 0 is accepted and unpaced: 1000 frames sent, more than one back to back" },
	{ "accept_endless_burst", seq_endless_burst, "BURST_COUNT 0 is accepted: still sending after 1 s of 5-frame bursts every 10 ms, until TRIAL_STOP" },
	{ "frame_over_mtu", seq_mtu, "a stream of MTU + 19 B frames is accepted, its TRIAL_START refused (EMSGSIZE, extack, nothing changes); MTU + 18 B runs" },
	{ "several_messages_one_datagram", seq_batch, "seven requests in one datagram each get their own answer in order; a second dump in it gets EBUSY; the first dump's DONE comes last, marked NLM_F_DUMP_INTR" },
	{ "dump_interleaved_with_changes", seq_dump_interleaved, "a 600-stream STREAM_GET dump across a delete ahead, a delete behind and an add ahead: ids ascend once each, the first message built after the change (one) carries NLM_F_DUMP_INTR; an undisturbed dump none" },
	{ "netns_sees_nothing", seq_netns_empty, "from a fresh netns: STATUS_GET counts 0 ports and 0 streams, the PORT, STREAM and STATS dumps are empty" },
	{ "netns_peer", seq_netns_peer, "a second netns with its own ports: shared stream ids (EEXIST), beyond netns_max_streams ENOSPC, each side sees, deletes and starts only its own streams, its trial leaves the other's statistics alone; the host stops its running trial; deleted mid-trial, the trial fails with ENODEV and nothing else changes" },
};

static void run_sequences(struct nl *n, struct ctx *c)
{
	size_t i;

	printf("# phase: sequences\n");
	for (i = 0; i < N(sequences); i++) {
		struct ctx k = *c;
		int failed = sequences[i].run(n, &k, sequences[i].name);

		n_cases++;
		verdict(!failed, "%s: %d step(s) failed", sequences[i].name,
			failed);
	}
}

/* --- setup ------------------------------------------------------------------- */

static int ifindex(const char *name, const char *what, uint32_t *idx)
{
	*idx = if_nametoindex(name);
	if (!*idx)
		fprintf(stderr, "bmgen-nlcheck: %s device %s: not found\n",
			what, name);
	return *idx ? 0 : -1;
}

static int check_ports(struct nl *n, struct ctx *c)
{
	static struct idset ports, streams;
	uint32_t i;

	if (dump_ids(n, BMGEN_CMD_PORT_GET, BMGEN_A_PORT_IFINDEX, &ports) ||
	    dump_ids(n, BMGEN_CMD_STREAM_GET, BMGEN_A_STREAM_ID, &streams))
		return -1;
	if (!ports.has[c->tx] || !ports.has[c->rx] || !streams.n) {
		fprintf(stderr, "bmgen-nlcheck: needs tx and rx attached and a stream (a bmgen-trial run leaves that)\n");
		return -1;
	}
	if (ports.has[c->spare] || ports.has[c->enslaved]) {
		fprintf(stderr, "bmgen-nlcheck: the spare and enslaved devices must not be attached\n");
		return -1;
	}
	if (streams.has[c->free_id] || streams.has[c->run_id]) {
		fprintf(stderr, "bmgen-nlcheck: stream ids %u/%u are in use\n",
			c->free_id, c->run_id);
		return -1;
	}
	for (i = 1; i < BMGEN_MAX_STREAMS; i++)
		if (streams.has[i])
			break;
	c->sid = i;
	return 0;
}

static void list_table(void)
{
	size_t i;

	printf("| case | phase | request | errno | extack (contains) |\n");
	printf("|---|---|---|---|---|\n");
	for (i = 0; i < N(cases); i++)
		printf("| %s | %s | %s%s | %s | %s |\n", cases[i].name,
		       phase_name[cases[i].phase], cmd_name(cases[i].cmd),
		       cases[i].flags & F_DUMP ? " dump" : "",
		       errname(cases[i].err),
		       cases[i].msg ? cases[i].msg : "— (none)");
	for (i = 0; i < N(sequences); i++)
		printf("| %s | sequence | %s | | |\n", sequences[i].name,
		       sequences[i].what);
	for (i = 0; i < N(priv_cases); i++)
		printf("| %s (unprivileged) | %s | %s | %s | — |\n",
		       priv_cases[i].name, phase_name[priv_cases[i].phase],
		       cmd_name(priv_cases[i].cmd), errname(priv_cases[i].err));
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bmgen-nlcheck [--tx DEV] [--rx DEV] [--spare DEV] [--enslaved DEV]\n"
		   "                     [--foreign NAME] [--peer NETNS]\n"
		   "                     [--empty | --privilege | --list]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tx", required_argument, NULL, 't' },
		{ "rx", required_argument, NULL, 'r' },
		{ "spare", required_argument, NULL, 's' },
		{ "enslaved", required_argument, NULL, 'e' },
		{ "foreign", required_argument, NULL, 'f' },
		{ "peer", required_argument, NULL, 'p' },
		{ "empty", no_argument, NULL, 'E' },
		{ "privilege", no_argument, NULL, 'P' },
		{ "list", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *rx_name = "t2", *enslaved_name = "x2";
	struct ctx c = {
		.tx_name = "t1", .spare_name = "x1", .foreign_name = "d1",
		.free_id = FREE_ID_BASE, .run_id = FREE_ID_BASE + 1,
		.peer_ns = "nlc",
	};
	struct text root = { 0 }, after = { 0 };
	int opt, mode = 0;
	struct nl n, f;
	struct status st;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 't': c.tx_name = optarg; break;
		case 'r': rx_name = optarg; break;
		case 's': c.spare_name = optarg; break;
		case 'e': enslaved_name = optarg; break;
		case 'f': c.foreign_name = optarg; break;
		case 'p': c.peer_ns = optarg; break;
		case 'E': case 'P': case 'L': mode = opt; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (mode == 'L') {
		list_table();
		return 0;
	}
	counts = mmap(NULL, 3 * sizeof(int), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED)
		return 2;
	if (ifindex(c.tx_name, "tx", &c.tx) || ifindex(rx_name, "rx", &c.rx) ||
	    ifindex(c.spare_name, "spare", &c.spare) ||
	    ifindex(enslaved_name, "enslaved", &c.enslaved) ||
	    ifindex("lo", "loopback", &c.lo))
		return 2;
	if (if_nametoindex(c.foreign_name)) {
		fprintf(stderr, "bmgen-nlcheck: %s exists in this netns\n",
			c.foreign_name);
		return 2;
	}
	if (nl_open(&n) || status_get(&n, &st))
		return 2;
	if (st.state == BMGEN_TRIAL_ARMED || st.state == BMGEN_TRIAL_RUNNING) {
		fprintf(stderr, "bmgen-nlcheck: a trial is running\n");
		return 2;
	}
	printf("# bmgen-nlcheck: %u ports, %u streams, trial state %u\n",
	       st.nports, st.nstreams, st.state);

	if (mode == 'E') {
		if (st.nports || st.nstreams) {
			fprintf(stderr, "bmgen-nlcheck: --empty needs a module without ports and streams\n");
			return 2;
		}
		run_phase(&n, &n, P_EMPTY, &c);
	} else {
		if (check_ports(&n, &c))
			return 2;
		if (snapshot(&n, &root))
			return 2;
	}

	if (!mode) {
		/* the base requests are valid: each case differs in one thing */
		if (control_seen(&n, ADD, b_stream_ok, &c, "the base STREAM_ADD is accepted") ||
		    control_seen(&n, DEL, b_del_free, &c, "and deleted again") ||
		    control_seen(&n, ADD, b_rx_only_ok, &c, "an rx-only STREAM_ADD (rx port, no tx port) is accepted") ||
		    control_seen(&n, DEL, b_del_free, &c, "and deleted again") ||
		    control_seen(&n, ATT, b_port_spare_name, &c, "PORT_ATTACH of the spare device is accepted") ||
		    control_seen(&n, DET, b_port_spare, &c, "and detached again"))
			goto out;
		run_phase(&n, &n, P_IDLE, &c);
		if (open_foreign(&f)) {
			verdict(0, "control: a socket in a fresh netns");
		} else {
			static struct idset ports;

			dump_ids(&f, BMGEN_CMD_PORT_GET, BMGEN_A_PORT_IFINDEX, &ports);
			verdict(!ports.n, "control: the port dump in a fresh netns shows %u ports (want 0)",
				ports.n);
			run_phase(&n, &f, P_FOREIGN, &c);
			nl_close(&f);
		}
		if (!start_running(&n, &c)) {
			run_phase(&n, &n, P_RUNNING, &c);
			if (open_foreign(&f)) {
				verdict(0, "control: a socket in a fresh netns");
			} else {
				run_phase(&n, &f, P_RUNNING_FOREIGN, &c);
				nl_close(&f);
			}
		}
		stop_running(&n, &c);
		run_sequences(&n, &c);
	} else if (mode == 'P') {
		unpriv_child("nobody", P_IDLE, &c, &root);
		unpriv_child("nocap", P_IDLE, &c, &root);
		if (snapshot(&n, &after) ||
		    after.len != root.len || memcmp(after.s, root.s, root.len))
			verdict(0, "root: the state changed while unprivileged callers tried");
		if (!start_running(&n, &c)) {
			unpriv_child("nobody", P_RUNNING, &c, &root);
			unpriv_child("nocap", P_RUNNING, &c, &root);
			if (status_get(&n, &st) || st.state != BMGEN_TRIAL_RUNNING)
				verdict(0, "root: the trial stopped");
		}
		stop_running(&n, &c);
		/* the requests refused with EPERM were valid ones */
		if (!control(&n, ATT, b_port_spare_name, &c, "root may attach the spare device"))
			control(&n, DET, b_port_spare, &c, "and detach it");
		if (!control(&n, ADD, b_stream_ok, &c, "root may add the stream"))
			control(&n, DEL, b_del_free, &c, "and delete it");
	}
out:
	nl_close(&n);
	printf("# %d cases; %d checks passed, %d failed\n", n_cases, n_ok, n_fail);
	free(root.s);
	free(after.s);
	return n_fail ? 1 : 0;
}
