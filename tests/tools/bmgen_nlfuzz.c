// SPDX-License-Identifier: GPL-2.0
/*
 * bmgen-nlfuzz: the netlink sequence fuzzer.  Where bmgen-nlcheck sends
 * each malformed request of a table once and checks its answer, this
 * sends many random and mutated requests from several threads at once
 * while trials run, and checks only that the module survives them: the
 * lab runner fails the boot on a WARN or an oops, the lab test counts
 * slab objects around it, and at the end the module must still answer,
 * run a trial and count it exactly.
 *
 *   bmgen-nlfuzz --tx DEV --rx DEV [--messages N] [--threads T] [--seed S]
 *
 * Each fuzzing thread has its own socket and PRNG (seed + thread) and
 * sends, until N messages went out in all:
 *   - a mutated message (most): any command number (valid or not), do or
 *     dump or random flags, sometimes a nonzero genl version or reserved
 *     field, 0-8 attributes of any type with lengths and values drawn from
 *     the boundaries (0, 1, 2, 4, 6, 8, 16 bytes; a real ifindex, a frame
 *     size, a stream id, 0, ~0, random), sometimes a truncated header;
 *   - a well-formed request that changes state (stream add or delete, a
 *     trial start or stop) or dumps it (streams, statistics, logs), so
 *     that sequences reach deep states;
 *   - several messages in one datagram;
 *   - a dump it stops reading halfway, closing the socket (a new one
 *     follows).
 * One more thread adds a few real streams and runs short trials over and
 * over, so that most messages meet a trial armed or running.  Replies are
 * read and dropped; a reply the kernel cannot send (a closed socket) is
 * its business.  Deterministic per seed up to the threads' interleaving.
 * Prints one summary line; exit 0 when the final checks pass.
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/bmgen.h>

#define BUFSZ		65536
#define MAX_THREADS	16
#define REAL_IDS	4	/* the trial thread's streams: ids 1..4 */

struct fz {
	struct mnl_socket *sk;
	uint16_t family;
	unsigned int seq;
	uint64_t rng;
	char tx[BUFSZ] __attribute__((aligned(8)));
	char rx[BUFSZ] __attribute__((aligned(8)));
};

static unsigned int tx_if, rx_if;
static uint64_t n_messages = 100000;
static atomic_uint_fast64_t sent, accepted, rejected, sock_errors;
static atomic_uint_fast64_t trials_run, trial_errors;
static atomic_bool done;

static uint64_t rnd(struct fz *f)
{
	/* xorshift64*: enough spread for a fuzzer, fixed per seed */
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int pick(struct fz *f, unsigned int n)
{
	return (unsigned int)(rnd(f) % n);
}

static int family_cb(const struct nlmsghdr *h, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

/* Read the answers waiting, the first within ms: acks and errors
 * counted, the rest dropped. */
static void drain(struct fz *f, int ms)
{
	struct pollfd p = { .fd = mnl_socket_get_fd(f->sk), .events = POLLIN };
	const struct nlmsghdr *h;
	ssize_t got;
	int len;

	while (poll(&p, 1, ms) > 0) {
		got = mnl_socket_recvfrom(f->sk, f->rx, sizeof(f->rx));
		if (got <= 0) {
			if (got < 0 && errno != EAGAIN)
				atomic_fetch_add(&sock_errors, 1);
			return;
		}
		len = (int)got;
		for (h = (const struct nlmsghdr *)f->rx; mnl_nlmsg_ok(h, len);
		     h = mnl_nlmsg_next(h, &len)) {
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

				if (e->error)
					atomic_fetch_add(&rejected, 1);
				else
					atomic_fetch_add(&accepted, 1);
			} else if (h->nlmsg_type == NLMSG_DONE) {
				atomic_fetch_add(&accepted, 1);
			}
		}
		ms = 0;	/* the rest now, or at the next drain */
	}
}

static int fz_open(struct fz *f)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	ssize_t len;
	int one = 1;

	f->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!f->sk || mnl_socket_bind(f->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	mnl_socket_setsockopt(f->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++f->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, BMGEN_GENL_NAME);
	if (mnl_socket_sendto(f->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	f->family = 0;
	while ((len = mnl_socket_recvfrom(f->sk, buf, sizeof(buf))) > 0) {
		int r = mnl_cb_run(buf, len, f->seq, 0, family_cb, &f->family);

		if (r <= MNL_CB_STOP)
			break;
	}
	return f->family ? 0 : -ENOENT;
}

static void fz_close(struct fz *f)
{
	if (f->sk)
		mnl_socket_close(f->sk);
	f->sk = NULL;
}

static struct nlmsghdr *start_at(struct fz *f, void *buf, uint8_t cmd,
				 uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = f->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++f->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = BMGEN_GENL_VERSION;
	/* every request names the protocol version it speaks */
	mnl_attr_put_u32(nlh, BMGEN_A_VERSION, BMGEN_GENL_VERSION);
	return nlh;
}

/* A value of len bytes from the boundaries a policy checks. */
static void value(struct fz *f, uint8_t *v, unsigned int len)
{
	uint64_t x;
	unsigned int i;

	switch (pick(f, 8)) {
	case 0:
		x = 0;
		break;
	case 1:
		x = ~0ULL;
		break;
	case 2:
		x = pick(f, 2) ? tx_if : rx_if;
		break;
	case 3:
		x = 64 + pick(f, 9216 - 64 + 2);	/* frame sizes */
		break;
	case 4:
		x = 1 + pick(f, 20);			/* stream ids */
		break;
	case 5:
		x = pick(f, 2) ? BMGEN_MAX_STREAMS : BMGEN_MAX_FLOWS;
		break;
	default:
		x = rnd(f);
		break;
	}
	for (i = 0; i < len; i++)
		v[i] = i < 8 ? (uint8_t)(x >> (8 * i)) : (uint8_t)rnd(f);
}

/* Add a random attribute: any type (the top bits sometimes set), a length
 * from the boundaries. */
static void rand_attr(struct fz *f, struct nlmsghdr *nlh)
{
	static const unsigned int lens[] = { 0, 1, 2, 4, 6, 8, 16, 3, 24 };
	uint8_t v[64];
	uint16_t type = (uint16_t)pick(f, BMGEN_A_MAX + 4);
	unsigned int len = pick(f, 8) ? lens[pick(f, 9)] : pick(f, 64);

	if (!pick(f, 16))
		type |= NLA_F_NESTED;
	value(f, v, len);
	if (mnl_nlmsg_size(nlh->nlmsg_len + MNL_ALIGN(len) + 4) < BUFSZ / 4)
		mnl_attr_put(nlh, type, len, v);
}

/* A mutated message at buf; its length. */
static uint32_t mutated(struct fz *f, void *buf)
{
	static const uint16_t flagsets[] = {
		NLM_F_ACK, NLM_F_DUMP, NLM_F_ACK | NLM_F_DUMP, NLM_F_ACK,
		NLM_F_ACK | NLM_F_EXCL, NLM_F_ACK | NLM_F_CREATE, 0,
	};
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	unsigned int i, n = pick(f, 9);
	uint16_t flags = flagsets[pick(f, 7)];

	if (!pick(f, 16))
		flags = (uint16_t)rnd(f) & ~NLM_F_REQUEST;
	nlh = start_at(f, buf, (uint8_t)pick(f, BMGEN_CMD_MAX + 3), flags);
	if (!pick(f, 8))	/* without the version attribute */
		nlh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	g = (struct genlmsghdr *)mnl_nlmsg_get_payload(nlh);
	if (!pick(f, 16))
		g->version = (uint8_t)rnd(f);
	if (!pick(f, 16))
		g->reserved = (uint16_t)rnd(f);
	for (i = 0; i < n; i++)
		rand_attr(f, nlh);
	/* a header that claims less than it has, or less than a header */
	if (!pick(f, 32) && nlh->nlmsg_len > NLMSG_HDRLEN)
		nlh->nlmsg_len = NLMSG_HDRLEN + pick(f, nlh->nlmsg_len -
						       NLMSG_HDRLEN);
	return nlh->nlmsg_len;
}

/* A well-formed request on the fuzzer's own stream ids (5..20: not the
 * trial thread's). */
static uint32_t wellformed(struct fz *f, void *buf)
{
	struct nlmsghdr *nlh;
	uint32_t id = REAL_IDS + 1 + pick(f, 16);

	switch (pick(f, 8)) {
	case 0:
	case 1:
		nlh = start_at(f, buf, BMGEN_CMD_STREAM_ADD, NLM_F_ACK);
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_IFINDEX, tx_if);
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_RX_IFINDEX, rx_if);
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE,
				 64 + pick(f, 1455));
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_PATTERN, BMGEN_PAT_COUNT);
		/* at most 0.5 s of frames: the trial thread's trials end */
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_RATE_UFPS,
				 (uint64_t)(100 + pick(f, 900)) * 1000000);
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_COUNT, 1 + pick(f, 50));
		if (pick(f, 2))
			mnl_attr_put_u32(nlh, BMGEN_A_STREAM_LOG_FRAMES,
					 pick(f, 64));
		break;
	case 2:
		nlh = start_at(f, buf, BMGEN_CMD_STREAM_DEL, NLM_F_ACK);
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
		break;
	case 3:
		nlh = start_at(f, buf, BMGEN_CMD_STATS_GET, NLM_F_DUMP);
		break;
	case 4:
		nlh = start_at(f, buf, BMGEN_CMD_STREAM_GET, NLM_F_DUMP);
		break;
	case 5:
		nlh = start_at(f, buf, BMGEN_CMD_LOG_GET, NLM_F_DUMP);
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, 1 + pick(f, 20));
		break;
	case 6:
		nlh = start_at(f, buf, BMGEN_CMD_STATUS_GET, NLM_F_ACK);
		break;
	default:
		nlh = start_at(f, buf, BMGEN_CMD_PORT_GET, NLM_F_DUMP);
		break;
	}
	return nlh->nlmsg_len;
}

static void send_buf(struct fz *f, uint32_t len, uint64_t n)
{
	if (mnl_socket_sendto(f->sk, f->tx, len) < 0)
		atomic_fetch_add(&sock_errors, 1);
	atomic_fetch_add(&sent, n);
}

/* Claim n messages of the budget; false when it is spent. */
static bool claim(uint64_t n)
{
	return atomic_load(&sent) + n <= n_messages && !atomic_load(&done);
}

static void *fuzz_thread(void *arg)
{
	struct fz *f = arg;
	uint32_t len, one;
	unsigned int k, n;

	while (claim(1)) {
		switch (pick(f, 20)) {
		case 0:
		case 1:
			/* several messages in one datagram */
			n = 2 + pick(f, 3);
			for (len = 0, k = 0; k < n; k++) {
				one = pick(f, 2) ? mutated(f, f->tx + len) :
					wellformed(f, f->tx + len);
				len += NLMSG_ALIGN(one);
			}
			send_buf(f, len, n);
			drain(f, 20);
			break;
		case 2:
			/* a dump read halfway, then the socket closed */
			len = start_at(f, f->tx, pick(f, 2) ? BMGEN_CMD_STATS_GET :
				       BMGEN_CMD_STREAM_GET,
				       NLM_F_DUMP)->nlmsg_len;
			send_buf(f, len, 1);
			fz_close(f);
			if (fz_open(f)) {
				atomic_fetch_add(&sock_errors, 1);
				return NULL;
			}
			break;
		case 3:
		case 4:
		case 5:
		case 6:
			send_buf(f, wellformed(f, f->tx), 1);
			drain(f, 20);
			break;
		default:
			len = mutated(f, f->tx);
			send_buf(f, len, 1);
			/* an answer comes for an ACK, a dump or an error;
			 * none for a request without ACK that is accepted */
			drain(f, (((struct nlmsghdr *)f->tx)->nlmsg_flags &
				  (NLM_F_ACK | NLM_F_DUMP)) ? 20 : 2);
			break;
		}
	}
	return NULL;
}

/* A plain request on f and its errno (0 = accepted); the answers of a
 * dump counted through cb. */
static int ask(struct fz *f, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	unsigned int seq = nlh->nlmsg_seq;
	ssize_t len;
	int r = 0;

	if (mnl_socket_sendto(f->sk, nlh, nlh->nlmsg_len) < 0)
		return errno;
	while ((len = mnl_socket_recvfrom(f->sk, f->rx, sizeof(f->rx))) > 0) {
		r = mnl_cb_run(f->rx, len, seq, mnl_socket_get_portid(f->sk),
			       cb, data);
		if (r <= MNL_CB_STOP)
			break;
	}
	return r < 0 ? errno : 0;
}

static int state_cb(const struct nlmsghdr *h, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == BMGEN_A_TRIAL_STATE)
			*(uint32_t *)data = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static uint32_t trial_state(struct fz *f)
{
	uint32_t st = ~0U;

	ask(f, start_at(f, f->tx, BMGEN_CMD_STATUS_GET, NLM_F_ACK), state_cb,
	    &st);
	return st;
}

/* Stream id on tx -> rx: count frames at 1000 fps. */
static int add_real(struct fz *f, uint32_t id, uint64_t count)
{
	struct nlmsghdr *nlh = start_at(f, f->tx, BMGEN_CMD_STREAM_ADD,
					NLM_F_ACK);

	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_IFINDEX, tx_if);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_RX_IFINDEX, rx_if);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, 128);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_PATTERN, BMGEN_PAT_COUNT);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_RATE_UFPS, 1000ULL * 1000000);
	mnl_attr_put_u64(nlh, BMGEN_A_STREAM_COUNT, count);
	return ask(f, nlh, NULL, NULL);
}

/* Attach tx and rx again (a fuzzed PORT_DETACH may have taken one away);
 * EEXIST when they are. */
static void attach(struct fz *f)
{
	struct nlmsghdr *nlh;
	int i;

	for (i = 0; i < 2; i++) {
		nlh = start_at(f, f->tx, BMGEN_CMD_PORT_ATTACH, NLM_F_ACK);
		mnl_attr_put_u32(nlh, BMGEN_A_PORT_IFINDEX, i ? rx_if : tx_if);
		ask(f, nlh, NULL, NULL);
	}
}

static int del_all(struct fz *f)
{
	return ask(f, start_at(f, f->tx, BMGEN_CMD_STREAM_DEL, NLM_F_ACK),
		   NULL, NULL);
}

static int trial_cmd(struct fz *f, uint8_t cmd)
{
	return ask(f, start_at(f, f->tx, cmd, NLM_F_ACK), NULL, NULL);
}

/* Wait up to s seconds for a trial to end (any state but armed and
 * running); its state. */
static uint32_t wait_end(struct fz *f, double s)
{
	struct timespec d = { 0, 10 * 1000 * 1000 };
	uint32_t st;
	int i;

	for (i = 0; i < (int)(s * 100); i++) {
		st = trial_state(f);
		if (st != BMGEN_TRIAL_ARMED && st != BMGEN_TRIAL_RUNNING)
			return st;
		nanosleep(&d, NULL);
	}
	return trial_state(f);
}

/* Real streams and short trials over and over, while the others fuzz:
 * most messages meet a trial armed or running.  The fuzzers' stream
 * changes fail with EBUSY then; between trials they may add streams of
 * their own, which the next trial sends too. */
static void *trial_thread(void *arg)
{
	struct fz *f = arg;
	uint32_t id, st;

	while (!atomic_load(&done)) {
		attach(f);
		for (id = 1; id <= REAL_IDS; id++)
			add_real(f, id, 50);	/* EEXIST after the first */
		if (trial_cmd(f, BMGEN_CMD_TRIAL_START)) {
			atomic_fetch_add(&trial_errors, 1);
			usleep(20000);
			continue;
		}
		atomic_fetch_add(&trials_run, 1);
		if (pick(f, 4) == 0) {
			usleep(pick(f, 30000));
			trial_cmd(f, BMGEN_CMD_TRIAL_STOP);
		}
		st = wait_end(f, 5.0);
		if (st == BMGEN_TRIAL_ARMED || st == BMGEN_TRIAL_RUNNING) {
			/* a mutated stream that never ends (continuous, or
			 * slow): stop it, and start again from nothing */
			trial_cmd(f, BMGEN_CMD_TRIAL_STOP);
			wait_end(f, 5.0);
			del_all(f);
		}
	}
	return NULL;
}

struct sstats {
	uint32_t id;
	uint64_t tx, rx_unique;
};

static int stats_cb(const struct nlmsghdr *h, void *data)
{
	struct sstats *s = data;
	const struct nlattr *a, *b;
	uint32_t id = 0;
	uint64_t tx = 0, rx = 0;

	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != BMGEN_A_STATS)
			continue;
		mnl_attr_for_each_nested(b, a) {
			switch (mnl_attr_get_type(b)) {
			case BMGEN_STATS_STREAM_ID:
				id = mnl_attr_get_u32(b);
				break;
			case BMGEN_STATS_TX_FRAMES:
				tx = mnl_attr_get_u64(b);
				break;
			case BMGEN_STATS_RX_UNIQUE:
				rx = mnl_attr_get_u64(b);
				break;
			}
		}
	}
	if (id == s->id) {
		s->tx = tx;
		s->rx_unique = rx;
	}
	return MNL_CB_OK;
}

/* After the storm: the module answers, runs a trial of one stream of
 * 1000 frames and counts every frame sent and received. */
static int final_check(struct fz *f)
{
	struct sstats s = { .id = 1 };
	uint32_t st;
	int e;

	trial_cmd(f, BMGEN_CMD_TRIAL_STOP);
	wait_end(f, 5.0);
	attach(f);
	e = del_all(f);
	if (e) {
		fprintf(stderr, "bmgen-nlfuzz: delete all streams: %s\n",
			strerror(e));
		return 1;
	}
	e = add_real(f, 1, 1000);
	if (!e)
		e = trial_cmd(f, BMGEN_CMD_TRIAL_START);
	if (e) {
		fprintf(stderr, "bmgen-nlfuzz: final trial: %s\n", strerror(e));
		return 1;
	}
	st = wait_end(f, 10.0);
	usleep(300000);	/* the last frames' way back */
	ask(f, start_at(f, f->tx, BMGEN_CMD_STATS_GET, NLM_F_DUMP), stats_cb,
	    &s);
	del_all(f);
	printf("final trial: state %u, sent %llu, received %llu of 1000\n", st,
	       (unsigned long long)s.tx, (unsigned long long)s.rx_unique);
	return st == BMGEN_TRIAL_DONE && s.tx == 1000 && s.rx_unique == 1000 ?
	       0 : 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: bmgen-nlfuzz --tx DEV --rx DEV [--messages N] "
		"[--threads T] [--seed S]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tx", required_argument, NULL, 't' },
		{ "rx", required_argument, NULL, 'r' },
		{ "messages", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static struct fz fz[MAX_THREADS + 1];
	pthread_t th[MAX_THREADS + 1];
	unsigned int threads = 4, i;
	uint64_t seed = 1;
	struct timespec t0, t1;
	double secs;
	int c, ret;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			tx_if = if_nametoindex(optarg);
			break;
		case 'r':
			rx_if = if_nametoindex(optarg);
			break;
		case 'n':
			n_messages = strtoull(optarg, NULL, 0);
			break;
		case 'j':
			threads = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (!tx_if || !rx_if || !threads || threads > MAX_THREADS)
		usage();
	for (i = 0; i <= threads; i++) {
		fz[i].rng = (seed + i) * 0x9E3779B97F4A7C15ULL | 1;
		ret = fz_open(&fz[i]);
		if (ret) {
			fprintf(stderr, "bmgen-nlfuzz: socket %u: %s\n", i,
				strerror(-ret));
			return 1;
		}
	}
	attach(&fz[0]);
	del_all(&fz[0]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&th[threads], NULL, trial_thread, &fz[threads]);
	for (i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, fuzz_thread, &fz[i]);
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	atomic_store(&done, true);
	pthread_join(th[threads], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	printf("messages %llu in %.1f s from %u threads: %llu accepted, %llu "
	       "rejected, %llu socket errors; %llu trials started (%llu "
	       "refused)\n",
	       (unsigned long long)atomic_load(&sent), secs, threads,
	       (unsigned long long)atomic_load(&accepted),
	       (unsigned long long)atomic_load(&rejected),
	       (unsigned long long)atomic_load(&sock_errors),
	       (unsigned long long)atomic_load(&trials_run),
	       (unsigned long long)atomic_load(&trial_errors));
	ret = final_check(&fz[0]);
	for (i = 0; i <= threads; i++)
		fz_close(&fz[i]);
	return ret;
}
