// SPDX-License-Identifier: GPL-2.0
/*
 * bmd: who may connect.  A peer is allowed by its SO_PEERCRED: root, the
 * daemon's own uid, or a member of the socket's group; a refused peer gets
 * one line saying why.  And the group the socket and results belong to.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "bm_genl.h"
#include "bm_portinfo.h"
#include "bm_procedure.h"
#include "bm_sim.h"
#include "bm_store.h"
#include "daemon_int.h"

bool bmd_uid_in_group(uid_t uid, gid_t gid, gid_t group)
{
	struct passwd pw, *pwp = NULL;
	gid_t groups[256];
	int n = 256, i;
	char buf[4096];

	if (gid == group)
		return true;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &pwp) || !pwp)
		return false;
	/* More groups than fit: the ones that fit are still checked. */
	getgrouplist(pwp->pw_name, gid, groups, &n);
	for (i = 0; i < n && i < 256; i++)
		if (groups[i] == group)
			return true;
	return false;
}

/*
 * Is the peer behind fd (credentials cr) in group?  The groups the
 * peer process had when it connected (SO_PEERGROUPS) are the ones the
 * kernel checked against the socket's mode, so they decide; a kernel
 * without SO_PEERGROUPS (before 4.13) leaves the group database.
 */
bool peer_in_group(gid_t group, int fd, const struct ucred *cr)
{
	gid_t one[64], *g = one;
	socklen_t len = sizeof(one);
	bool in = false;
	size_t i;

	if (cr->gid == group)
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &len)) {
		if (errno == ENOPROTOOPT)
			return bmd_uid_in_group(cr->uid, cr->gid, group);
		if (errno != ERANGE)
			return false;
		/* len now says how much the groups need */
		g = malloc(len);
		if (!g || getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &len)) {
			free(g);
			return false;
		}
	}
	for (i = 0; i < len / sizeof(*g) && !in; i++)
		in = g[i] == group;
	if (g != one)
		free(g);
	return in;
}

/* Send a new connection fd the one refusal line msg (no id). */
void send_refusal(int fd, const char *msg)
{
	json_object *r = bm_response_error(0, false, msg);
	size_t n;
	char *line = r ? bm_proto_line(r, &n) : NULL;
	ssize_t w;

	/* A fresh socket's buffer takes this one short line whole. */
	if (line) {
		w = send(fd, line, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		(void)w;	/* the peer learns nothing more either way */
	}
	free(line);
	json_object_put(r);
}

/*
 * Who may talk to bmd: root, bmd's own user and the members of its -g
 * group.  The socket's mode says the same, but a socket from systemd may
 * have any mode and a directory may be opened up by mistake; bmd runs
 * benchmarks (and reset commands) as itself, so it checks each peer.
 * Anyone else gets one JSON refusal and the connection is closed.
 */
bool peer_allowed(struct bmd *d, int fd, struct ucred *out)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	char msg[256], m[300], pu[32], pp[32];
	const char *fields[] = { m, pu, pp };

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len)) {
		bmd_logf(d, LOG_ERR, "SO_PEERCRED: %s: connection closed",
			 strerror(errno));
		return false;
	}
	*out = cr;
	if (cr.uid == 0 || cr.uid == geteuid() ||
	    (d->has_group && peer_in_group(d->group, fd, &cr)))
		return true;
	if (d->has_group)
		snprintf(msg, sizeof(msg),
			 "permission denied: uid %u is not root, bmd's user (uid %u) or in group %s",
			 (unsigned int)cr.uid, (unsigned int)geteuid(),
			 d->group_name);
	else
		snprintf(msg, sizeof(msg),
			 "permission denied: uid %u is not root or bmd's user (uid %u), and bmd has no -g group",
			 (unsigned int)cr.uid, (unsigned int)geteuid());
	snprintf(m, sizeof(m), "MESSAGE=refused pid %d: %s", (int)cr.pid,
		 msg);
	snprintf(pu, sizeof(pu), "PEER_UID=%u", (unsigned int)cr.uid);
	snprintf(pp, sizeof(pp), "PEER_PID=%d", (int)cr.pid);
	bmd_log(d, LOG_WARNING, fields, 3);
	send_refusal(fd, msg);
	return false;
}

/* The group name (a group name, else a number) into *gid; 0, or -EINVAL
 * with err set (what names the setting in messages). */
int resolve_group(const char *what, const char *name, gid_t *gid,
		  struct bm_error *err)
{
	struct group gr, *grp = NULL;
	char buf[4096], *end;
	unsigned long g;

	if (!name[0] || strlen(name) >= 64)
		return bm_errorf(err, "%s: bad group name '%.64s'", what, name);
	if (!getgrnam_r(name, &gr, buf, sizeof(buf), &grp) && grp) {
		*gid = grp->gr_gid;
		return 0;
	}
	errno = 0;
	g = strtoul(name, &end, 10);
	if (*end || errno || name[0] < '0' || name[0] > '9' ||
	    g >= (gid_t)-1)
		return bm_errorf(err, "%s: unknown group '%s'", what, name);
	*gid = g;
	return 0;
}

/* d's group from name; 0 or -EINVAL. */
int set_group(struct bmd *d, const char *name, struct bm_error *err)
{
	if (resolve_group("group", name, &d->group, err))
		return -EINVAL;
	d->has_group = true;
	snprintf(d->group_name, sizeof(d->group_name), "%s", name);
	return 0;
}
