// SPDX-License-Identifier: GPL-2.0
/*
 * The module's port commands: attach, detach, hardware stamping set and
 * armed, the transmit paths a device allows, the port's receive
 * counters, and the transmit paths' names.  Apart from the channel
 * (genl.c) because each is one request built on its machinery.
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/bmgen.h>

#include "bm_hwts.h"
#include "genl_int.h"

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
