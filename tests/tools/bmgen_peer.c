// SPDX-License-Identifier: GPL-2.0
/*
 * bmgen-peer: the sending host of a trial across hosts, played by a raw
 * socket, so that one lab guest can check a module's receiving half (an
 * rx-only stream) against a sender whose clock it is told.
 *
 *   bmgen-peer --dev DEV --epoch-tai NS [--id N] [--size F] [--rate FPS]
 *              [--count N] [--clock-offset NS] [--dst-mac MAC]
 *   bmgen-peer --now          CLOCK_TAI now, ns (busybox date has no %N)
 *   bmgen-peer --tai-offset S the kernel's TAI - UTC offset set to S s (a
 *                             guest boots with 0: CLOCK_TAI = REALTIME, and
 *                             a module that took one for the other would
 *                             pass)
 *
 * Sends --count frames of stream --id, F bytes with FCS, IPv4/UDP
 * 198.18.1.2 -> 198.19.1.2 port 7 as bmgen.ko builds them, frame k due
 * at epoch + k / rate on CLOCK_TAI.  Each frame's test header carries
 * its sequence number and its transmit time as this "host" sees it: ns
 * since the epoch on CLOCK_TAI plus --clock-offset (a sender whose clock
 * runs ahead by that much; negative: behind), from one CPU.  Prints sent=,
 * late_first_ns= and late_max_ns= (how far the first and the latest
 * departure were behind their due times) and exits 0, or 1 with a message
 * when the socket fails, 2 on bad arguments.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <netpacket/packet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#include <linux/bmgen.h>

#define NS	1000000000LL

static void usage(FILE *f)
{
	fprintf(f, "usage: bmgen-peer --dev DEV --epoch-tai NS [--id N] [--size F]\n"
		   "                  [--rate FPS] [--count N] [--clock-offset NS]\n"
		   "                  [--dst-mac MAC]\n"
		   "       bmgen-peer --now\n"
		   "       bmgen-peer --tai-offset S\n");
}

static int64_t tai_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return ts.tv_sec * NS + ts.tv_nsec;
}

static void put48(uint8_t *p, uint64_t v)
{
	for (int i = 5; i >= 0; i--, v >>= 8)
		p[i] = v & 0xff;
}

/* The IPv4 header checksum (RFC 791). */
static uint16_t ip_csum(const void *hdr, size_t len)
{
	const uint16_t *w = hdr;
	uint32_t sum = 0;

	for (; len > 1; len -= 2)
		sum += *w++;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Stream id's frame, len bytes without FCS, into f; its test header,
 * whose sequence number and stamp each departure sets. */
static struct bmgen_tpld *build(uint8_t *f, size_t len, const uint8_t dst[6],
				const uint8_t src[6], uint32_t id)
{
	struct ether_header *eth = (struct ether_header *)f;
	struct iphdr *ip = (struct iphdr *)(eth + 1);
	struct udphdr *udp = (struct udphdr *)(ip + 1);
	uint8_t *pl = (uint8_t *)(udp + 1);
	struct bmgen_tpld *tp = (struct bmgen_tpld *)pl;
	size_t i, n = len - sizeof(*eth) - sizeof(*ip) - sizeof(*udp);

	memset(f, 0, len);
	memcpy(eth->ether_dhost, dst, 6);
	memcpy(eth->ether_shost, src, 6);
	eth->ether_type = htons(ETHERTYPE_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 10;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons(len - sizeof(*eth));
	ip->saddr = htonl(0xc6120102);	/* RFC 2544 C.2.2 */
	ip->daddr = htonl(0xc6130102);
	ip->check = ip_csum(ip, sizeof(*ip));
	udp->source = htons(BMGEN_UDP_SRC_DEFAULT);
	udp->dest = htons(7);
	udp->len = htons(n + sizeof(*udp));
	/* REQ-FRM-1: payload byte k is k mod 256 after the test header */
	for (i = BMGEN_TPLD_LEN; i < n; i++)
		pl[i] = i & 0xff;
	tp->magic = htons(BMGEN_TPLD_MAGIC);
	tp->flags = BMGEN_TPLD_F_TS;
	tp->stream_id[0] = id >> 16;
	tp->stream_id[1] = id >> 8;
	tp->stream_id[2] = id;
	return tp;
}

static int parse_mac(const char *s, uint8_t m[6])
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		m[i] = b[i];
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "epoch-tai", required_argument, NULL, 'e' },
		{ "id", required_argument, NULL, 'i' },
		{ "size", required_argument, NULL, 's' },
		{ "rate", required_argument, NULL, 'r' },
		{ "count", required_argument, NULL, 'c' },
		{ "clock-offset", required_argument, NULL, 'o' },
		{ "dst-mac", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	uint8_t dst[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, src[6];
	uint8_t f[BMGEN_MAX_FRAME];
	const char *dev = NULL;
	int64_t epoch = 0, offset = 0, late_max = 0, late_first = 0;
	uint64_t id = 1, size = 128, count = 1000, k;
	double rate = 1000;
	struct sockaddr_ll sll = { 0 };
	struct bmgen_tpld *tp;
	char *e;
	int c, fd;

	if (argc == 2 && !strcmp(argv[1], "--now")) {
		printf("%" PRId64 "\n", tai_ns());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--tai-offset")) {
		struct timex tx = { .modes = ADJ_TAI };

		tx.constant = strtol(argv[2], &e, 10);
		if (*e || tx.constant < 0)
			return usage(stderr), 2;
		if (adjtimex(&tx) < 0) {
			perror("bmgen-peer: adjtimex");
			return 1;
		}
		return 0;
	}
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		e = NULL;
		switch (c) {
		case 'd': dev = optarg; break;
		case 'e': epoch = strtoll(optarg, &e, 10); break;
		case 'i': id = strtoull(optarg, &e, 10); break;
		case 's': size = strtoull(optarg, &e, 10); break;
		case 'r': rate = strtod(optarg, &e); break;
		case 'c': count = strtoull(optarg, &e, 10); break;
		case 'o': offset = strtoll(optarg, &e, 10); break;
		case 'm':
			if (parse_mac(optarg, dst))
				return usage(stderr), 2;
			break;
		default: return usage(stderr), 2;
		}
		if (e && *e)
			return usage(stderr), 2;
	}
	if (!dev || epoch <= 0 || !id || id >= BMGEN_MAX_STREAMS ||
	    size < BMGEN_MIN_FRAME || size > BMGEN_MAX_FRAME || !(rate > 0) ||
	    optind != argc)
		return usage(stderr), 2;
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("bmgen-peer: socket");
		return 1;
	}
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = if_nametoindex(dev);
	sll.sll_halen = 6;
	if (!sll.sll_ifindex) {
		fprintf(stderr, "bmgen-peer: no device %s\n", dev);
		return 1;
	}
	/* the source: the device's own address, as the module's default */
	{
		char path[128];
		FILE *a;

		snprintf(path, sizeof(path), "/sys/class/net/%s/address", dev);
		a = fopen(path, "r");
		if (!a || !fgets(path, sizeof(path), a) || parse_mac(path, src)) {
			fprintf(stderr, "bmgen-peer: %s has no MAC address\n", dev);
			return 1;
		}
		fclose(a);
	}
	memcpy(sll.sll_addr, dst, 6);
	tp = build(f, size - 4, dst, src, id);
	/* one CPU, as a kthread sends: frames a migrated sender queued on
	 * two CPUs' backlogs reach the DUT out of their order (lab.md, "A
	 * quiet DUT")
	 */
	{
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(sched_getcpu(), &one);
		if (sched_setaffinity(0, sizeof(one), &one)) {
			perror("bmgen-peer: sched_setaffinity");
			return 1;
		}
	}
	for (k = 0; k < count; k++) {
		int64_t due = epoch + (int64_t)(k * (double)NS / rate), now;
		struct timespec ts = { due / NS, due % NS };

		while (clock_nanosleep(CLOCK_TAI, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = tai_ns();
		if (!k)
			late_first = now - due;
		if (now - due > late_max)
			late_max = now - due;
		put48(tp->seq, k);
		/* a clock behind the epoch's host stamps before the epoch */
		put48(tp->tx_ts, now - epoch + offset > 0 ?
		      (uint64_t)(now - epoch + offset) : 0);
		if (sendto(fd, f, size - 4, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) < 0) {
			perror("bmgen-peer: send");
			return 1;
		}
	}
	printf("sent=%" PRIu64 "\nlate_first_ns=%" PRId64 "\nlate_max_ns=%" PRId64 "\n",
	       count, late_first, late_max);
	close(fd);
	return 0;
}
