// SPDX-License-Identifier: GPL-2.0
/*
 * The other tester hosts bmd may reach for a job's ports (bmd(8),
 * CONFIGURATION "hosts"; Documentation/multi-host.md).
 *
 * A job over another host's port makes bmd run ssh with its own key to
 * that host.  Without a list any member of bmd's group could point bmd's
 * key at any host the key opens, under any name ssh_config resolves: the
 * operator names the hosts, and for each the ssh destination, once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_hosts.h"
#include "daemon_int.h"

void bmd_hosts_free(struct bmd_hosts *h)
{
	free(h->text);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* Is d an ssh destination bmd may pass (user@host or an ssh_config name:
 * no option, no blank, no shell character)? */
static bool dest_ok(const char *d, size_t n)
{
	return n && n < BMD_HOST_DEST_LEN && d[0] != '-' &&
	       strspn(d, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789._-@") >= n;
}

/* Add the word w (len bytes: NAME or NAME=DEST) to h. */
static int hosts_add(struct bmd_hosts *h, const char *w, size_t len,
		     struct bm_error *err)
{
	const char *eq = memchr(w, '=', len);
	size_t nl = eq ? (size_t)(eq - w) : len;
	struct bmd_host *e;
	size_t i;

	if (h->n == BMD_HOSTS_MAX)
		return bm_errorf(err, "hosts: more than %d hosts",
				 BMD_HOSTS_MAX), -EINVAL;
	e = &h->v[h->n];
	if (nl >= sizeof(e->name))
		return bm_errorf(err, "hosts: '%.*s' is not a host name",
				 (int)(nl > 40 ? 40 : nl), w), -EINVAL;
	memcpy(e->name, w, nl);
	e->name[nl] = '\0';
	if (!bm_host_name_ok(e->name))
		return bm_errorf(err, "hosts: '%s' is not a host name (letters, digits, '.', '_', '-', starting with a letter or digit)",
				 e->name), -EINVAL;
	for (i = 0; i < h->n; i++)
		if (!strcmp(h->v[i].name, e->name))
			return bm_errorf(err, "hosts: %s named twice",
					 e->name), -EINVAL;
	w = eq ? eq + 1 : w;
	len = eq ? len - nl - 1 : nl;
	if (!dest_ok(w, len))
		return bm_errorf(err, "hosts: %s=%.*s: not an ssh destination (user@host or a name of ssh_config, not starting with '-')",
				 e->name, (int)(len > 40 ? 40 : len), w),
		       -EINVAL;
	memcpy(e->dest, w, len);
	e->dest[len] = '\0';
	h->n++;
	return 0;
}

int bmd_hosts_parse(const char *text, struct bmd_hosts *h,
		    struct bm_error *err)
{
	const char *s = text ? text : "";
	size_t len;

	memset(h, 0, sizeof(*h));
	h->text = strdup(s);
	h->v = calloc(BMD_HOSTS_MAX, sizeof(*h->v));
	if (!h->text || !h->v) {
		bmd_hosts_free(h);
		return bm_errorf(err, "out of memory"), -ENOMEM;
	}
	while (*s) {
		len = strcspn(s, " \t");
		if (len && hosts_add(h, s, len, err)) {
			bmd_hosts_free(h);
			return -EINVAL;
		}
		s += len ? len : 1;
	}
	return 0;
}

const char *bmd_host_dest(const struct bmd_hosts *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(h->v[i].name, name))
			return h->v[i].dest;
	return NULL;
}

int bmd_host_check(const struct bmd_hosts *h, const char *label,
		   const char *host, const char *conf, struct bm_error *err)
{
	if (!host[0] || bmd_host_dest(h, host))
		return 0;
	if (!h->n)
		return bm_errorf(err, "port %s: host %s: bmd reaches no other tester host (hosts in %s)",
				 label, host, conf), -EINVAL;
	return bm_errorf(err, "port %s: host %s is not one of bmd's tester hosts (hosts = %.80s in %s)",
			 label, host, h->text, conf), -EINVAL;
}
