// SPDX-License-Identifier: GPL-2.0
/* Port facts from sysfs (bm_portinfo.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/net_tstamp.h>
#include <linux/sockios.h>

#include "bm_genl.h"
#include "bm_portinfo.h"

#define SYS_NET "/sys/class/net"

/* First line of root/ifname/attr into buf, "" when unreadable. */
static void read_attr(const char *root, const char *ifname, const char *attr,
		      char *buf, size_t size)
{
	char path[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s/%s", root, ifname, attr);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, size, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		buf[0] = '\0';
	fclose(f);
}

/* Basename of the symlink root/ifname/link into buf, "" when absent. */
static void read_link_base(const char *root, const char *ifname,
			   const char *link, char *buf, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s/%s", root, ifname, link);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	n = strlen(base);
	if ((size_t)n >= size)
		n = size - 1;	/* a name that long is truncated, not fatal */
	memcpy(buf, base, n);
	buf[n] = '\0';
}

/* Firmware, PHC and timestamping from the live device's ethtool. */
static void port_ethtool(struct bm_port_info *pi)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_ts_info ti = { .cmd = ETHTOOL_GET_TS_INFO };
	const unsigned int hw = SOF_TIMESTAMPING_TX_HARDWARE |
				SOF_TIMESTAMPING_RX_HARDWARE;
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", pi->name);
	ifr.ifr_data = (void *)&di;
	if (!ioctl(fd, SIOCETHTOOL, &ifr))
		snprintf(pi->firmware, sizeof(pi->firmware), "%.31s",
			 di.fw_version);
	ifr.ifr_data = (void *)&ti;
	if (!ioctl(fd, SIOCETHTOOL, &ifr)) {
		pi->phc_index = ti.phc_index;
		pi->hw_timestamps = (ti.so_timestamping & hw) == hw;
	}
	close(fd);
}

/* What bmgen.ko can send on the live device with (DEV_GET). */
static void port_tx_paths(struct bm_port_info *pi)
{
	struct bm_error err;
	struct bm_genl *g;
	uint32_t paths;
	int ret;

	g = bm_genl_open(&ret, &err);
	if (!g)
		return;
	if (!bm_genl_dev_tx_paths(g, pi->name, &paths, &err))
		pi->tx_paths = paths;
	bm_genl_close(g);
}

bool bm_mac_parse(const char *s, uint8_t mac[6])
{
	unsigned int x[6], k;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &x[0], &x[1], &x[2], &x[3], &x[4],
		   &x[5]) != 6)
		return false;
	for (k = 0; k < 6; k++)
		mac[k] = (uint8_t)x[k];
	return true;
}

int bm_port_info(const char *root, const char *ifname,
		 struct bm_port_info *pi)
{
	bool live = !root;

	char path[PATH_MAX], num[32];
	char *end;

	if (!root)
		root = SYS_NET;
	memset(pi, 0, sizeof(*pi));
	if (strlen(ifname) >= sizeof(pi->name) || strchr(ifname, '/'))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%s", root, ifname);
	if (access(path, F_OK))
		return -errno;
	strcpy(pi->name, ifname);
	read_link_base(root, ifname, "device/driver", pi->driver,
		       sizeof(pi->driver));
	if (!pi->driver[0])
		strcpy(pi->driver, "virtual");
	else
		read_link_base(root, ifname, "device", pi->bus_info,
			       sizeof(pi->bus_info));
	read_attr(root, ifname, "operstate", pi->operstate,
		  sizeof(pi->operstate));
	read_attr(root, ifname, "address", pi->address, sizeof(pi->address));
	/* speed reads EINVAL on a down link and -1 on veth: both unknown. */
	read_attr(root, ifname, "speed", num, sizeof(num));
	pi->speed_mbps = strtol(num, &end, 10);
	if (!num[0] || *end || pi->speed_mbps <= 0)
		pi->speed_mbps = -1;
	read_attr(root, ifname, "mtu", num, sizeof(num));
	pi->mtu = strtol(num, &end, 10);
	if (!num[0] || *end)
		pi->mtu = -1;
	pi->phc_index = -1;
	if (live) {
		port_ethtool(pi);
		port_tx_paths(pi);
	}
	return 0;
}

static int cmp_port(const void *a, const void *b)
{
	return strcmp(((const struct bm_port_info *)a)->name,
		      ((const struct bm_port_info *)b)->name);
}

int bm_port_list(const char *root, struct bm_port_info **v, size_t *n)
{
	struct bm_port_info *arr = NULL, *p;
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	/* root stays NULL for the live system: bm_port_info() then asks
	 * ethtool and the module too */
	d = opendir(root ? root : SYS_NET);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			p = realloc(arr, cap * sizeof(*arr));
			if (!p) {
				free(arr);
				closedir(d);
				return -ENOMEM;
			}
			arr = p;
		}
		if (!bm_port_info(root, de->d_name, &arr[cnt]))
			cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(arr, cnt, sizeof(*arr), cmp_port);
	*v = arr;
	*n = cnt;
	return 0;
}
