// SPDX-License-Identifier: GPL-2.0
/*
 * bmd: turning a "submit" request into a queued job.  The procedure and
 * its parameters are checked by the registry; the daemon checks what only
 * it knows: the ports' line rate, the configured resets, the trial budget,
 * the room on disk and in memory, and which ports the caller may use.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
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
#include "bm_hosts.h"
#include "bm_portinfo.h"
#include "bm_procedure.h"
#include "bm_sim.h"
#include "bm_store.h"
#include "daemon_int.h"

const struct bm_procedure_info *find_procedure(const char *name,
					       struct bm_error *err)
{
	const struct bm_procedure_info *p = bm_procedure_find(name, NULL);

	if (!p)
		bm_errorf(err, "unknown procedure '%s' (bmctl procedures lists them)",
			  name);
	return p;
}

/*
 * Work out the line rate of a submit: given, else the sim's (dry run),
 * else the link speed of its ports.  Every port must exist, and without a
 * given rate every port's speed must be known and the same: procedures
 * load every port against one R_line, and a slower port would be
 * overloaded at "100 %".  0, or -EINVAL with err set.
 */
static int submit_line_rate(const struct bmd *d, const struct bm_request *q,
			    const struct bm_procedure_info *proc,
			    double *rate, struct bm_error *err)
{
	struct bm_sim_params p;
	struct bm_port_info pi;
	unsigned int i;
	long speed = 0;
	int ret;

	*rate = q->line_rate_bps;
	if (q->dry_run) {
		bm_sim_params_default(&p);
		if (q->sim && bm_sim_params_from_json(q->sim, &p, err))
			return -EINVAL;
		if (*rate > 0)
			p.line_rate_bps = *rate;
		if (bm_sim_params_check(&p, err))
			return -EINVAL;
		*rate = p.line_rate_bps;
		return 0;
	}
	for (i = 0; i < q->n_ports; i++) {
		const char *sep = strchr(q->ports[i], BM_HOST_SEP);

		/* another host's port: no speed to read here */
		if (sep && *rate > 0)
			continue;
		if (sep)
			return bm_errorf(err, "port %s is on host %.*s: give "
					 "ports.line_rate_bps (a pool's ports "
					 "share one line rate)", q->ports[i],
					 (int)(sep - q->ports[i]), q->ports[i]);
		ret = bm_port_info(d->sysfs_net, q->ports[i], &pi);
		if (ret)
			return bm_errorf(err, "port %s: %s", q->ports[i],
					 ret == -ENOENT ? "no such device"
							: strerror(-ret));
		if (*rate > 0)
			continue;
		/* the generator's own rates: the tx port's speed, or 0 */
		if (proc->own_rates) {
			if (!i)
				speed = pi.speed_mbps > 0 ? pi.speed_mbps : 0;
			continue;
		}
		if (pi.speed_mbps <= 0)
			return bm_errorf(err, "line rate of %s unknown (virtual or link down): give ports.line_rate_bps",
					 q->ports[i]);
		if (!i) {
			speed = pi.speed_mbps;
		} else if (pi.speed_mbps != speed) {
			return bm_errorf(err, "ports %s (%ld Mbit/s) and %s (%ld Mbit/s) differ in link speed: give ports.line_rate_bps",
					 q->ports[0], speed, q->ports[i],
					 pi.speed_mbps);
		}
	}
	if (*rate <= 0)
		*rate = speed * 1e6;
	return 0;
}

/*
 * A reset command in a request once ran with /bin/sh -c as bmd's
 * user (root) for anyone who may reach the socket.  Commands come only
 * from bmd's configuration, by name.  A request that still carries one
 * is refused by name, before the parameters are validated, so that its
 * user learns where resets live now rather than "unknown key".
 */
static int submit_no_command(struct bmd *d, const struct bm_request *q,
			     struct bm_error *err)
{
	if (q->params &&
	    json_object_object_get_ex(q->params, "reset_command", NULL))
		return bm_errorf(err, "%s: reset_command: refused: bmd runs only the reset commands of %s (reset.NAME = COMMAND); choose one with reset=NAME",
				 q->procedure, conf_name(d));
	return 0;
}

/* The reset a submit names is one of bmd's, and never in a dry run. */
static int submit_reset_ok(struct bmd *d, const struct bm_request *q,
			   struct bm_error *err)
{
	const char *name;

	if (q->dry_run)
		return bm_procedure_check_dry_run(q->procedure, q->params, err);
	name = bm_procedure_reset_name(q->procedure, q->params);
	if (name && !bmd_reset_find(d, name))
		return bm_errorf(err, "%s: reset: no reset '%.40s' in %s (%s)",
				 q->procedure, name, conf_name(d),
				 d->n_resets ? "bmctl status lists them" :
				 "it names none");
	return 0;
}

/*
 * A job's memory and time grow with its trials, so parameters
 * whose worst case (every search, retry and repetition at its longest)
 * is above max-trials are refused before anything runs, with the count.
 */
static int submit_trials_ok(struct bmd *d, const struct bm_request *q,
			    double rate, double *n, struct bm_error *err)
{
	if (bm_procedure_max_trials(q->procedure, q->params, rate, q->n_ports,
				    n, err))
		return -EINVAL;
	if (*n > d->max_trials)
		return bm_errorf(err, "%s: these parameters may need up to %.0f trials; bmd runs at most %u a job: set max-trials = %.0f in %s, or take fewer sizes, repetitions or iterations (bmctl run %s --help)",
				 q->procedure, *n, d->max_trials, ceil(*n),
				 conf_name(d), q->procedure);
	return 0;
}

/* The trials the jobs queued or running may still need, at their worst:
 * what they may hold in memory and write to disk. */
static double unfinished_trials(const struct bmd *d)
{
	const struct bmd_job *j;
	double n = 0;

	for (j = d->jobs; j; j = j->next)
		if (!job_finished(j))
			n += j->worst_trials;
	return n;
}

/*
 * A full disk dropped results and, with no inode left, handed out ids
 * twice.  A job is taken only with room for what the jobs not yet
 * finished may write at their worst (BMD_TRIAL_DISK a trial: its event,
 * its share of the result and of the CSV) and a few inodes; a full disk
 * later (someone else's files) still loses nothing: the result waits in
 * memory (jobs_store_pending).
 */
static int submit_space_ok(struct bmd *d, const struct bm_request *q,
			   double n, struct bm_error *err)
{
	double need = (n + unfinished_trials(d)) * BMD_TRIAL_DISK + (1 << 20);
	struct statvfs sv;
	double free_b;

	if (statvfs(d->results_dir, &sv))
		return bm_errorf(err, "%s: %s", d->results_dir,
				 strerror(errno));
	free_b = (double)sv.f_bavail * (double)sv.f_frsize;
	if (free_b < need)
		return bm_errorf(err, "no room: %s has %.1f MiB free, and %s with the jobs queued or running may write up to %.1f MiB (%.0f trials of its own): free some space",
				 d->results_dir, free_b / 1048576.0,
				 q->procedure, need / 1048576.0, n);
	if (sv.f_files && sv.f_favail < BMD_JOB_INODES)
		return bm_errorf(err, "no room: %s has %lu free inodes, a job needs %d: free some files",
				 d->results_dir, (unsigned long)sv.f_favail,
				 BMD_JOB_INODES);
	return 0;
}

/*
 * 16 accepted jobs of 20,000 trials once took bmd past 4.1 GB, and
 * the defaults allowed some 18 GB.  What the jobs not yet finished may
 * hold at their worst (BMD_TRIAL_MEM a trial of the trials their
 * parameters may need), this one's included, stays within max-memory.
 */
static int submit_memory_ok(struct bmd *d, const struct bm_request *q,
			    double n, struct bm_error *err)
{
	double held = unfinished_trials(d) * BMD_TRIAL_MEM;
	double mine = n * BMD_TRIAL_MEM;

	if (held + mine > d->max_memory)
		return bm_errorf(err, "busy: %s may need up to %.0f MiB (%.0f trials), and the jobs queued or running up to %.0f MiB of bmd's %.0f (max-memory-mib in %s): wait for them, or narrow its parameters",
				 q->procedure, mine / 1048576.0, n,
				 held / 1048576.0, d->max_memory / 1048576.0,
				 conf_name(d));
	return 0;
}

/*
 * 300 queued latency jobs once took bmd to 23.6 GB and the OOM
 * killer, and every dry run is a thread of its own.  Jobs not yet
 * finished are capped, of one uid (SO_PEERCRED) and in all.
 */
static int submit_room(struct bmd *d, const struct bmd_client *c,
		       struct bm_error *err)
{
	unsigned int all = 0, mine = 0;
	struct bmd_job *j;

	for (j = d->jobs; j; j = j->next) {
		if (job_finished(j))
			continue;
		all++;
		mine += j->submit_uid == (long)c->uid;
	}
	if (mine >= d->max_jobs_per_user)
		return bm_errorf(err, "busy: uid %u has %u jobs queued or running, bmd takes at most %u a user (max-jobs-per-user in %s)",
				 (unsigned int)c->uid, mine,
				 d->max_jobs_per_user, conf_name(d));
	if (all >= d->max_jobs)
		return bm_errorf(err, "busy: %u jobs queued or running, bmd takes at most %u (max-jobs in %s)",
				 all, d->max_jobs, conf_name(d));
	return 0;
}

/* A job runs only on ports bmd.conf's ports allows, and reaches only
 * the other hosts its hosts lists; a dry run touches none of its ports
 * and reaches no host. */
static int submit_ports_ok(const struct bmd *d, const struct bm_request *q,
			   struct bm_error *err)
{
	char host[BM_PART_HOST_LEN], name[BM_BACKEND_PORT_NAME];
	unsigned int i;

	for (i = 0; i < q->n_ports; i++) {
		if (bm_port_label_parse(q->ports[i], host, sizeof(host), name,
					sizeof(name), err))
			return -EINVAL;
		if (q->dry_run)
			continue;
		/* another host's port: its bmd decides on the port when
		 * the part comes (Documentation/multi-host.md); this one
		 * on the host */
		if (host[0] ? bmd_host_check(&d->hosts, q->ports[i], host,
					     conf_name(d), err) :
			      bmd_port_check(d, q->ports[i], err))
			return -EINVAL;
	}
	return 0;
}

/* A job's own tolerance of its hosts' clocks (ports.sync_tolerance_us)
 * is a pool's, and may only be tighter than bmd.conf's sync-tolerance-us
 * (its default when not set, none when 0): an operator's limit is no
 * job's to loosen. */
static int submit_tolerance_ok(const struct bmd *d, const struct bm_request *q,
			       bool *usage, struct bm_error *err)
{
	double limit = bmd_sync_tolerance_us(d->sync_tolerance_us);
	unsigned int i;

	if (!q->sync_tolerance_us)
		return 0;
	for (i = 0; i < q->n_ports && !bm_port_label_remote(q->ports[i]); i++)
		;
	*usage = true;
	if (i == q->n_ports)
		return bm_errorf(err, "ports.sync_tolerance_us: every port of "
				 "the job is this host's: a tolerance of the "
				 "hosts' clocks is a pool's (ports HOST:IFNAME "
				 "of other hosts)"), -EINVAL;
	*usage = false;
	if (q->sync_tolerance_us > limit)
		return bm_errorf(err, "ports.sync_tolerance_us: %g us is looser "
				 "than this bmd's %g us (sync-tolerance-us in "
				 "%s): a job may only tighten it",
				 q->sync_tolerance_us, limit, conf_name(d)),
		       -EPERM;
	return 0;
}

json_object *cmd_submit(struct bmd *d, const struct bmd_client *c,
			const struct bm_request *q, json_object *r,
			struct bm_error *err, bool *usage)
{
	const struct bm_procedure_info *p = find_procedure(q->procedure, err);
	struct bm_error e = { "" };
	struct bmd_job *j;
	double rate, worst;

	*usage = !p;
	if (!p || submit_no_command(d, q, err) || submit_room(d, c, err))
		return NULL;
	/* A dry run that names no ports gets a simulated device with every
	 * port the procedure needs (bmd_backend_default); one that names
	 * them runs on those. */
	*usage = true;
	if ((!q->dry_run || q->n_ports) &&
	    bm_procedure_check_ports(p, q->n_ports, err))
		return NULL;
	*usage = false;
	if (submit_ports_ok(d, q, err))
		return NULL;
	/* what the request asks, whatever the host: its fault, exit 2 */
	*usage = true;
	if (submit_line_rate(d, q, p, &rate, err) ||
	    bm_procedure_validate(q->procedure, q->params, rate, err))
		return NULL;
	*usage = false;
	if (submit_reset_ok(d, q, err) ||
	    submit_tolerance_ok(d, q, usage, err))
		return NULL;
	*usage = true;
	if (submit_trials_ok(d, q, rate, &worst, err))
		return NULL;
	*usage = false;
	if (submit_memory_ok(d, q, worst, err) ||
	    submit_space_ok(d, q, worst, err))
		return NULL;
	j = calloc(1, sizeof(*j));
	if (!j) {
		bm_errorf(err, "out of memory");
		return NULL;
	}
	j->events_fd = -1;
	j->d = d;
	j->procedure = strdup(q->procedure);
	if (q->params)
		json_object_deep_copy(q->params, &j->params, NULL);
	else
		j->params = json_object_new_object();
	if (q->sim)
		json_object_deep_copy(q->sim, &j->sim, NULL);
	if (q->dut)
		json_object_deep_copy(q->dut, &j->dut, NULL);
	j->line_rate_bps = rate;
	j->sync_tolerance_us = q->sync_tolerance_us;
	j->worst_trials = worst;
	j->dry_run = q->dry_run;
	j->cancel_to = JOB_CANCELLED;
	j->submitted = bmd_now();
	j->submit_uid = c->uid;
	j->submit_pid = c->pid;
	if (!j->procedure || !j->params || (q->sim && !j->sim) ||
	    (q->dut && !j->dut) || job_set_ports(j, q->n_ports, q->ports)) {
		job_discard(j);
		bm_errorf(err, "out of memory");
		return NULL;
	}
	/* the id, then the job file, both on disk before the job is
	 * taken: a job bmd cannot keep is refused, and its id never comes
	 * again */
	if (ids_take(d, &j->id, &e) || job_persist_err(j, &e)) {
		job_discard(j);
		bm_errorf(err, "cannot keep the job: %s", e.msg);
		return NULL;
	}
	job_append(d, j);
	job_log(j, "submitted");
	jobs_schedule(d);
	json_object_object_add(r, "job", json_object_new_int64(j->id));
	json_object_object_add(r, "state",
			       json_object_new_string(job_state_name(j->state)));
	return r;
}
