# RFC 2544 §13 route set-up and §11.3 routing updates across two tester
# hosts (Documentation/multi-host.md): rfc2544 frame-loss from this
# guest's t1 to lab2's t2 (tools/lab-run --pair) through this guest's
# router DUT (pair_router_tbf: d1 198.18.1.1 towards t1, d2 198.19.1.1
# the cable to lab2's t2 198.19.1.2, tbf on d2) running BIRD's RIP v1 on
# d1 and d2 (lib.sh dut_bird; the jobs and their checks rfc2544/
# routing's: lib.sh rip_setup_job, rip_ab_job).  Each host's part
# sends the updates of its own ports: §13's set-up goes from the rx
# port's network, lab2's t2 (its part, a bmgen.part job of lab2's bmd,
# sends it over the cable into d2, bm_hosts.h bm_part_lead_s before the
# parts' one instant), §11.3's A/B updates from the tx port's, t1 here,
# into d1, in the trial.  RFC 2544 §11 takes one modifier a job, so two:
# (1) random_networks=190 (198.19.65-254), route_setup=rip with
# route_lead_s=2.2; (2) routing_updates every 0.5 s; each 1.5 s trials at
# 20 % of a 10 Mbit/s line (below the tbf's C).
#
# Truth from the DUT's own tables and record, as rfc2544/routing: before
# (1) no route to any of the 190 networks; after it BIRD's RIP
# table has each via 198.19.1.10 (lab2's t2 network's phantom router) on
# d2, metric 8, and the kernel each from BIRD; each trial of (1) counts 8
# set-up messages (ceil(190 / 25), counted once: by lab2), each of (2)
# 3 A/B updates; `ip monitor route` in the DUT saw 198.18.65.0/24 added
# once per A update and 198.18.77.0/24 once per B update (a change each
# time); every frame a job lost is one the tbf dropped, so every frame
# to a random network went by a route lab2's update made.
bm_load
pair_setup
pair_router_tbf
dut_bird
off=$(pair_sync 1000000)
note "lab2's clock offset by ptp4l before the job: $off ns"
bmd_start
rip_setup_job lab2:t2 "tbf20 dropped"
check_eq "(1) every trial's hosts' clocks within the pool's tolerance" \
	"$(jvals within /tmp/rip.trials | sort -u)" true
# 2. §11.3 (one modifier a job): this host's A/B updates while lab2
# receives
rip_ab_job lab2:t2 "tbf20 dropped"
check_eq "(2) every trial's hosts' clocks within the pool's tolerance" \
	"$(jvals within /tmp/ab.trials | sort -u)" true
