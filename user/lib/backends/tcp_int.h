/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TCP engine's parts (bm_tcp_engine.h): routing domains
 * (tcp_domain.c), and a session's state shared by the engine's
 * operations (tcp_engine.c), its connections (tcp_setup.c), its thread
 * (tcp_pump.c) and its results (tcp_results.c).  tcp_engine.c calls
 * the other three; tcp_setup.c and tcp_results.c call tcp_pump.c, which
 * calls none of them.
 */
#ifndef BM_TCP_INT_H
#define BM_TCP_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "bm_clock.h"
#include "bm_tcp.h"
#include "bm_trial.h"

/* One port's routing domain and what was changed to make it. */
struct tcp_domain {
	char port[16];
	int ifindex;
	char vrf[16];
	int vrf_ifindex;
	uint32_t table;
	uint8_t ip4[4];
	uint8_t gw4[4];			/* router DUTs: the DUT on the port */
	bool router;
	int old_master;			/* the port's master before, 0: none */
	bool made_vrf, added_addr, enslaved;
};

/* Put port (job index i) into a VRF of its own with the engine's address
 * (bm_tcp_port_ip4); with router, the port's RFC 2544 App C address
 * (198.18.n.2 / 198.19.n.2, bm_router_port_default) and a default route
 * via the DUT's .1 in the VRF's table, so that TCP is routed by the DUT.
 * 0, or -errno with err set and nothing left changed. */
int tcp_domain_setup(struct tcp_domain *d, const char *port, unsigned int i,
		     bool router, struct bm_error *err);

/* Undo what tcp_domain_setup changed; errors are not reported (the port
 * may be gone). */
void tcp_domain_teardown(struct tcp_domain *d);


/* --- a session of the engine (tcp_engine.c) and its parts ------------- */

#define IO_CHUNK	(256 * 1024)

/* One end of a connection. */
struct side {
	int fd;
	bool server;
	/* scripts */
	struct bm_ttp_script script;
	size_t step;
	uint64_t exec;
	bool sending;
	double wait_until;		/* 0: not waiting */
	uint64_t to_send;		/* bytes left of the current send */
	uint64_t carry;			/* read and not yet given to a step */
	bool finished;			/* its executions are done */
	/* counts */
	uint64_t tx, rx;
	double last_rx_t;
	bool eof;
};

struct conn {
	struct bm_tcp_conn_spec spec;
	struct side c, s;
	uint16_t cport;			/* the client's local port */
	/* bulk / micro */
	uint64_t acked_base;		/* tcpi_bytes_acked at establishment */
	bool warm;			/* micro: warm-up acknowledged */
	double next_burst;
	bool burst_open;
	uint64_t burst_end;		/* client tx when the open burst ends */
	double burst_t0;
	unsigned int bursts;
	double burst_sum, burst_min, burst_max;
	/* scripts */
	double exec_t0;
	unsigned int execs;
	double ttpet_sum, ttpet_min, ttpet_max;
	/* the window */
	uint64_t mark_rx;
	uint64_t window_rx;		/* read when the window closed */
	double done_t;			/* a finite transfer's end, 0: running */
	bool quiesced;			/* closed cleanly: the final counts are
					 * every segment either end sent */
	/* RTT samples (REQ-TCP-2) */
	unsigned int rtt_n, rtt_excl;
	double rtt_sum, rtt_min, rtt_max;
	char error[96];
};

struct sess {
	struct bm_backend *be;
	bool router;			/* router DUT: App C addresses, routes */
	struct bm_tcp_spec spec;
	struct conn conn[BM_TCP_MAX_CONN];
	struct tcp_domain dom[BM_BACKEND_MAX_PORTS];
	bool in_dom[BM_BACKEND_MAX_PORTS];
	int lfd[BM_BACKEND_MAX_PORTS];
	uint16_t lport[BM_BACKEND_MAX_PORTS];
	int epfd, evfd;
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop_req, mark_req, mark_done;
	bool done;			/* all_done(), for run_for() */
	double t_start, t_mark, t_stop;
	char buf[IO_CHUNK];
};

struct tcp_info;

/* TCP_INFO of fd into *ti (zeroed first); getsockopt's 0 or -1. */
int tcp_info_read(int fd, struct tcp_info *ti);
/* sd's script for its next execution (a new draw each, the same on both
 * ends); a failure is kept in c->error. */
void tcp_pump_script_load(struct sess *s, struct conn *c, struct side *sd);
/* Read what side's socket has; counts it and feeds its script. */
void tcp_pump_drain(struct sess *s, struct conn *c, struct side *sd,
		    double now);
/* One RTT sample of c's sender into c's (REQ-TCP-2), after the mark and
 * outside retransmissions and recovery. */
void tcp_pump_sample(struct sess *s, struct conn *c);
/* The engine thread (pthread_create's start, arg the struct sess): pumps
 * every connection until s->stop_req. */
void *tcp_pump_thread(void *arg);

/* tcp_setup.c: the domains, listeners and connections of s's spec, then
 * the epoll set; 0, or -errno with err set (tcp_setup_close_all undoes
 * what was made). */
int tcp_setup_session(struct sess *s, struct bm_error *err);
/* Close every socket of s and tear its domains down. */
void tcp_setup_close_all(struct sess *s);

/* tcp_results.c: close every connection with its handshake and wait for
 * both ends, at most QUIESCE_S; c->quiesced says which did. */
void tcp_results_quiesce(struct sess *s);
/* The stack the session ran on into *st. */
void tcp_results_stack(struct sess *s, struct bm_tcp_stack *st);
/* Connection c's figures over the window into *r. */
void tcp_results_conn(struct sess *s, struct conn *c,
		      struct bm_tcp_conn_result *r);

#endif /* BM_TCP_INT_H */
