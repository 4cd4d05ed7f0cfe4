// SPDX-License-Identifier: GPL-2.0
/*
 * bmd.conf: what a good file sets, that the command
 * line wins over it, and that every bad file is one line naming
 * FILE:LINE and the key, never a crash.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "bm_daemon.h"
#include "check_util.h"

static char dir[64], path[128];

static void setup(void)
{
	strcpy(dir, "/tmp/bmd-conf.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bmd.conf", dir);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Write n bytes of text to the test's bmd.conf with mode 0644. */
static void put_n(const char *text, size_t n)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, 0644), 0);
}

static void put(const char *text)
{
	put_n(text, strlen(text));
}

/* Reading text must fail with msg after "PATH:"; c is left empty. */
static void bad(const char *text, const char *msg)
{
	struct bm_error err = { "" };
	struct bmd_conf c;
	char want[512];

	put(text);
	ck_assert_msg(bmd_conf_read(path, true, &c, &err) < 0,
		      "accepted: %s", text);
	snprintf(want, sizeof(want), "%s:%s", path, msg);
	ck_assert_str_eq(err.msg, want);
	ck_assert_ptr_null(c.path);
	ck_assert_uint_eq(c.n_resets, 0);
}

START_TEST(good_file)
{
	struct bm_error err = { "" };
	struct bmd_conf c;

	put("# bmd.conf\n"
	    "\n"
	    "   # indented comment\n"
	    "socket = /run/x/bmd.sock\n"
	    "results=/srv/results\n"
	    "\tgroup =  lab \r\n"
	    "results-mode = 0600\n"
	    "verbose = yes\n"
	    "hw-timestamps = no\n"
	    "tcp-engine = no\n"
	    "tx-kthreads = 4\n"
	    "tx-path = xdp\n"
	    "ports = unaddressed  ens1f* eth2\n"
	    "admin-group = lab-admins\n"
	    "max-connections-per-user = 8\n"
	    "request-timeout = 30\n"
	    "max-memory-mib = 4096\n"
	    "dut-counters = snmpget -v2c -c public sw1 ifInOctets.1 | sed 's/.*= //'\n"
	    "dut-counters-wait = 20\n"
	    "reset.pdu-cycle = snmpset -v2c -c private pdu 1.3.6.1 i 3  \n"
	    "reset.br0_bounce.v2 = (sleep 0.5; echo \"a=b # c\") | ip -batch -\n");
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), 0);
	ck_assert_str_eq(c.path, path);
	ck_assert_str_eq(c.socket_path, "/run/x/bmd.sock");
	ck_assert_str_eq(c.results_dir, "/srv/results");
	ck_assert_str_eq(c.group, "lab");
	ck_assert_uint_eq(c.results_mode, 0600);
	ck_assert_int_eq(c.verbose, 1);
	ck_assert_int_eq(c.hw_timestamps, -1);
	ck_assert_str_eq(c.dut_counters, "snmpget -v2c -c public sw1 "
			 "ifInOctets.1 | sed 's/.*= //'");
	ck_assert_double_eq(c.dut_counters_wait_s, 20);
	ck_assert_int_eq(c.tcp_engine, -1);
	ck_assert_uint_eq(c.tx_kthreads, 4);
	ck_assert_uint_eq(c.tx_path, BMGEN_TXP_XDP);
	ck_assert_str_eq(bmd_tx_path_name(c.tx_path), "xdp");
	ck_assert_str_eq(c.ports, "unaddressed  ens1f* eth2");
	ck_assert_str_eq(c.admin_group, "lab-admins");
	ck_assert_uint_eq(c.max_connections_per_user, 8);
	ck_assert_uint_eq(c.request_timeout_s, 30);
	ck_assert_uint_eq(c.max_memory_mib, 4096);
	ck_assert_uint_eq(c.n_resets, 2);
	ck_assert_str_eq(c.resets[0].name, "pdu-cycle");
	ck_assert_str_eq(c.resets[0].command,
			 "snmpset -v2c -c private pdu 1.3.6.1 i 3");
	/* the command reaches /bin/sh as written: '#', '=' and quotes */
	ck_assert_str_eq(c.resets[1].name, "br0_bounce.v2");
	ck_assert_str_eq(c.resets[1].command,
			 "(sleep 0.5; echo \"a=b # c\") | ip -batch -");
	bmd_conf_free(&c);
	ck_assert_ptr_null(c.path);
}
END_TEST

/* The command line wins; the file fills in what it left unset. */
START_TEST(command_line_overrides_file)
{
	struct bmd_config cfg = { .socket_path = "/tmp/cli.sock",
				  .results_mode = 0644 };
	struct bm_error err = { "" };
	struct bmd_conf c;

	put("socket = /run/x/bmd.sock\nresults = /srv/r\ngroup = lab\n"
	    "results-mode = 0600\nverbose = no\nreset.a = true\n"
	    "tx-kthreads = 2\ntx-path = recycle\n");
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), 0);
	bmd_conf_apply(&c, &cfg);
	ck_assert_uint_eq(cfg.tx_kthreads, 2);
	ck_assert_uint_eq(cfg.tx_path, BMGEN_TXP_RECYCLE);
	ck_assert_str_eq(cfg.socket_path, "/tmp/cli.sock");
	ck_assert_uint_eq(cfg.results_mode, 0644);
	ck_assert_str_eq(cfg.results_dir, "/srv/r");
	ck_assert_str_eq(cfg.group, "lab");
	ck_assert(!cfg.verbose);
	ck_assert_str_eq(cfg.config_path, path);
	ck_assert_uint_eq(cfg.n_resets, 1);
	ck_assert_str_eq(cfg.resets[0].command, "true");
	bmd_conf_free(&c);

	/* auto: the figure of bmgen.capacity decides (REQ-GEN-6) */
	memset(&cfg, 0, sizeof(cfg));
	put("tx-kthreads = auto\n");
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), 0);
	bmd_conf_apply(&c, &cfg);
	ck_assert_uint_eq(cfg.tx_kthreads, BMD_TX_KTHREADS_AUTO);
	bmd_conf_free(&c);
}
END_TEST

/* No file where bmd looks by default: no error, nothing set; a file
 * named with -c must be there. */
START_TEST(missing_file)
{
	struct bm_error err = { "" };
	struct bmd_conf c;
	char want[256];

	ck_assert_int_eq(bmd_conf_read(path, false, &c, &err), 0);
	ck_assert_ptr_null(c.path);
	ck_assert_ptr_null(c.socket_path);
	ck_assert_int_eq(c.verbose, -1);
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	ck_assert_str_eq(err.msg, want);
	/* even the default file, when it is there, must be good */
	put("bogus\n");
	ck_assert_int_eq(bmd_conf_read(path, false, &c, &err), -EINVAL);
}
END_TEST

/* The limits bmd keeps; every bad value is one line naming the
 * key and the range. */
START_TEST(limits)
{
	struct bmd_config cfg = { .max_trials = 7 };
	struct bm_error err = { "" };
	struct bmd_conf c;

	put("max-trials = 5000\nmax-jobs = 100\nmax-jobs-per-user = 3\n");
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), 0);
	ck_assert_uint_eq(c.max_trials, 5000);
	ck_assert_uint_eq(c.max_jobs, 100);
	ck_assert_uint_eq(c.max_jobs_per_user, 3);
	/* a value the caller (the command line) gave wins */
	bmd_conf_apply(&c, &cfg);
	ck_assert_uint_eq(cfg.max_trials, 7);
	ck_assert_uint_eq(cfg.max_jobs, 100);
	ck_assert_uint_eq(cfg.max_jobs_per_user, 3);
	cfg.max_trials = 0;
	bmd_conf_apply(&c, &cfg);
	ck_assert_uint_eq(cfg.max_trials, 5000);
	bmd_conf_free(&c);
	bad("max-trials = 0\n",
	    "1: max-trials: '0' must be a whole number from 1 to 100000000");
	bad("max-trials = -5\n",
	    "1: max-trials: '-5' must be a whole number from 1 to 100000000");
	/* idle-timeout 0 is never (-1: 0 in a bmd_config is "not set") */
	put("max-connections = 8\nidle-timeout = 0\nmax-output-kib = 512\n");
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), 0);
	cfg = (struct bmd_config){ 0 };
	bmd_conf_apply(&c, &cfg);
	ck_assert_uint_eq(cfg.max_connections, 8);
	ck_assert(cfg.idle_timeout_s < 0);
	ck_assert_uint_eq(cfg.max_output, 512 << 10);
	bmd_conf_free(&c);
	/* the other tester hosts; sync-tolerance-us 0 is no limit */
	put("hosts = lab2  lab3=bmgen@10.0.0.3\nsync-tolerance-us = 0\n");
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), 0);
	cfg = (struct bmd_config){ 0 };
	bmd_conf_apply(&c, &cfg);
	ck_assert_str_eq(cfg.hosts, "lab2  lab3=bmgen@10.0.0.3");
	ck_assert(cfg.sync_tolerance_us < 0);
	bmd_conf_free(&c);
	put("sync-tolerance-us = 250\n");
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), 0);
	ck_assert(c.sync_tolerance_us == 250.0);
	bmd_conf_free(&c);
	put("idle-timeout = 60\n");
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), 0);
	ck_assert(c.idle_timeout_s == 60.0);
	bmd_conf_free(&c);
	bad("max-connections = 0\n",
	    "1: max-connections: '0' must be a whole number from 1 to 65536");
	bad("idle-timeout = 5m\n",
	    "1: idle-timeout: '5m' must be a whole number from 0 to 31536000");
	bad("max-output-kib = 64\n",
	    "1: max-output-kib: '64' must be a whole number from 256 to 1048576");
	bad("max-jobs = 0\n",
	    "1: max-jobs: '0' must be a whole number from 1 to 100000");
	bad("max-jobs-per-user = many\n",
	    "1: max-jobs-per-user: 'many' must be a whole number from 1 to 100000");
	bad("max-trials = 1e5\n",
	    "1: max-trials: '1e5' must be a whole number from 1 to 100000000");
	bad("max-trials = 99999999999999999999\n",
	    "1: max-trials: '99999999999999999999' must be a whole number from 1 to 100000000");
}
END_TEST

START_TEST(bad_lines)
{
	char longline[5000];

	bad("socket = /a\nfoo = 1\n",
	    "2: unknown key 'foo' (socket, results, group, results-mode, verbose, max-trials, max-jobs, max-jobs-per-user, max-connections, idle-timeout, max-output-kib, hw-timestamps, tcp-engine, tx-kthreads, tx-path, ports, admin-group, max-connections-per-user, request-timeout, max-memory-mib, dut-counters, dut-counters-wait, hosts, sync-tolerance-us, reset.NAME)");
	bad("\n\nsocket /a\n", "3: expected KEY = VALUE, got 'socket /a'");
	bad("results =\n", "1: results: no value after '='");
	bad(" = x\n", "1: no key before '='");
	bad("socket = relative.sock\n",
	    "1: socket: 'relative.sock' is not an absolute path");
	bad("results = ~/r\n", "1: results: '~/r' is not an absolute path");
	bad("group = a\n# again\ngroup = b\n",
	    "3: group: given twice (first on line 1)");
	bad("results-mode = 0666\n",
	    "1: results-mode: '0666' must be 0600, 0640 or 0644");
	bad("results-mode = 640\n",
	    "1: results-mode: '640' must be 0600, 0640 or 0644");
	bad("results-mode = 0640x\n",
	    "1: results-mode: '0640x' must be 0600, 0640 or 0644");
	bad("verbose = maybe\n", "1: verbose: 'maybe' must be yes or no");
	bad("hw-timestamps = yes\n",
	    "1: hw-timestamps: 'yes' must be auto or no");
	bad("tcp-engine = on\n", "1: tcp-engine: 'on' must be auto or no");
	bad("tx-kthreads = 0\n",
	    "1: tx-kthreads: '0' must be auto or a whole number from 1 to 1024");
	bad("tx-kthreads = Auto\n",
	    "1: tx-kthreads: 'Auto' must be auto or a whole number from 1 to 1024");
	bad("tx-path = mixed\n",
	    "1: tx-path: 'mixed' must be auto, alloc, recycle or xdp");
	bad("tx-path = XDP\n",
	    "1: tx-path: 'XDP' must be auto, alloc, recycle or xdp");
	bad("max-memory-mib = 8\n",
	    "1: max-memory-mib: '8' must be a whole number from 16 to 1048576");
	bad("dut-counters-wait = 3601\n",
	    "1: dut-counters-wait: '3601' must be a whole number from 0 to 3600");
	bad("request-timeout = 0\n",
	    "1: request-timeout: '0' must be a whole number from 1 to 3600");
	bad("ports = eth1 ../eth0\n",
	    "1: ports: '../eth0' is neither unaddressed nor a port name or pattern");
	bad("ports = eth0:1\n",
	    "1: ports: 'eth0:1' is neither unaddressed nor a port name or pattern");
	bad("ports = eth1\nports = eth2\n",
	    "2: ports: given twice (first on line 1)");
	bad("hosts = lab2 -oProxyCommand=x\n",
	    "1: hosts: '-oProxyCommand' is not a host name (letters, digits, '.', '_', '-', starting with a letter or digit)");
	bad("hosts = lab2=-oProxyCommand=x\n",
	    "1: hosts: lab2=-oProxyCommand=x: not an ssh destination (user@host or a name of ssh_config, not starting with '-')");
	bad("hosts = lab2=a;b\n",
	    "1: hosts: lab2=a;b: not an ssh destination (user@host or a name of ssh_config, not starting with '-')");
	bad("hosts = lab2 lab2=b\n", "1: hosts: lab2 named twice");
	bad("hosts = lab2 lab3:x\n",
	    "1: hosts: 'lab3:x' is not a host name (letters, digits, '.', '_', '-', starting with a letter or digit)");
	bad("sync-tolerance-us = 1.5\n",
	    "1: sync-tolerance-us: '1.5' must be a whole number from 0 to 1000000000");
	bad("reset.a = true\nreset.a = false\n", "2: reset.a: given twice");
	bad("reset. = true\n",
	    "1: reset.: a reset's name is 1 to 32 of A-Z a-z 0-9 . _ - (not '-' first)");
	bad("reset.a;b = true\n",
	    "1: reset.a;b: a reset's name is 1 to 32 of A-Z a-z 0-9 . _ - (not '-' first)");
	bad("reset.-x = true\n",
	    "1: reset.-x: a reset's name is 1 to 32 of A-Z a-z 0-9 . _ - (not '-' first)");
	bad("reset.abcdefghijklmnopqrstuvwxyz0123456 = true\n",
	    "1: reset.abcdefghijklmnopqrstuvwxyz0123456: a reset's name is 1 to 32 of A-Z a-z 0-9 . _ - (not '-' first)");
	bad("reset.a =   \n", "1: reset.a: no value after '='");
	memset(longline, 'x', sizeof(longline));
	memcpy(longline, "reset.a = ", 10);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	bad(longline, "1: longer than 4096 bytes");
}
END_TEST

/* A NUL would end the line where nobody sees it. */
START_TEST(nul_byte)
{
	static const char text[] = "reset.a = true\nreset.b = rm\0 -rf /\n";
	struct bm_error err = { "" };
	struct bmd_conf c;
	char want[256];

	put_n(text, sizeof(text) - 1);
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s:2: NUL byte", path);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* bmd runs the file's commands: only its owner (root or bmd's user) may
 * write it, and it is a regular file. */
START_TEST(file_owner_and_mode)
{
	struct bm_error err = { "" };
	struct bmd_conf c;
	char want[256];

	put("reset.a = true\n");
	ck_assert_int_eq(chmod(path, 0664), 0);
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s: mode 0664: writable by group or others, and bmd runs its reset commands (chmod go-w)",
		 path);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(chmod(path, 0646), 0);
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), -EINVAL);
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), 0);
	bmd_conf_free(&c);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
		ck_assert_int_eq(bmd_conf_read(path, true, &c, &err), -EINVAL);
		snprintf(want, sizeof(want), "%s: owned by uid 65534, not root or bmd's user: bmd runs its reset commands",
			 path);
		ck_assert_str_eq(err.msg, want);
	}
	ck_assert_int_eq(bmd_conf_read(dir, true, &c, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file", dir);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* Whatever the bytes, one line back and no crash (ASan/UBSan watch). */
START_TEST(random_files)
{
	static const char alphabet[] = "=#.\n\t -/reset.socketgroup0640yes\0\r";
	struct bm_error err;
	struct bmd_conf c;
	char text[512];
	unsigned int seed = 16, i, k, n;

	for (i = 0; i < 500; i++) {
		n = rand_r(&seed) % sizeof(text);
		for (k = 0; k < n; k++)
			text[k] = rand_r(&seed) % 4 ?
				  alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)] :
				  (char)rand_r(&seed);
		put_n(text, n);
		err.msg[0] = '\0';
		if (bmd_conf_read(path, true, &c, &err)) {
			ck_assert_ptr_null(strchr(err.msg, '\n'));
			ck_assert_msg(!strncmp(err.msg, path, strlen(path)),
				      "%s", err.msg);
		} else {
			bmd_conf_free(&c);
		}
	}
}
END_TEST

static Suite *conf_suite(void)
{
	Suite *s = suite_create("bmd_conf");
	TCase *tc = tcase_create("conf");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, good_file);
	tcase_add_test(tc, command_line_overrides_file);
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, bad_lines);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, nul_byte);
	tcase_add_test(tc, file_owner_and_mode);
	tcase_add_test(tc, random_files);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(conf_suite());
}
