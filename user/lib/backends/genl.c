// SPDX-License-Identifier: GPL-2.0
/*
 * The module's generic netlink family over libmnl: requests, extack error
 * messages, the statistics dump with its histogram.
 */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/bmgen.h>

#include "bm_genl.h"
#include "bm_hwts.h"

struct bm_genl {
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t events_grp;	/* BMGEN_MCGRP_EVENTS, 0 when unknown */
	uint32_t ctrl_grp;	/* nlctrl's "notify" (families registered
				 * and gone), 0 when unknown */
	unsigned int seq, portid;
	char *buf;
	const volatile int *abort;	/* bm_genl_set_abort() */
};

#define BM_GENL_BUFSZ (MNL_SOCKET_BUFFER_SIZE * 4)

/* Handlers for one request's replies. */
struct bm_genl_req {
	mnl_cb_t data_cb;
	void *data;
	struct bm_error *err;
};

static struct nlmsghdr *bm_genl_msg(struct bm_genl *g, uint16_t type,
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
static int bm_genl_talk(struct bm_genl *g, struct nlmsghdr *nlh,
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

/* A request cmd naming port ifname, in *nlh; 0 or -EINVAL (err set). */
static int bm_genl_port_msg(struct bm_genl *g, uint8_t cmd, const char *ifname,
			    struct nlmsghdr **nlh, struct bm_error *err)
{
	if (!ifname || !*ifname || strlen(ifname) >= IFNAMSIZ)
		return bm_errorf(err, "bad port name '%s'", ifname ? ifname : "");
	*nlh = bm_genl_msg(g, g->family, 0, cmd);
	mnl_attr_put_strz(*nlh, BMGEN_A_PORT_IFNAME, ifname);
	return 0;
}

static int bm_genl_port_cmd(struct bm_genl *g, uint8_t cmd, const char *ifname,
			    struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };
	struct nlmsghdr *nlh = NULL;
	int ret;

	ret = bm_genl_port_msg(g, cmd, ifname, &nlh, err);
	return ret ? ret : bm_genl_talk(g, nlh, &req);
}

static int bm_genl_paths_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == BMGEN_A_PORT_TX_PATHS &&
		    !mnl_attr_validate(a, MNL_TYPE_U32))
			*(uint32_t *)req->data = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

int bm_genl_dev_tx_paths(struct bm_genl *g, const char *ifname,
			 uint32_t *paths, struct bm_error *err)
{
	struct bm_genl_req req = { bm_genl_paths_cb, paths, err };
	struct nlmsghdr *nlh = NULL;
	int ret;

	*paths = 0;
	ret = bm_genl_port_msg(g, BMGEN_CMD_DEV_GET, ifname, &nlh, err);
	return ret ? ret : bm_genl_talk(g, nlh, &req);
}

int bm_genl_port_attach(struct bm_genl *g, const char *ifname,
			struct bm_error *err)
{
	return bm_genl_port_cmd(g, BMGEN_CMD_PORT_ATTACH, ifname, err);
}

int bm_genl_port_detach(struct bm_genl *g, const char *ifname,
			struct bm_error *err)
{
	return bm_genl_port_cmd(g, BMGEN_CMD_PORT_DETACH, ifname, err);
}

int bm_genl_port_set(struct bm_genl *g, const char *ifname, uint32_t hwts,
		     const int64_t *off_ns, struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };
	struct nlmsghdr *nlh = NULL;
	int ret;

	ret = bm_genl_port_msg(g, BMGEN_CMD_PORT_SET, ifname, &nlh, err);
	if (ret)
		return ret;
	mnl_attr_put_u32(nlh, BMGEN_A_PORT_HWTS, hwts);
	if (off_ns)
		mnl_attr_put_u64(nlh, BMGEN_A_PORT_PHC_OFFSET_NS,
				 (uint64_t)*off_ns);
	return bm_genl_talk(g, nlh, &req);
}

int bm_genl_port_hw_arm(struct bm_genl *g, const char *ifname,
			const struct bm_hwts_cfg *c, int phc, int64_t *off_ns,
			int64_t *unc_ns, struct bm_error *err)
{
	int ret;

	ret = bm_phc_offset(phc, off_ns, unc_ns, err);
	return ret ? ret : bm_genl_port_set(g, ifname, bm_hwts_bits(c), off_ns,
					    err);
}

void bm_genl_stream_init(struct bm_genl_stream *s)
{
	memset(s, 0, sizeof(*s));
	s->vlan_id = -1;
	s->vlan2_id = -1;
	s->cpu = -1;
	s->pattern = BMGEN_PAT_CONTINUOUS;
}

int bm_genl_stream_add(struct bm_genl *g, const struct bm_genl_stream *s,
		       struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };
	struct nlmsghdr *nlh = bm_genl_msg(g, g->family, 0, BMGEN_CMD_STREAM_ADD);

	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, s->id);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_IFINDEX, s->tx_ifindex);
	if (s->rx_ifindex)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_RX_IFINDEX, s->rx_ifindex);
	if (s->frame_size)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, s->frame_size);
	if (s->n_imix)
		mnl_attr_put(nlh, BMGEN_A_STREAM_IMIX,
			     s->n_imix * sizeof(uint32_t), s->imix);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_PATTERN, s->pattern);
	if (s->rate_ufps)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_RATE_UFPS, s->rate_ufps);
	if (s->pattern == BMGEN_PAT_COUNT)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_COUNT, s->count);
	if (s->pattern == BMGEN_PAT_BURST) {
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, s->burst_len);
		if (s->burst_period_ns)
			mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_PERIOD_NS,
					 s->burst_period_ns);
		else
			mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_GAP_NS,
					 s->burst_gap_ns);
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_COUNT, s->burst_count);
		if (s->burst_due_ufps)
			mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_DUE_UFPS,
					 s->burst_due_ufps);
		if (s->burst_last_size)
			mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LAST_SIZE,
					 s->burst_last_size);
	}
	if (s->log_frames)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_LOG_FRAMES, s->log_frames);
	if (s->start_ns)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_START_NS, s->start_ns);
	if (s->flows > 1)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOWS, s->flows);
	if (s->ip_dst_flows)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_MODE,
				 BMGEN_FLOW_IP_DST);
	if (s->mac_flows) {
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_MODE, s->mac_flows);
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_MAC_SEED, s->mac_seed);
	}
	if (s->dst_step > 1)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_STEP, s->dst_step);
	if (s->flow_random)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_FLOW_SEED, s->flow_seed);
	if (s->dscp)
		mnl_attr_put_u8(nlh, BMGEN_A_STREAM_DSCP, s->dscp);
	if (s->ip_version)
		mnl_attr_put_u8(nlh, BMGEN_A_STREAM_IP_VERSION, s->ip_version);
	if (s->vlan_id >= 0) {
		mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_ID, s->vlan_id);
		mnl_attr_put_u8(nlh, BMGEN_A_STREAM_VLAN_PCP, s->vlan_pcp);
		if (s->vlan_tpid)
			mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_TPID,
					 s->vlan_tpid);
		if (s->vlan2_id >= 0) {
			mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN2_ID,
					 s->vlan2_id);
			mnl_attr_put_u8(nlh, BMGEN_A_STREAM_VLAN2_PCP,
					s->vlan2_pcp);
		}
	}
	if (s->n_mpls)
		mnl_attr_put(nlh, BMGEN_A_STREAM_MPLS,
			     s->n_mpls * sizeof(uint32_t), s->mpls);
	if (s->tx_mode)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_MODE, s->tx_mode);
	if (s->tx_path)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_PATH, s->tx_path);
	if (s->cpu >= 0)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_CPU, s->cpu);
	if (s->ptp_shape)
		mnl_attr_put(nlh, BMGEN_A_STREAM_PTP_SHAPE, 0, NULL);
	if (s->learn)
		mnl_attr_put(nlh, BMGEN_A_STREAM_LEARN, 0, NULL);
	if (s->tag)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_LATENCY_TAG_SEQ, s->tag_seq);
	if (s->tag && memcmp(s->tag_dst_ip4, "\0\0\0\0", 4))
		mnl_attr_put(nlh, BMGEN_A_STREAM_TAG_DST_IP4, 4, s->tag_dst_ip4);
	if (s->have_dst_mac)
		mnl_attr_put(nlh, BMGEN_A_STREAM_DST_MAC, 6, s->dst_mac);
	if (s->have_ip4) {
		mnl_attr_put(nlh, BMGEN_A_STREAM_SRC_IP4, 4, s->src_ip4);
		mnl_attr_put(nlh, BMGEN_A_STREAM_DST_IP4, 4, s->dst_ip4);
	}
	if (s->have_src_ip6)
		mnl_attr_put(nlh, BMGEN_A_STREAM_SRC_IP6, 16, s->src_ip6);
	if (s->have_dst_ip6)
		mnl_attr_put(nlh, BMGEN_A_STREAM_DST_IP6, 16, s->dst_ip6);
	if (s->udp_src)
		mnl_attr_put_u16(nlh, BMGEN_A_STREAM_UDP_SRC, s->udp_src);
	if (s->udp_dst)
		mnl_attr_put_u16(nlh, BMGEN_A_STREAM_UDP_DST, s->udp_dst);
	return bm_genl_talk(g, nlh, &req);
}

int bm_genl_stream_del(struct bm_genl *g, uint32_t id, struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };
	struct nlmsghdr *nlh = bm_genl_msg(g, g->family, 0, BMGEN_CMD_STREAM_DEL);

	if (id)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
	return bm_genl_talk(g, nlh, &req);
}

int bm_genl_trial_start(struct bm_genl *g, uint64_t delay_ns,
			unsigned int flags, struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };
	struct nlmsghdr *nlh = bm_genl_msg(g, g->family, 0, BMGEN_CMD_TRIAL_START);

	if (delay_ns)
		mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_DELAY_NS, delay_ns);
	if (flags & BM_GENL_TRIAL_OWNED)
		mnl_attr_put(nlh, BMGEN_A_TRIAL_OWNED, 0, NULL);
	return bm_genl_talk(g, nlh, &req);
}

int bm_genl_trial_stop(struct bm_genl *g, struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };

	return bm_genl_talk(g, bm_genl_msg(g, g->family, 0, BMGEN_CMD_TRIAL_STOP),
			    &req);
}

int bm_genl_rx_close(struct bm_genl *g, struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };

	return bm_genl_talk(g, bm_genl_msg(g, g->family, 0, BMGEN_CMD_RX_CLOSE),
			    &req);
}

/* Copy a binary counter array attribute into dst[n] (short: the rest 0). */
static void bm_genl_counters(uint64_t *dst, size_t n, const struct nlattr *a)
{
	size_t len = mnl_attr_get_payload_len(a);

	memset(dst, 0, n * sizeof(*dst));
	memcpy(dst, mnl_attr_get_payload(a),
	       len < n * sizeof(*dst) ? len - len % sizeof(*dst) :
					n * sizeof(*dst));
}

const char *bm_genl_tx_path_name(uint32_t p)
{
	static const char *const names[] = {
		[BMGEN_TXP_AUTO] = "auto",
		[BMGEN_TXP_ALLOC] = "alloc",
		[BMGEN_TXP_RECYCLE] = "recycle",
		[BMGEN_TXP_XDP] = "xdp",
	};

	if (p == BM_GENL_TXP_MIXED)
		return "mixed";
	return p < sizeof(names) / sizeof(names[0]) ? names[p] : "unknown";
}

int bm_genl_tx_path_of_name(const char *name)
{
	uint32_t p;

	for (p = BMGEN_TXP_AUTO; name && p <= BMGEN_TXP_MAX; p++)
		if (!strcmp(name, bm_genl_tx_path_name(p)))
			return (int)p;
	return -EINVAL;
}

static void bm_genl_stats_attr(struct bm_genl_stats *st, const struct nlattr *a)
{
	uint64_t v;

	switch (mnl_attr_get_type(a)) {
	case BMGEN_STATS_RX_DSCP:
		bm_genl_counters(st->rx_dscp, 64, a);
		return;
	case BMGEN_STATS_RX_PCP:
		bm_genl_counters(st->rx_pcp, 8, a);
		return;
	case BMGEN_STATS_TX_STALLS_NS:
		bm_genl_counters(st->tx_stalls_ns, BMGEN_TX_STALLS, a);
		return;
	}
	v = mnl_attr_get_payload_len(a) == 8 ? mnl_attr_get_u64(a) :
	    mnl_attr_get_payload_len(a) == 4 ? mnl_attr_get_u32(a) :
	    mnl_attr_get_u8(a);
	switch (mnl_attr_get_type(a)) {
	case BMGEN_STATS_STREAM_ID: st->stream_id = v; break;
	case BMGEN_STATS_TS_SOURCE: st->ts_source = v; break;
	case BMGEN_STATS_TS_CLOCK: st->ts_clock = v; break;
	case BMGEN_STATS_TX_FRAMES: st->tx_frames = v; break;
	case BMGEN_STATS_TX_BYTES: st->tx_bytes = v; break;
	case BMGEN_STATS_TX_RETRIES: st->tx_retries = v; break;
	case BMGEN_STATS_TX_ERRORS: st->tx_errors = v; break;
	case BMGEN_STATS_TX_FIRST_NS: st->tx_first_ns = v; break;
	case BMGEN_STATS_TX_LAST_NS: st->tx_last_ns = v; break;
	case BMGEN_STATS_TX_LATE_FRAMES: st->tx_late_frames = v; break;
	case BMGEN_STATS_TX_LATE_MAX_NS: st->tx_late_max_ns = v; break;
	case BMGEN_STATS_TX_MAX_BATCH: st->tx_max_batch = v; break;
	case BMGEN_STATS_TX_PATH: st->tx_path = v; break;
	case BMGEN_STATS_TX_RING_MISSES: st->tx_ring_misses = v; break;
	case BMGEN_STATS_TX_BURST_LATE_MAX_NS:
		st->tx_burst_late_max_ns = v;
		break;
	case BMGEN_STATS_TX_DONE: st->tx_done = v; break;
	case BMGEN_STATS_RX_FRAMES: st->rx_frames = v; break;
	case BMGEN_STATS_RX_BYTES: st->rx_bytes = v; break;
	case BMGEN_STATS_RX_UNIQUE: st->rx_unique = v; break;
	case BMGEN_STATS_RX_LATE: st->rx_late = v; break;
	case BMGEN_STATS_RX_IN_ORDER: st->rx_in_order = v; break;
	case BMGEN_STATS_RX_REORDERED: st->rx_reordered = v; break;
	case BMGEN_STATS_RX_DUP: st->rx_dup = v; break;
	case BMGEN_STATS_RX_GAP_EVENTS: st->rx_gap_events = v; break;
	case BMGEN_STATS_RX_GAP_FRAMES: st->rx_gap_frames = v; break;
	case BMGEN_STATS_RX_BAD_LEN: st->rx_bad_len = v; break;
	case BMGEN_STATS_RX_LEARN: st->rx_learn = v; break;
	case BMGEN_STATS_RX_FIRST_NS: st->rx_first_ns = v; break;
	case BMGEN_STATS_RX_LAST_NS: st->rx_last_ns = v; break;
	case BMGEN_STATS_RX_MAX_SEQ: st->rx_max_seq = v; break;
	case BMGEN_STATS_RX_LAST_LOST_SEQ: st->rx_last_lost_seq = v; break;
	case BMGEN_STATS_RX_MAX_IAT_NS: st->rx_max_iat_ns = v; break;
	case BMGEN_STATS_RX_MAX_IAT_START_NS: st->rx_max_iat_start_ns = v; break;
	case BMGEN_STATS_LAT_COUNT: st->lat_count = v; break;
	case BMGEN_STATS_LAT_MIN_NS: st->lat_min_ns = v; break;
	case BMGEN_STATS_LAT_MAX_NS: st->lat_max_ns = v; break;
	case BMGEN_STATS_LAT_SUM_NS: st->lat_sum_ns = v; break;
	case BMGEN_STATS_LAT_SUMSQ_HI: st->lat_sumsq_hi = v; break;
	case BMGEN_STATS_LAT_SUMSQ_LO: st->lat_sumsq_lo = v; break;
	case BMGEN_STATS_IPDV_COUNT: st->ipdv_count = v; break;
	case BMGEN_STATS_IPDV_MIN_NS: st->ipdv_min_ns = (int64_t)v; break;
	case BMGEN_STATS_IPDV_MAX_NS: st->ipdv_max_ns = (int64_t)v; break;
	case BMGEN_STATS_IPDV_SUM_NS: st->ipdv_sum_ns = (int64_t)v; break;
	case BMGEN_STATS_TAG_LAT_NS: st->tag_lat_ns = v; break;
	case BMGEN_STATS_RX_CPU_SPLIT: st->rx_cpu_split = v; break;
	case BMGEN_STATS_RX_UNTAGGED: st->rx_untagged = v; break;
	case BMGEN_STATS_LOG_TX: st->log_tx = v; break;
	case BMGEN_STATS_LOG_RX: st->log_rx = v; break;
	case BMGEN_STATS_HW_TX_REQUESTS: st->hw_tx_requests = v; break;
	case BMGEN_STATS_HW_TX_STAMPS: st->hw_tx_stamps = v; break;
	case BMGEN_STATS_HW_RX_STAMPS: st->hw_rx_stamps = v; break;
	case BMGEN_STATS_HW_LAT_COUNT: st->hw_lat_count = v; break;
	case BMGEN_STATS_HW_LAT_MIN_NS: st->hw_lat_min_ns = (int64_t)v; break;
	case BMGEN_STATS_HW_LAT_MAX_NS: st->hw_lat_max_ns = (int64_t)v; break;
	case BMGEN_STATS_HW_LAT_SUM_NS: st->hw_lat_sum_ns = (int64_t)v; break;
	case BMGEN_STATS_HW_LAT_SW_SUM_NS: st->hw_lat_sw_sum_ns = (int64_t)v; break;
	}
}

struct bm_genl_port_ctx {
	uint32_t ifindex;
	struct bm_genl_port_counters *pc;
	int found;
};

static int bm_genl_port_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	struct bm_genl_port_ctx *c = req->data;
	struct bm_genl_port_counters pc = { .phc_index = -1 };
	const struct nlattr *a;
	uint32_t ifindex = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case BMGEN_A_PORT_IFINDEX:
			ifindex = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_PORT_RX_OTHER:
			pc.rx_other = mnl_attr_get_u64(a);
			break;
		case BMGEN_A_PORT_RX_UNKNOWN:
			pc.rx_unknown = mnl_attr_get_u64(a);
			break;
		case BMGEN_A_PORT_RX_MISDIRECTED:
			pc.rx_misdirected = mnl_attr_get_u64(a);
			break;
		case BMGEN_A_PORT_TS_CAPS:
			pc.ts_caps = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_PORT_HWTS:
			pc.hwts = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_PORT_PHC_INDEX:
			pc.phc_index = (int32_t)mnl_attr_get_u32(a);
			break;
		case BMGEN_A_PORT_PHC_OFFSET_NS:
			pc.phc_offset_ns = (int64_t)mnl_attr_get_u64(a);
			break;
		case BMGEN_A_PORT_TX_PATHS:
			pc.tx_paths = mnl_attr_get_u32(a);
			break;
		}
	}
	if (ifindex == c->ifindex) {
		*c->pc = pc;
		c->found = 1;
	}
	return MNL_CB_OK;
}

int bm_genl_port_counters(struct bm_genl *g, uint32_t ifindex,
			  struct bm_genl_port_counters *pc,
			  struct bm_error *err)
{
	struct bm_genl_port_ctx c = { .ifindex = ifindex, .pc = pc };
	struct bm_genl_req req = { bm_genl_port_cb, &c, err };
	int ret;

	ret = bm_genl_talk(g, bm_genl_msg(g, g->family, NLM_F_DUMP,
					  BMGEN_CMD_PORT_GET), &req);
	if (!ret && !c.found)
		return bm_errorf(err, "port %u is not attached", ifindex),
		       -ENOENT;
	return ret;
}

struct bm_genl_stats_ctx {
	uint32_t id;
	struct bm_genl_stats *st;
	int found;
};

static int bm_genl_stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	struct bm_genl_stats_ctx *c = req->data;
	const struct nlattr *a, *n;
	uint32_t id = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case BMGEN_A_STREAM_ID:
			id = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_STATS:
			mnl_attr_for_each_nested(n, a)
				bm_genl_stats_attr(c->st, n);
			if (c->st->stream_id == c->id)
				c->found = 1;
			break;
		case BMGEN_A_HIST:
			if (id == c->id) {
				const struct bmgen_hist_bucket *b =
					mnl_attr_get_payload(a);
				size_t i, nb = mnl_attr_get_payload_len(a) /
					       sizeof(*b);

				for (i = 0; i < nb; i++)
					if (b[i].index < BMGEN_HIST_BUCKETS)
						c->st->hist[b[i].index] = b[i].count;
			}
			break;
		}
	}
	return MNL_CB_OK;
}

int bm_genl_stats_get(struct bm_genl *g, uint32_t id, struct bm_genl_stats *st,
		      struct bm_error *err)
{
	struct bm_genl_stats_ctx c = { .id = id, .st = st };
	struct bm_genl_req req = { bm_genl_stats_cb, &c, err };
	struct nlmsghdr *nlh;
	int ret;

	memset(st, 0, sizeof(*st));
	st->hist = calloc(BMGEN_HIST_BUCKETS, sizeof(*st->hist));
	if (!st->hist)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	nlh = bm_genl_msg(g, g->family, NLM_F_DUMP, BMGEN_CMD_STATS_GET);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
	ret = bm_genl_talk(g, nlh, &req);
	if (!ret && !c.found) {
		bm_errorf(err, "no statistics for stream %u", id);
		ret = -ENOENT;
	}
	if (ret)
		bm_genl_stats_free(st);
	return ret;
}

struct bm_genl_log_ctx {
	uint32_t id;
	size_t cap;
	uint64_t *tx;
	struct bmgen_log_rx *rx;
	size_t ntx, nrx;
};

static int bm_genl_log_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	struct bm_genl_log_ctx *c = req->data;
	const struct nlattr *a, *rec = NULL;
	uint32_t id = 0, dir = UINT32_MAX;
	uint64_t off = 0;
	size_t size, n;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case BMGEN_A_STREAM_ID: id = mnl_attr_get_u32(a); break;
		case BMGEN_A_LOG_DIR: dir = mnl_attr_get_u32(a); break;
		case BMGEN_A_LOG_OFFSET: off = mnl_attr_get_u64(a); break;
		case BMGEN_A_LOG_RECORDS: rec = a; break;
		}
	}
	if (id != c->id || !rec || dir > BMGEN_LOG_RX)
		return MNL_CB_OK;
	size = dir == BMGEN_LOG_TX ? sizeof(*c->tx) : sizeof(*c->rx);
	n = mnl_attr_get_payload_len(rec) / size;
	/* the module sends chunks in order; anything else is refused */
	if (off != (dir == BMGEN_LOG_TX ? c->ntx : c->nrx) || off + n > c->cap) {
		bm_errorf(req->err, "frame log of stream %u: chunk at %llu "
			  "out of order or beyond %zu records", id,
			  (unsigned long long)off, c->cap);
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	if (dir == BMGEN_LOG_TX) {
		memcpy(c->tx + off, mnl_attr_get_payload(rec), n * size);
		c->ntx += n;
	} else {
		memcpy(c->rx + off, mnl_attr_get_payload(rec), n * size);
		c->nrx += n;
	}
	return MNL_CB_OK;
}

int bm_genl_log_get(struct bm_genl *g, uint32_t id, size_t cap, uint64_t *tx,
		    size_t *ntx, struct bmgen_log_rx *rx, size_t *nrx,
		    struct bm_error *err)
{
	struct bm_genl_log_ctx c = { .id = id, .cap = cap, .tx = tx, .rx = rx };
	struct bm_genl_req req = { bm_genl_log_cb, &c, err };
	struct nlmsghdr *nlh;
	int ret;

	nlh = bm_genl_msg(g, g->family, NLM_F_DUMP, BMGEN_CMD_LOG_GET);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
	ret = bm_genl_talk(g, nlh, &req);
	*ntx = c.ntx;
	*nrx = c.nrx;
	return ret;
}

struct bm_genl_head_ctx {
	uint32_t id;
	uint8_t *buf;
	size_t len;
	int found;
};

static int bm_genl_head_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	struct bm_genl_head_ctx *c = req->data;
	const struct nlattr *a, *head = NULL;
	uint32_t id = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == BMGEN_A_STREAM_ID)
			id = mnl_attr_get_u32(a);
		else if (mnl_attr_get_type(a) == BMGEN_A_STREAM_FRAME_HEAD)
			head = a;
	}
	if (id == c->id && head) {
		c->len = mnl_attr_get_payload_len(head);
		if (c->len > BMGEN_FRAME_HEAD_MAX)
			c->len = BMGEN_FRAME_HEAD_MAX;
		memcpy(c->buf, mnl_attr_get_payload(head), c->len);
		c->found = 1;
	}
	return MNL_CB_OK;
}

int bm_genl_stream_frame_head(struct bm_genl *g, uint32_t id, uint8_t *buf,
			      size_t *len, struct bm_error *err)
{
	struct bm_genl_head_ctx c = { .id = id, .buf = buf };
	struct bm_genl_req req = { bm_genl_head_cb, &c, err };
	int ret;

	ret = bm_genl_talk(g, bm_genl_msg(g, g->family, NLM_F_DUMP,
					  BMGEN_CMD_STREAM_GET), &req);
	if (!ret && !c.found) {
		bm_errorf(err, "no frame head for stream %u (module before 0.2?)",
			  id);
		ret = -ENOENT;
	}
	*len = c.len;
	return ret;
}

void bm_genl_stats_merge(struct bm_genl_stats *sum,
			 const struct bm_genl_stats *st)
{
	uint64_t lo;
	uint32_t i;

	for (i = 0; i < BMGEN_HIST_BUCKETS; i++)
		sum->hist[i] += st->hist[i];
	sum->hw_tx_requests += st->hw_tx_requests;
	sum->hw_tx_stamps += st->hw_tx_stamps;
	sum->hw_rx_stamps += st->hw_rx_stamps;
	if (st->hw_lat_count) {
		if (!sum->hw_lat_count || st->hw_lat_min_ns < sum->hw_lat_min_ns)
			sum->hw_lat_min_ns = st->hw_lat_min_ns;
		if (!sum->hw_lat_count || st->hw_lat_max_ns > sum->hw_lat_max_ns)
			sum->hw_lat_max_ns = st->hw_lat_max_ns;
		sum->hw_lat_count += st->hw_lat_count;
		sum->hw_lat_sum_ns += st->hw_lat_sum_ns;
		sum->hw_lat_sw_sum_ns += st->hw_lat_sw_sum_ns;
	}
	if (!st->lat_count)
		return;
	if (!sum->lat_count || st->lat_min_ns < sum->lat_min_ns)
		sum->lat_min_ns = st->lat_min_ns;
	if (st->lat_max_ns > sum->lat_max_ns)
		sum->lat_max_ns = st->lat_max_ns;
	sum->lat_count += st->lat_count;
	sum->lat_sum_ns += st->lat_sum_ns;
	/* 128-bit sum of squares, carried by hand */
	lo = sum->lat_sumsq_lo + st->lat_sumsq_lo;
	sum->lat_sumsq_hi += st->lat_sumsq_hi + (lo < st->lat_sumsq_lo);
	sum->lat_sumsq_lo = lo;
}

/* The earlier of two event times, where v counts the frames of b's. */
static void lane_first(uint64_t *a, uint64_t have_a, uint64_t b, uint64_t v)
{
	if (v && (!have_a || b < *a))
		*a = b;
}

void bm_genl_stats_lane_add(struct bm_genl_stats *st,
			    const struct bm_genl_stats *lane)
{
	unsigned int i;

	lane_first(&st->tx_first_ns, st->tx_frames, lane->tx_first_ns,
		   lane->tx_frames);
	lane_first(&st->rx_first_ns, st->rx_frames, lane->rx_first_ns,
		   lane->rx_frames);
	if (lane->tx_frames && lane->tx_last_ns > st->tx_last_ns)
		st->tx_last_ns = lane->tx_last_ns;
	if (lane->rx_frames && lane->rx_last_ns > st->rx_last_ns)
		st->rx_last_ns = lane->rx_last_ns;
	if (lane->ipdv_count) {
		if (!st->ipdv_count || lane->ipdv_min_ns < st->ipdv_min_ns)
			st->ipdv_min_ns = lane->ipdv_min_ns;
		if (!st->ipdv_count || lane->ipdv_max_ns > st->ipdv_max_ns)
			st->ipdv_max_ns = lane->ipdv_max_ns;
	}
	st->ipdv_count += lane->ipdv_count;
	st->ipdv_sum_ns += lane->ipdv_sum_ns;
	st->tx_frames += lane->tx_frames;
	st->tx_bytes += lane->tx_bytes;
	st->tx_retries += lane->tx_retries;
	st->tx_errors += lane->tx_errors;
	st->tx_late_frames += lane->tx_late_frames;
	st->tx_ring_misses += lane->tx_ring_misses;
	st->rx_frames += lane->rx_frames;
	st->rx_bytes += lane->rx_bytes;
	st->rx_unique += lane->rx_unique;
	st->rx_late += lane->rx_late;
	st->rx_in_order += lane->rx_in_order;
	st->rx_reordered += lane->rx_reordered;
	st->rx_dup += lane->rx_dup;
	st->rx_gap_events += lane->rx_gap_events;
	st->rx_gap_frames += lane->rx_gap_frames;
	st->rx_bad_len += lane->rx_bad_len;
	st->rx_learn += lane->rx_learn;
	st->rx_cpu_split += lane->rx_cpu_split;
	st->rx_untagged += lane->rx_untagged;
	st->log_tx += lane->log_tx;
	st->log_rx += lane->log_rx;
	for (i = 0; i < 64; i++)
		st->rx_dscp[i] += lane->rx_dscp[i];
	for (i = 0; i < 8; i++)
		st->rx_pcp[i] += lane->rx_pcp[i];
	if (lane->tx_late_max_ns > st->tx_late_max_ns)
		st->tx_late_max_ns = lane->tx_late_max_ns;
	if (lane->tx_burst_late_max_ns > st->tx_burst_late_max_ns)
		st->tx_burst_late_max_ns = lane->tx_burst_late_max_ns;
	if (lane->tx_max_batch > st->tx_max_batch)
		st->tx_max_batch = lane->tx_max_batch;
	if (lane->tag_lat_ns > st->tag_lat_ns)
		st->tag_lat_ns = lane->tag_lat_ns;
	/* a lane's own longest silence: the stream's is at most that */
	if (lane->rx_max_iat_ns > st->rx_max_iat_ns) {
		st->rx_max_iat_ns = lane->rx_max_iat_ns;
		st->rx_max_iat_start_ns = lane->rx_max_iat_start_ns;
	}
	for (i = 0; i < BMGEN_TX_STALLS; i++) {
		uint64_t v = lane->tx_stalls_ns[i];
		int j = BMGEN_TX_STALLS - 1;

		if (v <= st->tx_stalls_ns[j])
			break;	/* largest first: the rest are smaller */
		for (; j > 0 && st->tx_stalls_ns[j - 1] < v; j--)
			st->tx_stalls_ns[j] = st->tx_stalls_ns[j - 1];
		st->tx_stalls_ns[j] = v;
	}
	st->tx_done = st->tx_done && lane->tx_done;
	if (lane->tx_frames && lane->tx_path != st->tx_path)
		st->tx_path = st->tx_frames == lane->tx_frames ?
			      lane->tx_path : BM_GENL_TXP_MIXED;
	bm_genl_stats_merge(st, lane);
}

void bm_genl_stats_free(struct bm_genl_stats *st)
{
	free(st->hist);
	st->hist = NULL;
}

/* The latency below which a fraction q of the samples lie (bucket middle). */
static double bm_hist_quantile(const uint64_t *hist, uint64_t count, double q)
{
	uint64_t want = (uint64_t)ceil(q * (double)count), seen = 0;
	uint32_t i;

	if (!want)
		want = 1;
	for (i = 0; i < BMGEN_HIST_BUCKETS; i++) {
		seen += hist[i];
		if (seen >= want) {
			double lo = (double)bmgen_hist_lower_ns(i);
			double hi = i + 1 < BMGEN_HIST_BUCKETS ?
				    (double)bmgen_hist_lower_ns(i + 1) : lo;

			return (lo + hi) / 2;
		}
	}
	return 0;
}

void bm_genl_stats_latency(const struct bm_genl_stats *st, struct bm_latency *l)
{
	double n = (double)st->lat_count, sumsq, var;

	memset(l, 0, sizeof(*l));
	l->count = st->lat_count;
	if (!st->lat_count)
		return;
	l->min_ns = (double)st->lat_min_ns;
	l->max_ns = (double)st->lat_max_ns;
	l->mean_ns = (double)st->lat_sum_ns / n;
	sumsq = ldexp((double)st->lat_sumsq_hi, 64) + (double)st->lat_sumsq_lo;
	var = n > 1 ? (sumsq - n * l->mean_ns * l->mean_ns) / (n - 1) : 0;
	l->stddev_ns = var > 0 ? sqrt(var) : 0;
	if (st->hist) {
		l->p50_ns = bm_hist_quantile(st->hist, st->lat_count, 0.50);
		l->p90_ns = bm_hist_quantile(st->hist, st->lat_count, 0.90);
		l->p99_ns = bm_hist_quantile(st->hist, st->lat_count, 0.99);
		l->p999_ns = bm_hist_quantile(st->hist, st->lat_count, 0.999);
	}
}

/*
 * A socket on the module's events group, on which the module announces
 * every end of a trial (done, stopped, failed), and on nlctrl's notify
 * group, which announces the family's removal (rmmod); NULL if the
 * module's group is unknown or cannot be joined (the caller then polls).
 */
static struct mnl_socket *bm_genl_events_open(const struct bm_genl *g)
{
	struct mnl_socket *ev;
	unsigned int grp = g->events_grp, ctrl = g->ctrl_grp;

	if (!grp)
		return NULL;
	ev = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!ev)
		return NULL;
	if (mnl_socket_bind(ev, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_setsockopt(ev, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		mnl_socket_close(ev);
		return NULL;
	}
	/* not fatal: without it an unload is seen at the next request */
	if (ctrl)
		mnl_socket_setsockopt(ev, NETLINK_ADD_MEMBERSHIP, &ctrl,
				      sizeof(ctrl));
	return ev;
}

/* Wait up to s seconds for an event on ev (or sleep, without one), in
 * slices of 0.1 s while g has an abort flag; true when the flag is set. */
static bool bm_genl_wait_event(struct bm_genl *g, struct mnl_socket *ev,
			       double s)
{
	struct pollfd pfd;
	double slice;

	for (;;) {
		if (g->abort && *g->abort)
			return true;
		if (s <= 0)
			return false;
		slice = g->abort && s > 0.1 ? 0.1 : s;
		s -= slice;
		if (!ev) {
			usleep(slice > 0.02 ? 20000 : (useconds_t)(slice * 1e6) + 1);
			return false;
		}
		pfd = (struct pollfd){ .fd = mnl_socket_get_fd(ev),
				       .events = POLLIN };
		if (poll(&pfd, 1, (int)(slice * 1000) + 1) > 0) {
			while (mnl_socket_recvfrom(ev, g->buf, BM_GENL_BUFSZ) > 0)
				;	/* any event: look at the state again */
			return g->abort && *g->abort;
		}
	}
}

/*
 * Sleeps until the trial ends rather than asking every few ms: on the
 * generator's own host each status request is a wake-up, two system calls
 * and a netlink round trip taken from the CPUs that send (800 of them
 * in a 16 s trial of the icount bench, and each one a gap of
 * about 1 ms in a paced stream there).  The events socket is joined
 * before the first look at the state, so no end is missed; a status
 * request every every_s still bounds a lost notification (the module
 * could not allocate it) and the timeout.  Another namespace's trial
 * ends on its own namespace's events group, so that wait asks often.
 */
int bm_genl_trial_wait_every(struct bm_genl *g, double timeout_s,
			     double every_s, int *trial_error,
			     struct bm_error *err)
{
	struct mnl_socket *ev = bm_genl_events_open(g);
	struct timespec t0, t;
	struct bm_module_status st;
	double left;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ret = bm_genl_status_get(g, &st, err);
		if (ret)
			break;
		if (st.trial_state != BMGEN_TRIAL_ARMED &&
		    st.trial_state != BMGEN_TRIAL_RUNNING) {
			if (trial_error)
				*trial_error = st.trial_error;
			ret = (int)st.trial_state;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = timeout_s - ((double)(t.tv_sec - t0.tv_sec) +
				    (t.tv_nsec - t0.tv_nsec) / 1e9);
		if (left < 0) {
			bm_errorf(err, "trial did not end within %.1f s",
				  timeout_s);
			ret = -ETIMEDOUT;
			break;
		}
		if (left > every_s)
			left = every_s;
		/* the status again at an event or after every_s; meanwhile
		 * a cancel is looked at every 0.1 s, with no request to the
		 * module (a guest's trial is not to pay for it) */
		if (bm_genl_wait_event(g, ev, left)) {
			bm_errorf(err, "cancelled");
			ret = -ECANCELED;
			break;
		}
	}
	if (ev)
		mnl_socket_close(ev);
	return ret;
}

void bm_genl_set_abort(struct bm_genl *g, const volatile int *abort)
{
	g->abort = abort;
}

int bm_genl_trial_wait(struct bm_genl *g, double timeout_s, int *trial_error,
		       struct bm_error *err)
{
	return bm_genl_trial_wait_every(g, timeout_s, 10.0, trial_error, err);
}
