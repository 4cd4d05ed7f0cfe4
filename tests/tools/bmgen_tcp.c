// SPDX-License-Identifier: GPL-2.0
/*
 * bmgen-tcp: one raw session of the kernel TCP engine (PLAT-TCP), without
 * bmd: connections between tester ports, each port in a VRF of its own so
 * that the segments cross the DUT (bm_tcp_engine.h).  Prints the session's
 * result as JSON (bm_tcp_result_json).  Exit 0 when every connection came
 * up and ran, 1 on an error (its message on stderr), 2 on bad arguments.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bm_tcp_engine.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bmgen-tcp [--pattern P] [--bytes N] [--warmup S]\n"
		"                 [--duration S] [--cc NAME] [--sndbuf N]\n"
		"                 [--rcvbuf N] [--clamp N] [--mss N] [--dscp D]\n"
		"                 [--warmup-bytes N] [--burst-bytes N]\n"
		"                 [--burst-interval S] [--executions N]\n"
		"                 [--random SEED] CLIENT:SERVER...\n"
		"P: bulk (default), micro, web-s, web-c, biz-s, biz-c, ecom,\n"
		"   email, smb-read, smb-write\n");
}

static int num(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || !*s || *end || !(*v >= lo && *v <= hi) ? -1 : 0;
}

/* The job index of port name, added when new; -1 when full. */
static int port_of(char names[][16], unsigned int *n, const char *name)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	if (*n >= BM_TCP_MAX_CONN * 2 || strlen(name) >= 16 || !*name)
		return -1;
	snprintf(names[*n], 16, "%s", name);
	return (int)(*n)++;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pattern", 1, NULL, 'p' }, { "bytes", 1, NULL, 'b' },
		{ "warmup", 1, NULL, 'w' }, { "duration", 1, NULL, 'd' },
		{ "cc", 1, NULL, 'c' }, { "sndbuf", 1, NULL, 'S' },
		{ "rcvbuf", 1, NULL, 'R' }, { "clamp", 1, NULL, 'C' },
		{ "mss", 1, NULL, 'm' }, { "dscp", 1, NULL, 'D' },
		{ "warmup-bytes", 1, NULL, 'W' }, { "burst-bytes", 1, NULL, 'B' },
		{ "burst-interval", 1, NULL, 'I' },
		{ "executions", 1, NULL, 'x' }, { "random", 1, NULL, 'r' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	static struct bm_tcp_spec spec;
	static struct bm_tcp_result res;
	static struct bm_backend be;
	struct bm_tcp_conn_spec proto = { .pattern = BM_TTP_BULK };
	char names[BM_TCP_MAX_CONN * 2][16];
	const char *pn[BM_TCP_MAX_CONN * 2];
	double warmup = 1, duration = 5, v;
	unsigned int np = 0, i;
	struct bm_error err;
	json_object *j;
	int o, ret;

	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 'p':
			for (i = 0; bm_ttp_names[i]; i++)
				if (!strcmp(bm_ttp_names[i], optarg))
					break;
			if (!bm_ttp_names[i])
				goto bad;
			proto.pattern = (enum bm_ttp)i;
			break;
		case 'b':
			if (num(optarg, 0, 1e15, &v))
				goto bad;
			proto.bytes = (uint64_t)v;
			break;
		case 'w':
			if (num(optarg, 0, 3600, &warmup))
				goto bad;
			break;
		case 'd':
			if (num(optarg, 0.1, 3600, &duration))
				goto bad;
			break;
		case 'c':
			snprintf(spec.cc, sizeof(spec.cc), "%s", optarg);
			break;
		case 'S': case 'R': case 'C': case 'm':
			if (num(optarg, 0, 1 << 30, &v))
				goto bad;
			*(o == 'S' ? &spec.sndbuf : o == 'R' ? &spec.rcvbuf :
			  o == 'C' ? &spec.window_clamp : &spec.mss) =
				(uint32_t)v;
			break;
		case 'D':
			if (num(optarg, 0, 63, &v))
				goto bad;
			spec.dscp = (uint8_t)v;
			break;
		case 'W': case 'B':
			if (num(optarg, 0, 1e12, &v))
				goto bad;
			*(o == 'W' ? &proto.warmup_bytes : &proto.burst_bytes) =
				(uint64_t)v;
			break;
		case 'I':
			if (num(optarg, 0.001, 3600, &proto.burst_interval_s))
				goto bad;
			break;
		case 'x':
			if (num(optarg, 0, 1e6, &v))
				goto bad;
			proto.executions = (uint32_t)v;
			break;
		case 'r':
			if (num(optarg, 0, 1e18, &v))
				goto bad;
			proto.ttp.random = true;
			proto.ttp.seed = (uint64_t)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc || argc - optind > BM_TCP_MAX_CONN) {
		usage(stderr);
		return 2;
	}
	for (; optind < argc; optind++) {
		char *c = argv[optind], *sv = strchr(c, ':');
		struct bm_tcp_conn_spec *cs = &spec.conn[spec.n_conn];
		int a, b;

		if (!sv)
			goto bad_conn;
		*sv++ = 0;
		a = port_of(names, &np, c);
		b = port_of(names, &np, sv);
		if (a < 0 || b < 0 || a == b)
			goto bad_conn;
		*cs = proto;
		cs->client = (unsigned int)a;
		cs->server = (unsigned int)b;
		cs->ttp.kind = proto.pattern;
		spec.n_conn++;
	}
	for (i = 0; i < np; i++)
		pn[i] = names[i];
	if (bm_backend_set_ports(&be, np, pn, &err) ||
	    bm_tcp_engine_attach(&be, false, &err))
		goto fail;
	ret = bm_tcp_start(&be, &spec, &err);
	if (ret)
		goto fail;
	be.tcp->run_for(&be, warmup, false);
	be.tcp->mark(&be, &err);
	be.tcp->run_for(&be, duration, true);
	ret = be.tcp->stop(&be, &res, &err);
	bm_tcp_engine_detach(&be);
	if (ret)
		goto fail;
	j = bm_tcp_result_json(&res, (const char (*)[16])be.port_names);
	printf("%s\n", json_object_to_json_string_ext(j,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	for (i = 0; i < res.n_conn; i++)
		if (!res.conn[i].established || res.conn[i].error[0])
			return 1;
	return 0;
bad:
	fprintf(stderr, "bmgen-tcp: bad value '%s'\n", optarg);
	return 2;
bad_conn:
	fprintf(stderr, "bmgen-tcp: bad connection '%s' (CLIENT:SERVER)\n",
		argv[optind]);
	return 2;
fail:
	fprintf(stderr, "bmgen-tcp: %s\n", err.msg);
	bm_tcp_engine_detach(&be);
	return 1;
}
