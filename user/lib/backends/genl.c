// SPDX-License-Identifier: GPL-2.0
/*
 * The module's generic netlink family over libmnl: the channel (socket,
 * the family's and its groups' ids), a request's replies with their
 * extack error messages, and the module's status.  The commands
 * (genl_port.c, genl_stream.c), the dumps (genl_stats.c) and the waits
 * (genl_wait.c) are built on this machinery (genl_int.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/bmgen.h>

#include "genl_int.h"

struct nlmsghdr *bm_genl_msg(struct bm_genl *g, uint16_t type,
			     uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;

	/* libmnl 1.0.4 (Debian 12) leaves attribute padding as it finds
	 * it: without this, stale reply bytes went to the kernel (valgrind) */
	memset(g->buf, 0, BM_GENL_BUFSZ);
	nlh = mnl_nlmsg_put_header(g->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++g->seq;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = BMGEN_GENL_VERSION;
	if (type != GENL_ID_CTRL)
		mnl_attr_put_u32(nlh, BMGEN_A_VERSION, BMGEN_GENL_VERSION);
	return nlh;
}

/* NLMSG_ERROR: the errno and the kernel's extack message, if any. */
static int bm_genl_err_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct bm_genl_req *req = data;
	const struct nlattr *a;
	const char *msg = NULL;
	unsigned int off;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
		return MNL_CB_ERROR;
	if (!e->error)
		return MNL_CB_STOP;
	/* extended ACK TLVs follow the (capped) original message */
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		mnl_attr_for_each(a, nlh, off) {
			if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
				msg = mnl_attr_get_str(a);
		}
	}
	if (req->err)
		bm_errorf(req->err, "%s", msg ? msg : strerror(-e->error));
	errno = -e->error;
	return MNL_CB_ERROR;
}

static int bm_genl_noop_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

/*
 * NLMSG_DONE: the end of a dump, or, when its errno is negative, a dump
 * the module ended with an error part of the way (libmnl ignores it: a
 * dump cut short would read as a short but complete answer).
 */
static int bm_genl_done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	const struct nlattr *a;
	const char *msg = NULL;
	int e;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(e))
		return MNL_CB_STOP;
	memcpy(&e, mnl_nlmsg_get_payload(nlh), sizeof(e));
	if (e >= 0)
		return MNL_CB_STOP;
	/* the module's extack message follows the errno */
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		mnl_attr_for_each(a, nlh, sizeof(e)) {
			if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
			    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				msg = mnl_attr_get_str(a);
		}
	}
	if (req->err && !req->err->msg[0])
		bm_errorf(req->err, "%s", msg ? msg : strerror(-e));
	errno = -e;
	return MNL_CB_ERROR;
}

/* Send nlh and run its replies through req; 0 or -errno with err set. */
int bm_genl_talk(struct bm_genl *g, struct nlmsghdr *nlh,
		 struct bm_genl_req *req)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_NOOP] = bm_genl_noop_cb,
		[NLMSG_ERROR] = bm_genl_err_cb,
		[NLMSG_DONE] = bm_genl_done_cb,
	};
	unsigned int seq = nlh->nlmsg_seq;
	bool ours = g->family && nlh->nlmsg_type == g->family;
	ssize_t n;
	int ret;

	if (mnl_socket_sendto(g->nl, nlh, nlh->nlmsg_len) < 0)
		return bm_errorf(req->err, "netlink send: %s", strerror(errno)),
		       -errno;
	for (;;) {
		n = mnl_socket_recvfrom(g->nl, g->buf, BM_GENL_BUFSZ);
		if (n < 0)
			return bm_errorf(req->err, "netlink receive: %s",
					 strerror(errno)), -errno;
		errno = 0;
		ret = mnl_cb_run2(g->buf, n, seq, g->portid, req->data_cb, req,
				  ctl, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_STOP)
			return 0;
		if (ret < 0) {
			int e = errno ? errno : EPROTO;

			/* the family id we resolved answers no more: the
			 * module was unloaded (say so, not ENOENT; the core's
			 * error has no extack message) */
			if (e == ENOENT && ours && req->err &&
			    !strcmp(req->err->msg, strerror(ENOENT)))
				bm_errorf(req->err, "bmgen.ko was unloaded (its "
					  "generic netlink family is gone)");
			if (req->err && !req->err->msg[0])
				bm_errorf(req->err, "%s", strerror(e));
			return -e;
		}
	}
}

/* The id of the multicast group named want in groups, or 0. */
static uint32_t bm_genl_mcgrp(const struct nlattr *groups, const char *want)
{
	const struct nlattr *grp, *a;

	mnl_attr_for_each_nested(grp, groups) {
		const char *name = NULL;
		uint32_t id = 0;

		mnl_attr_for_each_nested(a, grp) {
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
			    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				name = mnl_attr_get_str(a);
			else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
				 mnl_attr_validate(a, MNL_TYPE_U32) == 0)
				id = mnl_attr_get_u32(a);
		}
		if (name && !strcmp(name, want))
			return id;
	}
	return 0;
}

/* What CTRL_CMD_GETFAMILY is asked for: a family's id and the id of one
 * of its multicast groups. */
struct bm_genl_family_q {
	const char *grp_name;
	uint16_t id;
	uint32_t grp;
};

static int bm_genl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	struct bm_genl_family_q *q = req->data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			q->id = mnl_attr_get_u16(a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			q->grp = bm_genl_mcgrp(a, q->grp_name);
	}
	return MNL_CB_OK;
}

/* Family name's id and its group grp_name's into q; 0 or -errno. */
static int bm_genl_family(struct bm_genl *g, const char *name,
			  struct bm_genl_family_q *q, struct bm_error *err)
{
	struct bm_genl_req req = { .data_cb = bm_genl_family_cb, .data = q,
				   .err = err };
	struct nlmsghdr *nlh;

	nlh = bm_genl_msg(g, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	return bm_genl_talk(g, nlh, &req);
}

struct bm_genl *bm_genl_open(int *errp, struct bm_error *err)
{
	struct bm_genl_family_q mod = { BMGEN_MCGRP_EVENTS, 0, 0 };
	struct bm_genl_family_q ctrl = { "notify", 0, 0 };
	struct bm_error ignored = { "" };
	struct bm_genl *g;
	int one = 1, ret;

	*errp = 0;
	g = calloc(1, sizeof(*g));
	if (g)
		g->buf = malloc(BM_GENL_BUFSZ);
	if (!g || !g->buf) {
		free(g);
		*errp = -ENOMEM;
		bm_errorf(err, "out of memory");
		return NULL;
	}
	g->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!g->nl || mnl_socket_bind(g->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		*errp = -errno;
		bm_errorf(err, "netlink socket: %s", strerror(errno));
		bm_genl_close(g);
		return NULL;
	}
	mnl_socket_setsockopt(g->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(g->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	g->portid = mnl_socket_get_portid(g->nl);
	g->seq = (unsigned int)time(NULL);
	ret = bm_genl_family(g, BMGEN_GENL_NAME, &mod, err);
	if (ret || !mod.id) {
		*errp = ret == -ENOENT || !ret ? -ENOENT : ret;
		if (*errp == -ENOENT)
			bm_errorf(err, "bmgen kernel module is not loaded (no generic netlink family \"%s\")",
				  BMGEN_GENL_NAME);
		bm_genl_close(g);
		return NULL;
	}
	g->family = mod.id;
	g->events_grp = mod.grp;
	/* rmmod announces itself only there: a trial's waiter learns at
	 * once that the family is gone (without it, at its next status
	 * request, 10 s later: lab 53's rmmod cases) */
	if (!bm_genl_family(g, "nlctrl", &ctrl, &ignored))
		g->ctrl_grp = ctrl.grp;
	return g;
}

void bm_genl_close(struct bm_genl *g)
{
	if (!g)
		return;
	if (g->nl)
		mnl_socket_close(g->nl);
	free(g->buf);
	free(g);
}

static int bm_genl_status_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	struct bm_module_status *st = req->data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case BMGEN_A_VERSION:
			st->proto = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_MOD_VERSION:
			snprintf(st->version, sizeof(st->version), "%s",
				 mnl_attr_get_str(a));
			break;
		case BMGEN_A_CPUS:
			st->cpus = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_KTHREADS:
			st->kthreads = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_NPORTS:
			st->ports = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_NSTREAMS:
			st->streams = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_TRIAL_STATE:
			st->trial_state = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_TRIAL_ERROR:
			st->trial_error = (int32_t)mnl_attr_get_u32(a);
			break;
		case BMGEN_A_TRIAL_LINK_DOWNS:
			st->link_downs = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_TRIAL_LINK_DOWN_IFINDEX:
			st->link_down_ifindex = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_TRIAL_EPOCH_TAI_NS:
			st->epoch_tai_ns = mnl_attr_get_u64(a);
			break;
		}
	}
	return MNL_CB_OK;
}

int bm_genl_status_get(struct bm_genl *g, struct bm_module_status *st,
		       struct bm_error *err)
{
	struct bm_genl_req req = { bm_genl_status_cb, st, err };

	memset(st, 0, sizeof(*st));
	return bm_genl_talk(g, bm_genl_msg(g, g->family, 0, BMGEN_CMD_STATUS_GET),
			    &req);
}

int bm_genl_status(struct bm_module_status *st, struct bm_error *err)
{
	struct bm_genl *g;
	int ret;

	g = bm_genl_open(&ret, err);
	if (!g)
		return ret;
	ret = bm_genl_status_get(g, st, err);
	bm_genl_close(g);
	return ret;
}

