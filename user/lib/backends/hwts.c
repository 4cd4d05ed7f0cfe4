// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware timestamping at the driver and the PHC's offset (bm_hwts.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/ptp_clock.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "bm_hwts.h"

static int hwts_ioctl(const char *ifname, unsigned long req,
		      struct hwtstamp_config *cfg)
{
	struct ifreq ifr;
	int fd, ret;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (char *)cfg;
	ret = ioctl(fd, req, &ifr) ? -errno : 0;
	close(fd);
	return ret;
}

int bm_hwts_enable(const char *ifname, struct bm_hwts_cfg *c,
		   struct bm_error *err)
{
	/* widest first: a NIC that stamps every frame stamps ours; one that
	 * stamps PTP event frames only needs PTP-shaped ones (82576)
	 */
	static const int filters[] = {
		HWTSTAMP_FILTER_ALL, HWTSTAMP_FILTER_PTP_V2_EVENT,
		HWTSTAMP_FILTER_NONE,
	};
	struct hwtstamp_config cfg;
	int ret = -EOPNOTSUPP;
	size_t i;

	memset(c, 0, sizeof(*c));
	if (!ifname || strlen(ifname) >= sizeof(c->ifname))
		return bm_errorf(err, "bad port name '%s'", ifname ? ifname : "");
	snprintf(c->ifname, sizeof(c->ifname), "%s", ifname);
	c->rx_filter = HWTSTAMP_FILTER_NONE;
	/* drivers before SIOCGHWTSTAMP cannot say: then "off" is put back */
	c->saved = !hwts_ioctl(ifname, SIOCGHWTSTAMP, &c->old);
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		memset(&cfg, 0, sizeof(cfg));
		cfg.tx_type = HWTSTAMP_TX_ON;
		cfg.rx_filter = filters[i];
		ret = hwts_ioctl(ifname, SIOCSHWTSTAMP, &cfg);
		if (!ret) {
			c->tx_on = cfg.tx_type == HWTSTAMP_TX_ON;
			c->rx_filter = cfg.rx_filter;
			return 0;
		}
		if (ret != -ERANGE && ret != -EINVAL)
			break;
	}
	if (ret == -EOPNOTSUPP || ret == -ERANGE || ret == -EINVAL)
		ret = -EOPNOTSUPP;
	bm_errorf(err, "%s: no hardware timestamping (SIOCSHWTSTAMP: %s)",
		  ifname, strerror(-ret));
	return ret;
}

int bm_hwts_get(const char *ifname, int *tx_on, int *rx_filter)
{
	struct hwtstamp_config cfg;
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	ret = hwts_ioctl(ifname, SIOCGHWTSTAMP, &cfg);
	if (ret)
		return ret;
	*tx_on = cfg.tx_type == HWTSTAMP_TX_ON;
	*rx_filter = cfg.rx_filter;
	return 0;
}

int bm_hwts_restore(const struct bm_hwts_cfg *c)
{
	struct hwtstamp_config cfg;

	if (!c->ifname[0])
		return 0;
	memset(&cfg, 0, sizeof(cfg));
	if (c->saved)
		cfg = c->old;
	return hwts_ioctl(c->ifname, SIOCSHWTSTAMP, &cfg);
}

uint32_t bm_hwts_bits(const struct bm_hwts_cfg *c)
{
	return (c->tx_on ? BMGEN_HWTS_TX : 0) |
	       (c->rx_filter != HWTSTAMP_FILTER_NONE ? BMGEN_HWTS_RX : 0);
}

const char *bm_hwts_filter_name(int filter)
{
	switch (filter) {
	case HWTSTAMP_FILTER_NONE: return "none";
	case HWTSTAMP_FILTER_ALL: return "all";
	case HWTSTAMP_FILTER_SOME: return "some";
	case HWTSTAMP_FILTER_PTP_V1_L4_EVENT: return "ptpv1-l4-event";
	case HWTSTAMP_FILTER_PTP_V2_L4_EVENT: return "ptpv2-l4-event";
	case HWTSTAMP_FILTER_PTP_V2_L2_EVENT: return "ptpv2-l2-event";
	case HWTSTAMP_FILTER_PTP_V2_EVENT: return "ptpv2-event";
	case HWTSTAMP_FILTER_NTP_ALL: return "ntp-all";
	default: return "other";
	}
}

static int64_t pct_ns(const struct ptp_clock_time *t)
{
	return (int64_t)t->sec * 1000000000 + t->nsec;
}

static int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* REALTIME - MONOTONIC, from the narrowest of a few bracketed reads. */
static void real_minus_mono(int64_t *d, int64_t *half)
{
	struct timespec r1, m, r2;
	int64_t w;
	int i;

	*half = INT64_MAX;
	for (i = 0; i < 7; i++) {
		clock_gettime(CLOCK_REALTIME, &r1);
		clock_gettime(CLOCK_MONOTONIC, &m);
		clock_gettime(CLOCK_REALTIME, &r2);
		w = ts_ns(&r2) - ts_ns(&r1);
		if (w / 2 < *half) {
			*half = w / 2;
			*d = ts_ns(&r1) + w / 2 - ts_ns(&m);
		}
	}
}

int bm_phc_pick(const int64_t (*rd)[3], unsigned int n, int64_t *off_ns,
		int64_t *half_ns)
{
	int64_t best = INT64_MAX, w;
	unsigned int i;

	for (i = 0; i < n; i++) {
		w = rd[i][2] - rd[i][0];
		if (w >= 0 && w < best) {
			best = w;
			*off_ns = rd[i][1] - (rd[i][0] + w / 2);
		}
	}
	if (best == INT64_MAX)
		return -1;
	*half_ns = best / 2;
	return 0;
}

int bm_phc_offset(int phc, int64_t *off_ns, int64_t *unc_ns,
		  struct bm_error *err)
{
	struct ptp_sys_offset_extended ext;
	struct ptp_sys_offset basic;
	int64_t rd[PTP_MAX_SAMPLES][3], off, half, d, dhalf;
	char path[32];
	unsigned int i, n = 0;
	int fd;

	if (phc < 0)
		return bm_errorf(err, "no PTP hardware clock"), -ENODEV;
	snprintf(path, sizeof(path), "/dev/ptp%d", phc);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return bm_errorf(err, "%s: %s", path, strerror(e)), -e;
	}
	memset(&ext, 0, sizeof(ext));
	ext.n_samples = 9;
	if (!ioctl(fd, PTP_SYS_OFFSET_EXTENDED, &ext)) {
		for (n = 0; n < ext.n_samples; n++)
			for (i = 0; i < 3; i++)
				rd[n][i] = pct_ns(&ext.ts[n][i]);
	} else {
		/* older drivers: sys, phc, sys, ... one read between */
		memset(&basic, 0, sizeof(basic));
		basic.n_samples = 9;
		if (ioctl(fd, PTP_SYS_OFFSET, &basic)) {
			int e = errno;

			close(fd);
			return bm_errorf(err, "%s: PTP_SYS_OFFSET: %s", path,
					 strerror(e)), -e;
		}
		for (n = 0; n < basic.n_samples; n++)
			for (i = 0; i < 3; i++)
				rd[n][i] = pct_ns(&basic.ts[2 * n + i]);
	}
	close(fd);
	if (bm_phc_pick((const int64_t (*)[3])rd, n, &off, &half))
		return bm_errorf(err, "%s: no usable clock reading", path), -EIO;
	real_minus_mono(&d, &dhalf);
	*off_ns = off + d;
	*unc_ns = half + dhalf;
	return 0;
}
