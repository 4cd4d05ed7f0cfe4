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

/* A session as the options give it: the connections (each a copy of
 * proto, what the options give every connection), the ports they name,
 * and the warm-up and measured times. */
struct tcp_opts {
	struct bm_tcp_spec spec;
	struct bm_tcp_conn_spec proto;
	char names[BM_TCP_MAX_CONN * 2][16];
	unsigned int np;
	double warmup, duration;
};

static const struct option tcp_options[] = {
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

static int bad_value(const char *arg)
{
	fprintf(stderr, "bmgen-tcp: bad value '%s'\n", arg);
	return 2;
}

/* One option c into o: -1, or the exit code (a bad value, --help). */
static int parse_opt(int c, const char *arg, struct tcp_opts *o)
{
	struct bm_tcp_conn_spec *proto = &o->proto;
	struct bm_tcp_spec *spec = &o->spec;
	unsigned int i;
	double v;

	switch (c) {
	case 'p':
		for (i = 0; bm_ttp_names[i]; i++)
			if (!strcmp(bm_ttp_names[i], arg))
				break;
		if (!bm_ttp_names[i])
			return bad_value(arg);
		proto->pattern = (enum bm_ttp)i;
		break;
	case 'b':
		if (num(arg, 0, 1e15, &v))
			return bad_value(arg);
		proto->bytes = (uint64_t)v;
		break;
	case 'w':
		if (num(arg, 0, 3600, &o->warmup))
			return bad_value(arg);
		break;
	case 'd':
		if (num(arg, 0.1, 3600, &o->duration))
			return bad_value(arg);
		break;
	case 'c':
		snprintf(spec->cc, sizeof(spec->cc), "%s", arg);
		break;
	case 'S': case 'R': case 'C': case 'm':
		if (num(arg, 0, 1 << 30, &v))
			return bad_value(arg);
		*(c == 'S' ? &spec->sndbuf : c == 'R' ? &spec->rcvbuf :
		  c == 'C' ? &spec->window_clamp : &spec->mss) = (uint32_t)v;
		break;
	case 'D':
		if (num(arg, 0, 63, &v))
			return bad_value(arg);
		spec->dscp = (uint8_t)v;
		break;
	case 'W': case 'B':
		if (num(arg, 0, 1e12, &v))
			return bad_value(arg);
		*(c == 'W' ? &proto->warmup_bytes : &proto->burst_bytes) =
			(uint64_t)v;
		break;
	case 'I':
		if (num(arg, 0.001, 3600, &proto->burst_interval_s))
			return bad_value(arg);
		break;
	case 'x':
		if (num(arg, 0, 1e6, &v))
			return bad_value(arg);
		proto->executions = (uint32_t)v;
		break;
	case 'r':
		if (num(arg, 0, 1e18, &v))
			return bad_value(arg);
		proto->ttp.random = true;
		proto->ttp.seed = (uint64_t)v;
		break;
	case 'h':
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 2;
	}
	return -1;
}

/* The CLIENT:SERVER arguments from optind on into o's connections, each
 * a copy of o->proto: -1, or 2 on a bad one (said on stderr). */
static int parse_conns(int argc, char **argv, struct tcp_opts *o)
{
	for (; optind < argc; optind++) {
		char *c = argv[optind], *sv = strchr(c, ':');
		struct bm_tcp_conn_spec *cs = &o->spec.conn[o->spec.n_conn];
		int a = -1, b = -1;

		if (sv) {
			*sv = 0;
			a = port_of(o->names, &o->np, c);
			b = port_of(o->names, &o->np, sv + 1);
			*sv = ':';	/* the message shows it whole */
		}
		if (a < 0 || b < 0 || a == b) {
			fprintf(stderr, "bmgen-tcp: bad connection '%s' (CLIENT:SERVER)\n",
				argv[optind]);
			return 2;
		}
		*cs = o->proto;
		cs->client = (unsigned int)a;
		cs->server = (unsigned int)b;
		cs->ttp.kind = o->proto.pattern;
		o->spec.n_conn++;
	}
	return -1;
}

/* The options into o, from their defaults: -1, or the exit code. */
static int parse_opts(int argc, char **argv, struct tcp_opts *o)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->proto.pattern = BM_TTP_BULK;
	o->warmup = 1;
	o->duration = 5;
	while ((c = getopt_long(argc, argv, "h", tcp_options, NULL)) != -1) {
		ret = parse_opt(c, optarg, o);
		if (ret >= 0)
			return ret;
	}
	if (optind >= argc || argc - optind > BM_TCP_MAX_CONN) {
		usage(stderr);
		return 2;
	}
	return parse_conns(argc, argv, o);
}

/* The session: each port in its VRF, the connections started, warmed
 * up, measured and stopped into *res; 0, or 1 (its error on stderr). */
static int run_session(const struct tcp_opts *o, struct bm_backend *be,
		       struct bm_tcp_result *res)
{
	const char *pn[BM_TCP_MAX_CONN * 2];
	struct bm_error err;
	unsigned int i;
	int ret;

	for (i = 0; i < o->np; i++)
		pn[i] = o->names[i];
	if (bm_backend_set_ports(be, o->np, pn, &err) ||
	    bm_tcp_engine_attach(be, false, &err))
		goto fail;
	ret = bm_tcp_start(be, &o->spec, &err);
	if (ret)
		goto fail;
	be->tcp->run_for(be, o->warmup, false);
	be->tcp->mark(be, &err);
	be->tcp->run_for(be, o->duration, true);
	ret = be->tcp->stop(be, res, &err);
	bm_tcp_engine_detach(be);
	if (ret)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "bmgen-tcp: %s\n", err.msg);
	bm_tcp_engine_detach(be);
	return 1;
}

/* The result as JSON; 0 when every connection came up and ran, else 1. */
static int print_result(const struct bm_tcp_result *res,
			const struct bm_backend *be)
{
	json_object *j;
	unsigned int i;

	j = bm_tcp_result_json(res, (const char (*)[16])be->port_names);
	printf("%s\n", json_object_to_json_string_ext(j,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	for (i = 0; i < res->n_conn; i++)
		if (!res->conn[i].established || res->conn[i].error[0])
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct bm_tcp_result res;
	static struct bm_backend be;
	static struct tcp_opts o;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (run_session(&o, &be, &res))
		return 1;
	return print_result(&res, &be);
}
