// SPDX-License-Identifier: GPL-2.0
/*
 * A configured DUT command (dut_command.h): a reset, the DUT's counters.
 *
 * Waiting here does not hold up the test stream: the module's kthreads
 * send it while the trial's thread sits in the hook.  The command must
 * never outlive its purpose:
 *   - a hung command holds the job and its ports: after timeout_s its
 *     whole process group is killed (-ETIMEDOUT);
 *   - bmd stopping (SIGTERM) or the job cancelled must not wait for it
 *     (it may be allowed an hour): the hook asks the job's progress
 *     callback every second, which also shows the reset in the status
 *     line, and kills the group when told to stop (-ECANCELED);
 *   - bmd killed (SIGKILL) must not leave it running under init: the
 *     command runs under a guard process that leads its process group
 *     and has the kernel signal it when bmd's thread dies
 *     (PR_SET_PDEATHSIG); the guard then kills the whole group.
 * The command gets default signal handling and an empty signal mask: bmd
 * ignores SIGPIPE and SIGHUP and ignored signals survive exec, so a
 * pipeline in the command (the lab's "... | ip -batch -") would
 * otherwise never see SIGPIPE.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dut_command.h"

/* The guard's SIGTERM (bmd died): take the group, itself included. */
static void guard_parent_died(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
}

/* The guard, in the child of fork(): only async-signal-safe calls.  out:
 * the pipe the command's standard output goes to, or -1. */
static void __attribute__((noreturn)) guard(const char *command,
					     char *const *envp, int out,
					     pid_t parent)
{
	char *argv[] = { "/bin/sh", "-c", (char *)command, NULL };
	struct sigaction sa = { .sa_handler = guard_parent_died };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	int status;
	pid_t sh;

	sigemptyset(&none);
	setpgid(0, 0);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGPIPE, &dfl, NULL);
	sigaction(SIGHUP, &dfl, NULL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		kill(0, SIGKILL);	/* bmd is gone already */
	sh = fork();
	if (sh < 0)
		_exit(126);
	if (!sh) {
		sigaction(SIGTERM, &dfl, NULL);
		if (out >= 0 && dup2(out, STDOUT_FILENO) < 0)
			_exit(126);
		if (envp)
			execve("/bin/sh", argv, envp);
		else
			execv("/bin/sh", argv);
		_exit(127);
	}
	if (out >= 0)
		close(out);
	while (waitpid(sh, &status, 0) < 0)
		if (errno != EINTR)
			_exit(126);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128);
}

/* Kill the guard's group and reap the guard. */
static void kill_group(pid_t pid)
{
	int status;

	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* What the command wrote so far into rc->out; the rest is read and
 * dropped, so that a chatty command never blocks on a full pipe. */
static void drain_output(struct bm_dut_cmd *rc, int fd)
{
	char sink[512];
	ssize_t n;

	for (;;) {
		if (rc->out_len + 1 < rc->out_max)
			n = read(fd, rc->out + rc->out_len,
				 rc->out_max - 1 - rc->out_len);
		else
			n = read(fd, sink, sizeof(sink));
		if (n <= 0)
			break;
		if (rc->out_len + 1 < rc->out_max)
			rc->out_len += (size_t)n;
	}
	rc->out[rc->out_len] = '\0';
}

int bm_dut_command_run(void *ctx)
{
	struct bm_dut_cmd *rc = ctx;
	pid_t parent = getpid(), pid;
	char status_line[160];
	int status, fds[2] = { -1, -1 }, ret;

	if (rc->out) {
		if (!rc->out_max)
			return -EINVAL;
		rc->out_len = 0;
		rc->out[0] = '\0';
		if (pipe2(fds, O_CLOEXEC))
			return -errno;
		fcntl(fds[0], F_SETFL, O_NONBLOCK);
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (!pid)
		guard(rc->command, rc->envp, fds[1], parent);
	/* also here: the group must exist before anyone signals it */
	setpgid(pid, pid);
	if (fds[1] >= 0) {
		close(fds[1]);
		fds[1] = -1;
	}
	for (unsigned int ms = 0;; ms += 10) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (fds[0] >= 0)
			drain_output(rc, fds[0]);
		if (w < 0 && errno != EINTR) {
			ret = -errno;
			goto out;
		}
		if (w == pid)
			break;
		if (ms >= rc->timeout_s * 1000) {
			kill_group(pid);
			ret = -ETIMEDOUT;
			goto out;
		}
		if (rc->progress && ms % 1000 == 0) {
			snprintf(status_line, sizeof(status_line),
				 "%s: running, %u s of at most %g s",
				 rc->name ? rc->name : "?", ms / 1000,
				 rc->timeout_s);
			if (rc->progress(rc->progress_ctx, NULL, status_line)) {
				kill_group(pid);
				ret = -ECANCELED;
				goto out;
			}
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	if (fds[0] >= 0)
		drain_output(rc, fds[0]);
	ret = WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	return ret;
}
