/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stateful traffic (SPEC PLAT-TCP): what a procedure asks of a backend's
 * TCP engine, what it gets back, the metrics of TM-MET-SF and RFC 8238 §7,
 * and the TCP test patterns of TM-TTP.
 *
 * A procedure starts TCP connections between a job's ports, lets them run
 * beside its frame trials (the engine has a thread of its own), marks the
 * start of its measurement window after a warm-up and stops them; the
 * backend never blocks a trial for TCP.  A backend without an engine has
 * ops.tcp NULL, and a stateful procedure refuses to run on it
 * (R8239-INC (d)).
 */
#ifndef BM_TCP_H
#define BM_TCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bm_trial.h"

/* TCP test patterns (TM-TTP, RFC 7640 draft App B). */
enum bm_ttp {
	BM_TTP_BULK = 0,	/* client -> server, bytes or until stopped */
	BM_TTP_MICRO,		/* warm-up, then burst_bytes every interval */
	BM_TTP_WEB_S,		/* request/response scripts from here on */
	BM_TTP_WEB_C,
	BM_TTP_BIZ_S,
	BM_TTP_BIZ_C,
	BM_TTP_ECOM,
	BM_TTP_EMAIL,
	BM_TTP_SMB_READ,
	BM_TTP_SMB_WRITE,
	BM_TTP_N
};

/* "bulk", "micro", "web-s", "web-c", "biz-s", "biz-c", "ecom", "email",
 * "smb-read", "smb-write", in enum order, NULL-terminated. */
extern const char *const bm_ttp_names[];

/* The name of pattern t ("?" out of range). */
const char *bm_ttp_name(enum bm_ttp t);

/* True for the patterns that are request/response scripts. */
bool bm_ttp_is_script(enum bm_ttp t);

/* How a scripted pattern draws its parameters (AMB-40). */
struct bm_ttp_params {
	enum bm_ttp kind;
	bool random;		/* false: every parameter its App B Ave */
	uint64_t seed;		/* random: the PRNG's seed (recorded) */
	uint32_t request_bytes;	/* web: the request size, 0 = 300 [PROPOSED] */
	uint64_t file_bytes;	/* smb: 0 = 10 MB */
	uint32_t block_bytes;	/* smb: Sb, 0 = 64 KB */
};

/* One step of a script: its sender waits wait_s, then sends bytes. */
struct bm_ttp_step {
	bool from_server;
	double wait_s;
	uint64_t bytes;
};

/* One execution of a scripted pattern, steps in order. */
struct bm_ttp_script {
	struct bm_ttp_step *v;
	size_t n;
};

/*
 * Build one execution of p->kind (a script pattern) into *s, which the
 * caller frees with bm_ttp_script_free.  Fixed mode takes App B's Ave
 * values; random mode draws each from a log-normal with mean Ave and
 * sigma_log 1.0 clipped to [Min, Max] (AMB-40) from p->seed, so that the
 * same seed gives the same script.  0, or -EINVAL / -ENOMEM with err set.
 */
int bm_ttp_script_build(const struct bm_ttp_params *p,
			struct bm_ttp_script *s, struct bm_error *err);

/* Free s's steps and zero it. */
void bm_ttp_script_free(struct bm_ttp_script *s);

/* Bytes the client and the server send in s. */
void bm_ttp_script_bytes(const struct bm_ttp_script *s, uint64_t *client,
			 uint64_t *server);

/*
 * The execution time of s on an ideal path of rate_bps (payload bits per
 * second) and round-trip time rtt_s: every wait, every byte at the rate,
 * and half an RTT for each step's data to arrive (TM-TTP acceptance:
 * Tcp + Tsp + transfer + (Nd + 1) RTTs for a simple web page).
 */
double bm_ttp_script_ideal_s(const struct bm_ttp_script *s, double rate_bps,
			     double rtt_s);

/* --- metrics ----------------------------------------------------------- */

/* F-9: the analytic goodput ceiling (S/F) x V in bit/s, S payload bytes
 * in F bytes on the wire at media speed V bit/s; NAN when F is 0. */
double bm_goodput_ceiling_bps(double payload_bytes, double frame_bytes,
			      double media_bps);

/* Linux's ceiling at MTU mtu (SPEC F-9's second column): payload
 * mtu - 52 (IP, TCP and the timestamp option) in mtu + 38 on the wire
 * (Ethernet header, FCS, preamble and IFG). */
double bm_goodput_linux_bps(uint32_t mtu, double media_bps);

/* F-12: TCP efficiency in %, (sent - retransmitted) / sent; NAN when
 * nothing was sent. */
double bm_tcp_efficiency_pct(uint64_t bytes_sent, uint64_t bytes_retrans);

/* F-13: buffer delay in %, (avg - baseline) / baseline; NAN when the
 * baseline is not positive. */
double bm_tcp_buffer_delay_pct(double avg_rtt_s, double baseline_rtt_s);

/* --- the engine's interface ------------------------------------------- */

/* One connection (or a pattern's connection) of a TCP session. */
struct bm_tcp_conn_spec {
	unsigned int client, server;	/* job port indexes (be->port_names) */
	enum bm_ttp pattern;
	uint64_t bytes;			/* bulk: 0 = until stopped */
	double rate_bps;		/* bulk: the sender's pacing rate
					 * (SO_MAX_PACING_RATE), 0 = none */
	uint64_t warmup_bytes;		/* micro: before the first burst */
	uint64_t burst_bytes;		/* micro: one send each interval */
	double burst_interval_s;
	struct bm_ttp_params ttp;	/* scripts: kind = pattern */
	uint32_t executions;		/* scripts: 0 = until stopped */
	bool dscp_set;			/* this connection's DSCP, both ways, */
	uint8_t dscp;			/* in place of the spec's */
};

#define BM_TCP_MAX_CONN		64
#define BM_TCP_CC_NAME		16

/* What a procedure asks of the engine (REQ-TCP-1). */
struct bm_tcp_spec {
	unsigned int n_conn;
	struct bm_tcp_conn_spec conn[BM_TCP_MAX_CONN];
	char cc[BM_TCP_CC_NAME];	/* TCP_CONGESTION, "" = the system's */
	uint32_t sndbuf, rcvbuf;	/* SO_SNDBUF/SO_RCVBUF, 0 = default */
	uint32_t window_clamp;		/* TCP_WINDOW_CLAMP, 0 = none */
	uint32_t mss;			/* TCP_MAXSEG, 0 = the path's */
	uint8_t dscp;			/* of every segment, both ways */
	/* The path's RTT without congestion for buffer delay (F-13); 0 =
	 * the smallest RTT each connection's sender saw (tcpi_min_rtt). */
	double baseline_rtt_s;
};

/* Connection statistics the engine samples (REQ-TCP-2). */
struct bm_tcp_conn_result {
	unsigned int client, server;
	enum bm_ttp pattern;
	uint8_t dscp;			/* its segments' DSCP */
	bool established;		/* the connection came up */
	char error[96];			/* what went wrong, "" when nothing */
	/* application bytes: written by the client, read by the server, and
	 * back; in the measurement window for goodput */
	uint64_t c2s_bytes, s2c_bytes;
	uint64_t window_bytes;		/* read by the receiving side(s) in
					 * the measurement window */
	double window_s;		/* that window's length */
	double goodput_bps;		/* window_bytes x 8 / window_s (F-9) */
	/* the sending stack's own counts (the client's for bulk and micro,
	 * both ends summed for scripts) */
	uint64_t bytes_sent, bytes_retrans, total_retrans;
	/* segments the receiver reported getting twice (D-SACK, RFC 2883;
	 * tcpi_dsack_dups): retransmissions of data that had arrived, a
	 * sender's timer firing before an ACK, not a loss in the DUT */
	uint64_t dsack_dups;
	uint64_t segs_out, segs_in;	/* client's, for DUT counter checks */
	uint64_t srv_segs_out, srv_segs_in;
	/* both ends closed with their handshake before the counts were
	 * read: the segment counts are all there ever were */
	bool quiesced;
	double efficiency_pct;		/* F-12 */
	unsigned int rtt_samples;	/* per-second samples used */
	unsigned int rtt_excluded;	/* taken while retransmitting */
	double rtt_avg_ms, rtt_min_ms, rtt_max_ms;
	double baseline_rtt_ms;
	double buffer_delay_pct;	/* F-13, NAN without a baseline */
	uint32_t mss;			/* the client's tcpi_snd_mss */
	/* TTPET (TM-MET-TTPET) over completed executions: a script's runs;
	 * a finite bulk transfer (one); micro's first burst write to its
	 * last burst acknowledged (one, AMB-49) */
	unsigned int executions;
	double ttpet_min_s, ttpet_avg_s, ttpet_max_s;
	/* micro: bursts written and their completion times (write of the
	 * burst to its last byte acknowledged; AMB-49) */
	unsigned int bursts;
	double burst_min_s, burst_avg_s, burst_max_s;
};

/* The stack the connections ran on (REQ-TCP-4, RFC 8238 §7.3). */
struct bm_tcp_stack {
	char os[64];			/* "Linux 6.1.0-56-amd64" */
	char cc[BM_TCP_CC_NAME];	/* the algorithm the sockets took */
	char options[64];		/* "SACK, timestamps, window scaling" */
	uint32_t sndbuf, rcvbuf;	/* as the kernel set them */
	uint32_t window_clamp;
	char domains[64];		/* how traffic was kept off the host's
					 * loopback: "vrf", "sim" */
};

struct bm_tcp_result {
	unsigned int n_conn;
	struct bm_tcp_conn_result conn[BM_TCP_MAX_CONN];
	struct bm_tcp_stack stack;
	double window_s;		/* the measurement window */
	double goodput_bps;		/* all connections' window bytes */
};

struct bm_tcp_ops {
	/* Open the session's connections and start their patterns; 0, or
	 * -errno with err set and nothing left running. */
	int (*start)(struct bm_backend *be, const struct bm_tcp_spec *spec,
		     struct bm_error *err);
	/* Begin the measurement window now (after the warm-up). */
	int (*mark)(struct bm_backend *be, struct bm_error *err);
	/* Let the session run for s seconds (the host's, or the backend's
	 * virtual ones); with done_early, return as soon as every
	 * connection with an end (bytes, executions) has finished, when
	 * there is one (the others run on). */
	void (*run_for)(struct bm_backend *be, double s, bool done_early);
	/* Stop the session, close everything and fill *res; 0, or -errno
	 * with err set (res still filled as far as it got). */
	int (*stop)(struct bm_backend *be, struct bm_tcp_result *res,
		    struct bm_error *err);
};

struct json_object;

/* The JSON of res (a result's "tcp" block): the stack, the window, the
 * aggregate goodput and one object per connection, ports by name from
 * names[] (a job's port names). */
struct json_object *bm_tcp_result_json(const struct bm_tcp_result *res,
				       const char (*names)[16]);

/* A congestion control name for TCP_CONGESTION from the JSON string v
 * into out (1 .. BM_TCP_CC_NAME - 1 of a-z 0-9 _ -; the kernel says
 * whether it has it): 0, or -EINVAL with "key: ..." in err. */
int bm_tcp_cc_parse(struct json_object *v, char out[BM_TCP_CC_NAME],
		    const char *key, struct bm_error *err);

/* Helper for procedures: start spec on be's engine, or refuse with the
 * one line R8239-INC (d) asks for when be has none; 0 or -errno. */
int bm_tcp_start(struct bm_backend *be, const struct bm_tcp_spec *spec,
		 struct bm_error *err);

/* Let be's time pass s seconds: the TCP session's run_for when one is
 * attached, else a sleep (or the virtual clock's advance). */
void bm_backend_idle(struct bm_backend *be, double s);

#endif /* BM_TCP_H */
