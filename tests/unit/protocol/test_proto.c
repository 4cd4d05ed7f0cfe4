// SPDX-License-Identifier: GPL-2.0
/*
 * The bmd protocol: framing (bm_linebuf), request validation (every
 * malformed request is refused with a message that says what is wrong),
 * responses, the atomic result store, the CSV and sysfs port info.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bm_portinfo.h"
#include "bm_proto.h"
#include "bm_store.h"
#include "check_util.h"

/* --- framing ------------------------------------------------------------ */

START_TEST(lines_split_across_chunks)
{
	struct bm_linebuf lb = { 0 };
	size_t len;
	char *line;

	ck_assert_int_eq(bm_linebuf_append(&lb, "{\"a\":", 5), 0);
	ck_assert_int_eq(bm_linebuf_next(&lb, &line, &len), BM_LINE_NONE);
	ck_assert_int_eq(bm_linebuf_append(&lb, "1}\n{\"b\":2}\npart", 15), 0);
	ck_assert_int_eq(bm_linebuf_next(&lb, &line, &len), BM_LINE_OK);
	ck_assert_str_eq(line, "{\"a\":1}");
	ck_assert_uint_eq(len, 7);
	ck_assert_int_eq(bm_linebuf_next(&lb, &line, &len), BM_LINE_OK);
	ck_assert_str_eq(line, "{\"b\":2}");
	ck_assert_int_eq(bm_linebuf_next(&lb, &line, &len), BM_LINE_NONE);
	ck_assert_int_eq(bm_linebuf_append(&lb, "ial\n", 4), 0);
	ck_assert_int_eq(bm_linebuf_next(&lb, &line, &len), BM_LINE_OK);
	ck_assert_str_eq(line, "partial");
	bm_linebuf_free(&lb);
}
END_TEST

/* An oversize line is reported once, skipped to its newline, and the
 * stream goes on: the daemon answers the next request normally. */
START_TEST(oversize_line_reported_once_then_skipped)
{
	struct bm_linebuf lb = { 0 };
	size_t chunk = 256 * 1024, sent = 0, len;
	char *junk = malloc(chunk), *line;
	int too_long = 0;
	enum bm_line_status st;

	memset(junk, 'x', chunk);
	while (sent <= BM_PROTO_MAX_LINE + chunk) {
		ck_assert_int_eq(bm_linebuf_append(&lb, junk, chunk), 0);
		sent += chunk;
		while ((st = bm_linebuf_next(&lb, &line, &len)) != BM_LINE_NONE) {
			ck_assert_int_eq(st, BM_LINE_TOO_LONG);
			too_long++;
		}
		/* Memory stays bounded while the line is being dropped. */
		ck_assert_uint_le(lb.len - lb.consumed, BM_PROTO_MAX_LINE + chunk);
	}
	ck_assert_int_eq(too_long, 1);
	ck_assert_int_eq(bm_linebuf_append(&lb, "xx\n{\"ok\":1}\n", 12), 0);
	ck_assert_int_eq(bm_linebuf_next(&lb, &line, &len), BM_LINE_OK);
	ck_assert_str_eq(line, "{\"ok\":1}");
	bm_linebuf_free(&lb);
	free(junk);
}
END_TEST

START_TEST(line_at_limit_accepted)
{
	struct bm_linebuf lb = { 0 };
	char *buf = malloc(BM_PROTO_MAX_LINE + 2), *line;
	size_t len;

	memset(buf, 'y', BM_PROTO_MAX_LINE);
	buf[BM_PROTO_MAX_LINE] = '\n';
	buf[BM_PROTO_MAX_LINE + 1] = '\n';
	ck_assert_int_eq(bm_linebuf_append(&lb, buf, BM_PROTO_MAX_LINE + 1), 0);
	ck_assert_int_eq(bm_linebuf_next(&lb, &line, &len), BM_LINE_OK);
	ck_assert_uint_eq(len, BM_PROTO_MAX_LINE);
	/* One byte more is too long. */
	buf[BM_PROTO_MAX_LINE] = 'y';
	ck_assert_int_eq(bm_linebuf_append(&lb, buf, BM_PROTO_MAX_LINE + 2), 0);
	ck_assert_int_eq(bm_linebuf_next(&lb, &line, &len), BM_LINE_TOO_LONG);
	ck_assert_int_eq(bm_linebuf_next(&lb, &line, &len), BM_LINE_NONE);
	bm_linebuf_free(&lb);
	free(buf);
}
END_TEST

START_TEST(proto_line_has_no_inner_newline)
{
	json_object *o = json_object_new_object();
	size_t len;
	char *s;

	json_object_object_add(o, "error",
			       json_object_new_string("two\nlines\r\n"));
	s = bm_proto_line(o, &len);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(len, strlen(s));
	ck_assert_ptr_eq(strchr(s, '\n'), s + len - 1);
	free(s);
	json_object_put(o);
}
END_TEST

/* --- requests ----------------------------------------------------------- */

/* Parse s; the return code, err in msg. */
static int parse(const char *s, struct bm_request *q, char *msg)
{
	struct bm_error err = { "" };
	int ret = bm_request_parse(s, strlen(s), q, &err);

	strcpy(msg, err.msg);
	return ret;
}

START_TEST(valid_requests)
{
	struct bm_request q;
	char msg[256];

	ck_assert_int_eq(parse("{\"id\":1,\"cmd\":\"status\"}", &q, msg), 0);
	ck_assert_int_eq(q.cmd, BM_CMD_STATUS);
	ck_assert_int_eq(q.id, 1);
	bm_request_free(&q);

	ck_assert_int_eq(parse(" {\"id\":7,\"cmd\":\"watch\",\"job\":3,"
			       "\"history\":true} ", &q, msg), 0);
	ck_assert_int_eq(q.cmd, BM_CMD_WATCH);
	ck_assert_int_eq(q.job, 3);
	ck_assert(q.history);
	bm_request_free(&q);

	ck_assert_int_eq(parse("{\"id\":2,\"cmd\":\"submit\",\"procedure\":"
			       "\"rfc2544.throughput\",\"params\":{\"x\":1},"
			       "\"ports\":{\"tx\":\"eth0\",\"rx\":\"eth1\","
			       "\"line_rate_bps\":1e10}}", &q, msg), 0);
	ck_assert_str_eq(q.procedure, "rfc2544.throughput");
	ck_assert_str_eq(q.tx_port, "eth0");
	ck_assert_str_eq(q.rx_port, "eth1");
	ck_assert(q.line_rate_bps == 1e10);
	ck_assert(q.sync_tolerance_us == 0);
	ck_assert_ptr_nonnull(q.params);
	ck_assert(!q.dry_run);
	/* a pair is a list of two: what bmd's jobs keep */
	ck_assert_uint_eq(q.n_ports, 2);
	ck_assert_str_eq(q.ports[0], "eth0");
	ck_assert_str_eq(q.ports[1], "eth1");
	bm_request_free(&q);

	/* N ports in the order given; tx and rx are its first two. */
	ck_assert_int_eq(parse("{\"id\":8,\"cmd\":\"submit\",\"procedure\":"
			       "\"rfc8239.buffer\",\"ports\":{\"list\":"
			       "[\"eth2\",\"eth0\",\"eth1\"]}}", &q, msg), 0);
	ck_assert_uint_eq(q.n_ports, 3);
	ck_assert_str_eq(q.ports[0], "eth2");
	ck_assert_str_eq(q.ports[1], "eth0");
	ck_assert_str_eq(q.ports[2], "eth1");
	ck_assert_str_eq(q.tx_port, "eth2");
	ck_assert_str_eq(q.rx_port, "eth0");
	bm_request_free(&q);
	/* tx and rx may come with the list when they agree with it. */
	ck_assert_int_eq(parse("{\"id\":9,\"cmd\":\"submit\",\"procedure\":"
			       "\"x\",\"ports\":{\"tx\":\"a\",\"rx\":\"b\","
			       "\"list\":[\"a\",\"b\",\"c\",\"d\"],"
			       "\"line_rate_bps\":1e9}}", &q, msg), 0);
	ck_assert_uint_eq(q.n_ports, 4);
	ck_assert_str_eq(q.ports[3], "d");
	ck_assert(q.line_rate_bps == 1e9);
	bm_request_free(&q);
	/* a pool's tolerance of its hosts' clocks, in us */
	ck_assert_int_eq(parse("{\"id\":9,\"cmd\":\"submit\",\"procedure\":"
			       "\"x\",\"ports\":{\"tx\":\"a\",\"rx\":\"h:b\","
			       "\"line_rate_bps\":1e9,\"sync_tolerance_us\":50}}",
			       &q, msg), 0);
	ck_assert(q.sync_tolerance_us == 50);
	bm_request_free(&q);

	/* A dry run needs no ports; sim is allowed with it. */
	ck_assert_int_eq(parse("{\"id\":3,\"cmd\":\"submit\",\"procedure\":"
			       "\"mlrsearch\",\"dry_run\":true,\"sim\":{}}",
			       &q, msg), 0);
	ck_assert(q.dry_run);
	ck_assert_ptr_null(q.tx_port);
	ck_assert_uint_eq(q.n_ports, 0);
	ck_assert_ptr_nonnull(q.sim);
	ck_assert(!q.router);
	bm_request_free(&q);

	/* bmd's ports: bmctl port list asks bmd, not its own host. */
	ck_assert_int_eq(parse("{\"id\":6,\"cmd\":\"ports\"}", &q, msg), 0);
	ck_assert_int_eq(q.cmd, BM_CMD_PORTS);
	ck_assert_str_eq(bm_cmd_name(q.cmd), "ports");
	bm_request_free(&q);

	/* The DUT descriptor of RFC 2544 §7 and router mode (App C). */
	ck_assert_int_eq(parse("{\"id\":5,\"cmd\":\"submit\",\"procedure\":"
			       "\"rfc2544.throughput\",\"dry_run\":true,"
			       "\"dut\":{\"mode\":\"router\",\"name\":\"r1\","
			       "\"software_version\":\"6.1\","
			       "\"configuration\":\"ip forward\\n\"}}",
			       &q, msg), 0);
	ck_assert(q.router);
	ck_assert_ptr_nonnull(q.dut);
	bm_request_free(&q);

	/* One procedure's description (bmctl run PROC --help). */
	ck_assert_int_eq(parse("{\"id\":4,\"cmd\":\"procedure\",\"procedure\":"
			       "\"rfc2544.throughput\"}", &q, msg), 0);
	ck_assert_int_eq(q.cmd, BM_CMD_PROCEDURE);
	ck_assert_str_eq(bm_cmd_name(q.cmd), "procedure");
	ck_assert_str_eq(q.procedure, "rfc2544.throughput");
	bm_request_free(&q);
}
END_TEST

static const struct {
	const char *req;
	const char *msg;	/* substring of the error */
	bool has_id;
} bad[] = {
	{ "", "malformed JSON", false },
	{ "{\"id\":1,\"cmd\":\"status\"", "malformed JSON", false },
	{ "{\"id\":1,\"cmd\":\"status\"} {}", "trailing data", false },
	/* RFC 8259 only: what json-c alone would have taken */
	{ "{'id':1,'cmd':'status'}", "malformed JSON: a single quote (JSON strings take \") at byte 1", false },
	{ "{\"id\":1,\"cmd\":\"status\" /* hi */}", "malformed JSON: a comment (JSON has none) at byte 23", false },
	{ "{\"id\":1,\"cmd\":\"status\",\"cmd\":\"cancel\"}", "malformed JSON: a name given twice in one object", false },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"rfc2544.throughput\",\"params\":{\"trial_duration_s\":NaN}}", "malformed JSON: NaN, Infinity and + are not JSON numbers at byte 85", false },
	{ "{\"id\":18446744073709551617,\"cmd\":\"status\"}", "malformed JSON: an integer beyond 64 bits at byte 6", false },
	{ "{\"id\":1,\"cmd\":\"job\",\"job\":99999999999999999999}", "malformed JSON: an integer beyond 64 bits", false },
	{ "[1,2]", "must be a JSON object", false },
	{ "\"status\"", "must be a JSON object", false },
	{ "{\"cmd\":\"status\"}", "missing 'id'", false },
	{ "{\"id\":\"1\",\"cmd\":\"status\"}", "'id' must be an integer", false },
	{ "{\"id\":1.5,\"cmd\":\"status\"}", "'id' must be an integer", false },
	{ "{\"id\":1}", "missing 'cmd'", true },
	{ "{\"id\":1,\"cmd\":5}", "'cmd' must be a string", true },
	{ "{\"id\":1,\"cmd\":\"reboot\"}", "unknown cmd 'reboot'", true },
	{ "{\"id\":1,\"cmd\":\"status\",\"x\":1}", "unknown field 'x'", true },
	{ "{\"id\":1,\"cmd\":\"job\"}", "job: missing 'job'", true },
	{ "{\"id\":1,\"cmd\":\"job\",\"job\":\"3\"}", "'job' must be an integer", true },
	{ "{\"id\":1,\"cmd\":\"cancel\",\"job\":0}", "'job' must be > 0", true },
	{ "{\"id\":1,\"cmd\":\"watch\",\"job\":1,\"history\":1}",
	  "'history' must be a boolean", true },
	{ "{\"id\":1,\"cmd\":\"submit\"}", "missing 'procedure'", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"a b\",\"dry_run\":true}",
	  "bad procedure name", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\"}",
	  "missing 'ports'", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"params\":[]}",
	  "'params' must be an object", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":{\"tx\":\"a\"}}",
	  "need both 'tx' and 'rx'", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"tx\":\"../etc\",\"rx\":\"b\"}}", "bad interface name", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"tx\":\"averyveryverylongname\",\"rx\":\"b\"}}",
	  "bad interface name", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"tx\":\"a\",\"rx\":\"b\",\"line_rate_bps\":-1}}",
	  "line_rate_bps must be > 0", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"tx\":\"a\",\"rx\":\"b\",\"speed\":1}}", "unknown field 'speed'", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"tx\":\"a\",\"rx\":\"h:b\",\"sync_tolerance_us\":0}}",
	  "sync_tolerance_us must be > 0 and <= 1e6", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"tx\":\"a\",\"rx\":\"h:b\",\"sync_tolerance_us\":2e6}}",
	  "sync_tolerance_us must be > 0 and <= 1e6", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"sim\":{},"
	  "\"ports\":{\"tx\":\"a\",\"rx\":\"b\"}}", "'sim' needs", true },
	/* ports.list: 2..256 distinct good names, agreeing with tx/rx */
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":\"a,b\"}}", "submit: ports: 'list' must be an array", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\"]}}", "'list' must name 2 to 256 ports, not 1", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[]}}", "'list' must name 2 to 256 ports, not 0", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",7]}}", "submit: ports: list[1] must be a string",
	  true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\"b\",\"../etc\"]}}",
	  "submit: ports: list[2]: bad interface name", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\"averyveryverylongname\"]}}",
	  "list[1]: bad interface name", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\"b\\nc\"]}}", "list[1]: bad interface name",
	  true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\"\"]}}", "list[1]: bad interface name", true },
	/* a port of another host: HOST:IFNAME, a host name that is no
	 * ssh option, the whole within a port name's 15 characters */
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\"-oProxy:b\"]}}", "list[1]: bad interface name",
	  true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\":b\"]}}", "list[1]: bad interface name", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\"h:b:c\"]}}", "list[1]: bad interface name",
	  true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\"h2 x:b\"]}}", "list[1]: bad interface name",
	  true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\"lab2:ens1f0np0x1\"]}}",
	  "list[1]: bad interface name (IFNAME or HOST:IFNAME, at most 15 "
	  "characters)", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"tx\":\"a\",\"rx\":\"h:\"}}", "bad interface name", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"list\":[\"a\",\"b\",\"c\",\"b\"]}}",
	  "submit: ports: 'b' is in 'list' twice (list[1] and list[3])", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"tx\":\"b\",\"list\":[\"a\",\"b\",\"c\"]}}",
	  "submit: ports: 'tx' must be list[0] ('a')", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	  "{\"tx\":\"a\",\"rx\":\"c\",\"list\":[\"a\",\"b\",\"c\"]}}",
	  "submit: ports: 'rx' must be list[1] ('b')", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"dry_run\":true,"
	  "\"ports\":{\"list\":[\"a\",\"a\"]}}", "'a' is in 'list' twice",
	  true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"dry_run\":\"yes\"}",
	  "'dry_run' must be a boolean", true },
	{ "{\"id\":1,\"cmd\":\"procedure\"}", "procedure: missing 'procedure'",
	  true },
	{ "{\"id\":1,\"cmd\":\"ports\",\"host\":\"x\"}",
	  "ports: unknown field 'host'", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"dry_run\":true,"
	  "\"dut\":{\"mode\":\"switch\"}}", "mode must be \"bridge\" or \"router\"",
	  true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"dry_run\":true,"
	  "\"dut\":{\"vendor\":\"y\"}}", "submit: dut: unknown field 'vendor'",
	  true },
	/* REQ-2544-7: RFC 2544 §15's pathway is one of three */
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"dry_run\":true,"
	  "\"dut\":{\"pathway\":\"same card\"}}",
	  "pathway must be \"same-card\", \"cross-card\" or \"n/a\"", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"dry_run\":true,"
	  "\"dut\":{\"name\":7}}", "'name' must be a string", true },
	{ "{\"id\":1,\"cmd\":\"submit\",\"procedure\":\"x\",\"dry_run\":true,"
	  "\"dut\":[]}", "'dut' must be an object", true },
	{ "{\"id\":1,\"cmd\":\"procedure\",\"procedure\":7}",
	  "'procedure' must be a string", true },
	{ "{\"id\":1,\"cmd\":\"procedure\",\"procedure\":\"../x\"}",
	  "procedure: bad procedure name", true },
	{ "{\"id\":1,\"cmd\":\"procedure\",\"procedure\":\"x\",\"params\":{}}",
	  "procedure: unknown field 'params'", true },
};

START_TEST(malformed_requests_rejected)
{
	struct bm_request q;
	char msg[256];

	ck_assert_int_eq(parse(bad[_i].req, &q, msg), -EINVAL);
	ck_assert_msg(strstr(msg, bad[_i].msg), "request %s: got '%s', want '%s'",
		      bad[_i].req, msg, bad[_i].msg);
	ck_assert_ptr_null(strchr(msg, '\n'));
	ck_assert_int_eq(q.has_id, bad[_i].has_id);
	bm_request_free(&q);
}
END_TEST

/* ports.list at its limits: 256 ports are a job, 257 are not. */
START_TEST(port_list_limits)
{
	struct bm_request q;
	size_t cap = 64 + 20 * (BM_PROTO_MAX_PORTS + 1), len, n;
	char *s = malloc(cap), msg[256];
	unsigned int i;

	for (n = BM_PROTO_MAX_PORTS; n <= BM_PROTO_MAX_PORTS + 1; n++) {
		len = snprintf(s, cap, "{\"id\":1,\"cmd\":\"submit\","
			       "\"procedure\":\"x\",\"ports\":{\"list\":[");
		for (i = 0; i < n; i++)
			len += snprintf(s + len, cap - len, "%s\"p%u\"",
					i ? "," : "", i);
		snprintf(s + len, cap - len, "]}}");
		if (n == BM_PROTO_MAX_PORTS) {
			ck_assert_int_eq(parse(s, &q, msg), 0);
			ck_assert_uint_eq(q.n_ports, BM_PROTO_MAX_PORTS);
			ck_assert_str_eq(q.ports[255], "p255");
		} else {
			ck_assert_int_eq(parse(s, &q, msg), -EINVAL);
			ck_assert_str_eq(msg, "submit: ports: 'list' must name 2 to 256 ports, not 257");
		}
		bm_request_free(&q);
	}
	free(s);
}
END_TEST

START_TEST(nul_byte_and_deep_nesting_rejected)
{
	struct bm_error err = { "" };
	struct bm_request q;
	char deep[2000];
	int i;

	ck_assert_int_eq(bm_request_parse("{\"id\":1,\0\"cmd\":1}", 16, &q,
					  &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "NUL"));
	bm_request_free(&q);
	for (i = 0; i < 999; i++)
		deep[i] = '[';
	deep[i] = '\0';
	ck_assert_int_eq(bm_request_parse(deep, strlen(deep), &q, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "malformed JSON"));
	bm_request_free(&q);
}
END_TEST

START_TEST(responses)
{
	json_object *o = bm_response_error(4, true, "no job 9"), *v;

	ck_assert(json_object_object_get_ex(o, "id", &v));
	ck_assert_int_eq(json_object_get_int(v), 4);
	ck_assert(json_object_object_get_ex(o, "ok", &v));
	ck_assert(!json_object_get_boolean(v));
	ck_assert(json_object_object_get_ex(o, "error", &v));
	ck_assert_str_eq(json_object_get_string(v), "no job 9");
	json_object_put(o);
	o = bm_response_ok(0, false);
	ck_assert(json_object_object_get_ex(o, "id", &v));
	ck_assert_ptr_null(v);
	json_object_put(o);
}
END_TEST

/* A bmd that refuses the peer answers before reading the request, with
 * a null id, and hangs up: the client reports that reason, not "bmd
 * closed the connection". */
/*
 * The protocol over a command's standard input and output (bmctl -H: ssh
 * running bmctl bridge on another host): a request goes out on its stdin,
 * the answer comes back on its stdout, and closing waits for the process;
 * a command that ends without answering (ssh that cannot connect) is a
 * closed connection, never a hang.
 */
START_TEST(client_over_a_command)
{
	char *answer[] = { "sh", "-c", "read -r l; case $l in "
			   "*'\"status\"'*) echo '{\"id\": 1, "
			   "\"ok\": true, \"version\": \"9\"}';; esac", NULL };
	char *gone[] = { "sh", "-c", "exit 255", NULL };
	struct bm_error err = { "" };
	struct bm_client c;
	json_object *q, *r = NULL, *v;

	ck_assert_int_eq(bm_client_open_cmd(&c, answer, &err), 0);
	ck_assert_int_gt(c.pid, 0);
	q = json_object_new_object();
	json_object_object_add(q, "cmd", json_object_new_string("status"));
	ck_assert_int_eq(bm_client_call(&c, q, &r, &err), 0);
	ck_assert(json_object_object_get_ex(r, "version", &v));
	ck_assert_str_eq(json_object_get_string(v), "9");
	json_object_put(r);
	bm_client_close(&c);
	ck_assert_int_eq(c.pid, 0);
	ck_assert_int_eq(c.fd, -1);

	ck_assert_int_eq(bm_client_open_cmd(&c, gone, &err), 0);
	r = NULL;
	ck_assert_int_lt(bm_client_call(&c, q, &r, &err), 0);
	ck_assert_ptr_null(r);
	bm_client_close(&c);
	json_object_put(q);
}
END_TEST

START_TEST(client_call_reports_refusal_without_id)
{
	static const char refusal[] = "{\"id\":null,\"ok\":false,\"error\":"
		"\"permission denied: uid 1001 is not root or bmd's user (uid 0), "
		"and bmd has no -g group\"}\n";
	struct bm_error err = { "" };
	struct bm_client c;
	json_object *q, *r;
	int sv[2];

	int i;

	/* bmd hung up before the request (i = 0) or after it (i = 1) */
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		ck_assert_int_eq(write(sv[1], refusal, strlen(refusal)),
				 (ssize_t)strlen(refusal));
		if (!i)
			close(sv[1]);
		c = (struct bm_client){ .fd = sv[0], .next_id = 1 };
		q = json_object_new_object();
		json_object_object_add(q, "cmd",
				       json_object_new_string("status"));
		ck_assert_int_eq(bm_client_call(&c, q, &r, &err), -EREMOTEIO);
		ck_assert_str_eq(err.msg, "permission denied: uid 1001 is not root or bmd's user (uid 0), and bmd has no -g group");
		json_object_put(q);
		json_object_put(r);
		bm_client_close(&c);
		if (i)
			close(sv[1]);
	}
}
END_TEST

/* --- UTF-8 -------------------------------------------------------------- */

/* The error reply bmd would send for msg: one line that a strict reader
 * takes as JSON, with the request's id. */
static void reply_is_json(const char *msg, int64_t id)
{
	json_object *o = bm_response_error(id, true, msg), *back, *v;
	size_t len;
	char *line = bm_proto_line(o, &len);

	ck_assert_ptr_nonnull(line);
	ck_assert_msg(tj_utf8_valid(line, len), "reply not UTF-8: %s", line);
	back = json_tokener_parse(line);
	ck_assert_ptr_nonnull(back);
	ck_assert(json_object_object_get_ex(back, "id", &v));
	ck_assert_int_eq(json_object_get_int64(v), id);
	json_object_put(back);
	json_object_put(o);
	free(line);
}

/* Ill-formed UTF-8 where a refusal used to quote it (cmd, field name,
 * procedure name, port name) or a job would store it (dut), in every way
 * it can be ill-formed: a stray byte, a truncated sequence, an overlong
 * form, a surrogate, a code point above U+10FFFF. */
static const char *const bad_utf8[] = {
	"{\"id\":5,\"cmd\":\"\xff\"}",
	"{\"id\":5,\"cmd\":\"status\",\"\xc3\":1}",
	"{\"id\":5,\"cmd\":\"procedure\",\"procedure\":\"\xed\xa0\x80\"}",
	"{\"id\":5,\"cmd\":\"submit\",\"procedure\":\"\xc0\xaf\",\"dry_run\":true}",
	"{\"id\":5,\"cmd\":\"submit\",\"procedure\":\"x\",\"ports\":"
	"{\"list\":[\"a\",\"\xf4\x90\x80\x80\"]}}",
	"{\"id\":5,\"cmd\":\"submit\",\"procedure\":\"x\",\"dry_run\":true,"
	"\"dut\":{\"name\":\"\xe2\x82\"}}",
	"{\"id\":5,\"cmd\":\"submit\",\"procedure\":\"x\",\"dry_run\":true,"
	"\"params\":{\"\x80\":1}}",
};

START_TEST(invalid_utf8_refused_never_echoed)
{
	struct bm_request q;
	char msg[256];

	ck_assert_int_eq(parse(bad_utf8[_i], &q, msg), -EINVAL);
	ck_assert_msg(strstr(msg, "invalid UTF-8 at byte"), "%s", msg);
	ck_assert(q.has_id);
	reply_is_json(msg, q.id);
	bm_request_free(&q);
}
END_TEST

START_TEST(utf8_check_offsets)
{
	ck_assert_uint_eq(bm_utf8_check("abc", 3), 3);
	ck_assert_uint_eq(bm_utf8_check("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
					10), 10);
	ck_assert_uint_eq(bm_utf8_check("ab\xff", 3), 2);
	ck_assert_uint_eq(bm_utf8_check("a\xc3", 2), 1);
	ck_assert_uint_eq(bm_utf8_check("a\xc1\xbf", 3), 1);
	ck_assert_uint_eq(bm_utf8_check("a\xe0\x9f\xbf", 4), 1);
	ck_assert_uint_eq(bm_utf8_check("a\xed\xbf\xbf", 4), 1);
	ck_assert_uint_eq(bm_utf8_check("a\xf4\x90\x80\x80", 5), 1);
	ck_assert_uint_eq(bm_utf8_check("\xf4\x8f\xbf\xbf", 4), 4);
}
END_TEST

/* Whatever bytes an object holds (a job file of an older bmd), its line
 * is well-formed UTF-8: each maximal ill-formed subpart becomes one
 * U+FFFD and well-formed text is left alone. */
START_TEST(proto_line_replaces_invalid_utf8)
{
	json_object *o = json_object_new_object();
	size_t len;
	char *s;

	json_object_object_add(o, "a\xff",
			       json_object_new_string("x\xe2\x82y\xc0\xafz"));
	json_object_object_add(o, "ok", json_object_new_string("\xc3\xa9\xf0\x9f\x98\x80"));
	s = bm_proto_line(o, &len);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(len, strlen(s));
	ck_assert(tj_utf8_valid(s, len));
	ck_assert_str_eq(s, "{\"a\xef\xbf\xbd\":\"x\xef\xbf\xbdy\xef\xbf\xbd"
			 "\xef\xbf\xbdz\",\"ok\":\"\xc3\xa9\xf0\x9f\x98\x80\"}\n");
	free(s);
	json_object_put(o);
}
END_TEST

/* A refusal quotes at most 64 bytes of a name and never cuts a
 * character in two. */
START_TEST(long_name_clipped_at_a_character)
{
	char req[256], key[128], want[128], msg[256];
	struct bm_request q;
	size_t n = 0;
	int i;

	key[n++] = 'x';
	for (i = 0; i < 40; i++) {
		key[n++] = '\xc3';
		key[n++] = '\xa9';
	}
	key[n] = '\0';
	snprintf(req, sizeof(req), "{\"id\":2,\"cmd\":\"status\",\"%s\":1}",
		 key);
	/* byte 64 is the second byte of the 32nd é: 31 of them stay */
	snprintf(want, sizeof(want), "status: unknown field '%.63s'", key);
	ck_assert_int_eq(parse(req, &q, msg), -EINVAL);
	ck_assert_str_eq(msg, want);
	reply_is_json(msg, 2);
	bm_request_free(&q);
}
END_TEST

/*
 * A JSON key may hold any character, "\n" too: quoted in a refusal it
 * made a reason of two lines, and bmd -v logged "bad request: ..." as
 * two lines of its log, the second one the client's.  Every reason is
 * one line: control characters are '?'.  Found by tests/fuzz.
 */
START_TEST(control_chars_never_break_the_reason)
{
	struct bm_request q;
	char msg[256];

	ck_assert_int_eq(parse("{\"id\":2,\"cmd\":\"status\","
			       "\"x\\nbmd: forged\\r\\t\\u001b\":1}", &q, msg),
			 -EINVAL);
	ck_assert_str_eq(msg, "status: unknown field 'x?bmd: forged??" "?'");
	bm_request_free(&q);
	ck_assert_int_eq(parse("{\"id\":2,\"cmd\":\"a\\nb\"}", &q, msg),
			 -EINVAL);
	ck_assert_str_eq(msg, "unknown cmd 'a?b'");
	bm_request_free(&q);
}
END_TEST

/* --- store -------------------------------------------------------------- */

static char tmpdir[64];

static void mk_tmpdir(void)
{
	strcpy(tmpdir, "/tmp/bmtest.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static int count_entries(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

START_TEST(atomic_write_replaces_and_leaves_no_temp)
{
	struct bm_error err = { "" };
	char path[128], buf[32] = "";
	FILE *f;

	mk_tmpdir();
	ck_assert_int_eq(bm_write_atomic(tmpdir, "a.txt", "old", 3, &err), 0);
	ck_assert_int_eq(bm_write_atomic(tmpdir, "a.txt", "new!", 4, &err), 0);
	snprintf(path, sizeof(path), "%s/a.txt", tmpdir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "new!");
	ck_assert_int_eq(count_entries(tmpdir), 1);
	/* A directory that is not there: an error naming it, nothing left. */
	ck_assert_int_lt(bm_write_atomic("/nonexistent/dir", "x", "1", 1,
					 &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/dir"));
	unlink(path);
	rmdir(tmpdir);
}
END_TEST

START_TEST(csv_flattens_and_quotes)
{
	json_object *r = json_tokener_parse(
		"{\"trials\":[{\"index\":0,\"spec\":{\"rate_fps\":1.5},"
		"\"why\":\"a, \\\"b\\\"\"},{\"index\":1,\"extra\":true}]}");
	char *csv;

	csv = bm_result_csv(r);
	ck_assert_ptr_nonnull(csv);
	ck_assert_str_eq(csv, "index,spec.rate_fps,why,extra\n"
			      "0,1.5,\"a, \"\"b\"\"\",\n"
			      "1,,,true\n");
	free(csv);
	json_object_put(r);
	/* No trials: just an empty header line, never NULL. */
	r = json_object_new_object();
	csv = bm_result_csv(r);
	ck_assert_str_eq(csv, "\n");
	free(csv);
	json_object_put(r);
}
END_TEST

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(port_info_from_sysfs)
{
	struct bm_port_info pi, *v;
	char p[256];
	size_t n;

	mk_tmpdir();
	snprintf(p, sizeof(p), "%s/eth0", tmpdir);
	mkdir(p, 0755);
	put(p, "speed", "10000\n");
	put(p, "mtu", "1500\n");
	put(p, "operstate", "up\n");
	put(p, "address", "02:00:00:00:00:01\n");
	snprintf(p, sizeof(p), "%s/eth0/device", tmpdir);
	ck_assert_int_eq(symlink("../devices/pci0000:00/0000:03:00.0", p), 0);
	snprintf(p, sizeof(p), "%s/devices/pci0000:00/0000:03:00.0", tmpdir);
	ck_assert_int_eq(bm_mkdirs(p, NULL), 0);
	snprintf(p, sizeof(p), "%s/devices/pci0000:00/0000:03:00.0/driver",
		 tmpdir);
	ck_assert_int_eq(symlink("../../../bus/pci/drivers/ixgbe", p), 0);
	snprintf(p, sizeof(p), "%s/veth1", tmpdir);
	mkdir(p, 0755);
	put(p, "speed", "-1\n");

	/* sysfs root is tmpdir itself here; "devices" is a port too. */
	ck_assert_int_eq(bm_port_info(tmpdir, "eth0", &pi), 0);
	ck_assert_str_eq(pi.driver, "ixgbe");
	ck_assert_str_eq(pi.bus_info, "0000:03:00.0");
	ck_assert_int_eq(pi.speed_mbps, 10000);
	ck_assert_int_eq(pi.mtu, 1500);
	ck_assert_str_eq(pi.operstate, "up");
	ck_assert_int_eq(bm_port_info(tmpdir, "veth1", &pi), 0);
	ck_assert_str_eq(pi.driver, "virtual");
	ck_assert_int_eq(pi.speed_mbps, -1);
	ck_assert_int_eq(bm_port_info(tmpdir, "nope", &pi), -ENOENT);
	ck_assert_int_eq(bm_port_info(tmpdir, "../x", &pi), -EINVAL);
	ck_assert_int_eq(bm_port_list(tmpdir, &v, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(v[0].name, "devices");
	ck_assert_str_eq(v[1].name, "eth0");
	ck_assert_str_eq(v[2].name, "veth1");
	free(v);
	snprintf(p, sizeof(p), "rm -rf %s", tmpdir);
	ck_assert_int_eq(system(p), 0);
}
END_TEST

static Suite *proto_suite(void)
{
	Suite *s = suite_create("proto");
	TCase *tc = tcase_create("framing");

	tcase_add_test(tc, lines_split_across_chunks);
	tcase_add_test(tc, oversize_line_reported_once_then_skipped);
	tcase_add_test(tc, line_at_limit_accepted);
	tcase_add_test(tc, proto_line_has_no_inner_newline);
	suite_add_tcase(s, tc);
	tc = tcase_create("requests");
	tcase_add_test(tc, valid_requests);
	tcase_add_loop_test(tc, malformed_requests_rejected, 0,
			    sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, port_list_limits);
	tcase_add_test(tc, nul_byte_and_deep_nesting_rejected);
	tcase_add_test(tc, responses);
	tcase_add_loop_test(tc, invalid_utf8_refused_never_echoed, 0,
			    sizeof(bad_utf8) / sizeof(bad_utf8[0]));
	tcase_add_test(tc, utf8_check_offsets);
	tcase_add_test(tc, client_call_reports_refusal_without_id);
	tcase_add_test(tc, client_over_a_command);
	tcase_add_test(tc, proto_line_replaces_invalid_utf8);
	tcase_add_test(tc, long_name_clipped_at_a_character);
	tcase_add_test(tc, control_chars_never_break_the_reason);
	suite_add_tcase(s, tc);
	tc = tcase_create("store");
	tcase_add_test(tc, atomic_write_replaces_and_leaves_no_temp);
	tcase_add_test(tc, csv_flattens_and_quotes);
	tcase_add_test(tc, port_info_from_sysfs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(proto_suite());
}
