/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the module's generic netlink channel (bm_genl.h) shared by
 * its files: the channel itself and the request/reply machinery
 * (genl.c), which the commands of genl_port.c and genl_stream.c, the
 * dumps of genl_stats.c and the waits of genl_wait.c use; not a public
 * interface.
 */
#ifndef GENL_INT_H
#define GENL_INT_H

#include <stdint.h>

#include <libmnl/libmnl.h>

#include "bm_genl.h"

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

/* A request of family type (GENL_ID_CTRL, or the module's) for cmd in
 * g's buffer, its header and the ABI version put; more attributes may
 * follow. */
struct nlmsghdr *bm_genl_msg(struct bm_genl *g, uint16_t type,
			     uint16_t flags, uint8_t cmd);
/* Send nlh and run its replies through req; 0 or -errno with err set. */
int bm_genl_talk(struct bm_genl *g, struct nlmsghdr *nlh,
		 struct bm_genl_req *req);

#endif /* GENL_INT_H */
