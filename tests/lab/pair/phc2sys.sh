# lab2's system clock by phc2sys (Documentation/multi-host.md "Time"):
# where ptp4l disciplines a NIC's PHC and phc2sys the system clock from
# it, the system clock (the one a pool's trials start and pair on) is
# off the grandmaster by ptp4l's offset plus phc2sys's, and bmd reads
# phc2sys's reports of CLOCK_REALTIME from its log (BMGEN_PHC2SYS_LOG)
# for each part.  Here lab2's clock is ptp4l's (software stamps), so its
# phc2sys runs with the ntpshm servo: it measures CLOCK_REALTIME against
# h2's PHC and reports, never steering either (lib.sh lab2_phc2sys,
# tests/lab/pair-peer.sh), and h2's PHC is set P behind lab2's system
# clock (P drawn 2 to 5 ms): phc2sys reports about +P, 4 times a second.
#
# Truth, for pair_latency_job's 20 repetitions (t1 -> lab2:t2 through the
# DUT bridge): in every trial lab2's record has system_clock from
# /tmp/phc2sys.log with at least 4 reports (the part's 0.6 s and the 1.5
# s before it); its min and max are offsets the log holds (exact), within
# P +- 3 ms (phc_ctl's set is off by what a TCG guest takes between
# reading one clock and writing the other, and the PHC runs on QEMU's
# virtual clock while ptp4l slews the system clock: phc2sys's reports
# less P from -1.26 to +1.20 ms in 10 runs idle, -2.23 to +0.82 ms in 10
# under tools/stress-loop, one run's first report 1.64 ms under P); the
# trial's sync error is exactly what lab2's ranges add to, max(hi, -lo)
# with hi = its largest ptp4l offset (before, during, after) + phc2sys's
# largest, lo the smallest + the smallest (this host is the grandmaster:
# 0); 20 trials within the pool's 10 ms, and one not within (ptp4l's
# spike plus P) counted as run again.
# Then phc2sys stopped, its log left silent: a trial of a latency job
# (max_invalid 1) is flagged "lab2: no system clock by phc2sys (...no
# report of CLOCK_REALTIME ...)" and run again, and the job's result says
# "too many invalid repetitions: 2 of 2 with the hosts' clocks not
# within" (RFC 2544 §26.2 across hosts, Documentation/procedures-
# rfc2544.md).  Then lab2 as at boot (bmd without the log, for the tests
# after this one).
bm_load
pair_setup
P_US=$(lab_draw phc2sys_offset_us 2000 5000)
P=$((P_US * 1000))
note "seed $LAB_SEED: h2's PHC $P_US us behind lab2's system clock"
pair_sync 1000000 > /dev/null
lab2_phc2sys on $P
lab2_bmd_wait
bmd_start
pair_latency_job
$BMCTL -j result "$job" > /tmp/p2s.all || fail "bmctl result --json"
sed -n '/^  "trials"/,/^  "results"/p' /tmp/p2s.all > /tmp/p2s.trials
lab2_phc2sys log > /tmp/p2s.log
note "phc2sys's log: $(wc -l < /tmp/p2s.log) lines, the first: $(head -n 1 /tmp/p2s.log)"
# each trial's lab2 entry: before, after, during min and max, then
# system_clock's source, samples, min, max; then the trial's error_ns and
# within
awk '
function v(s) { s = $2; sub(/,$/, "", s); gsub(/"/, "", s); return s }
/"host": "lab2"/ { h = 1; sect = ""; src = n = smin = smax = "-" }
h && /"before": \{/ { sect = "b" }
h && /"after": \{/ { sect = "a" }
h && /"during": \{/ { sect = "d" }
h && /"system_clock": \{/ { sect = "s" }
h && /"first_tx_s":/ { sect = "" }
h && sect == "b" && /"offset_ns":/ { b = v() }
h && sect == "a" && /"offset_ns":/ { a = v() }
h && sect == "d" && /"min_offset_ns":/ { dmin = v() }
h && sect == "d" && /"max_offset_ns":/ { dmax = v() }
h && sect == "s" && /"source":/ { src = v() }
h && sect == "s" && /"samples":/ { n = v() }
h && sect == "s" && /"min_offset_ns":/ { smin = v() }
h && sect == "s" && /"max_offset_ns":/ { smax = v() }
h && /"error_ns":/ { e = v() }
h && /"within":/ { print b, a, dmin, dmax, src, n, smin, smax, e, v(); h = 0 }
' /tmp/p2s.trials > /tmp/p2s.rows
n=$(wc -l < /tmp/p2s.rows)
check_range "trials" "$n" 20 40
check_eq "trials whose lab2 entry reads /tmp/phc2sys.log" \
	"$(awk '$5 == "/tmp/phc2sys.log"' /tmp/p2s.rows | wc -l)" "$n"
check_eq "trials with 4 or more phc2sys reports" \
	"$(awk '$6 >= 4' /tmp/p2s.rows | wc -l)" "$n"
# the log's offsets of CLOCK_REALTIME, one a line
sed -n 's/.*CLOCK_REALTIME [a-z]* offset *\(-*[0-9]*\) s.*/\1/p' /tmp/p2s.log |
	sort -u > /tmp/p2s.offsets
check_range "phc2sys's reports in its log" "$(wc -l < /tmp/p2s.offsets)" 4 100000
check_eq "trials whose phc2sys min and max are in its log" \
	"$(awk 'NR == FNR { in_log[$1 + 0] = 1; next }
		(($7 + 0) in in_log) && (($8 + 0) in in_log)' \
		/tmp/p2s.offsets /tmp/p2s.rows | wc -l)" "$n"
awk -v p=$P '{ printf "note: phc2sys %d reports, %.3f .. %.3f ms (P %.3f ms); ptp4l %.3f .. %.3f ms; sync error %.3f ms\n",
	$6, $7 / 1e6, $8 / 1e6, p / 1e6,
	($1 < $2 ? ($1 < $3 ? $1 : $3) : ($2 < $3 ? $2 : $3)) / 1e6,
	($1 > $2 ? ($1 > $4 ? $1 : $4) : ($2 > $4 ? $2 : $4)) / 1e6, $9 / 1e6 }' \
	/tmp/p2s.rows
check_eq "trials whose phc2sys offsets are within P +- 3 ms" \
	"$(awk -v p=$P '$7 >= p - 3e6 && $8 <= p + 3e6' /tmp/p2s.rows | wc -l)" "$n"
check_eq "trials whose sync error is ptp4l's range plus phc2sys's" \
	"$(awk '{
		lo = $1; if ($2 < lo) lo = $2; if ($3 < lo) lo = $3
		hi = $1; if ($2 > hi) hi = $2; if ($4 > hi) hi = $4
		lo += $7; hi += $8
		e = hi; if (-lo > e) e = -lo; if (e < 0) e = 0
		d = $9 - e; if (d < 0) d = -d
		if (d <= 1) print }' /tmp/p2s.rows | wc -l)" "$n"
sed -n '/^  "results"/,$p' /tmp/p2s.all > /tmp/p2s.json
within=$(awk '$10 == "true"' /tmp/p2s.rows | wc -l)
check_range "trials within the pool's 10 ms" "$within" 20 "$n"
check_eq "trials not within, run again" "$((n - within))" \
	"$(jvals unsynced_repetitions /tmp/p2s.json)"
check_eq "valid repetitions" "$(jvals valid_repetitions /tmp/p2s.json)" 20

# phc2sys gone, its log silent: no system clock, the repetition re-run
lab2_phc2sys stop
pair_latency_job --param max_invalid=1
$BMCTL -j result "$job" > /tmp/p2s.stale || fail "bmctl result --json"
check_eq "trials flagged for lab2's silent phc2sys" \
	"$(grep -c '"why": "lab2: no system clock by phc2sys (phc2sys.s log: no report of CLOCK_REALTIME' /tmp/p2s.stale)" 2
check_eq "the result says why" \
	"$(grep -c '"result": "too many invalid repetitions: 2 of 2 with the hosts. clocks not within the pool.s tolerance (the last: lab2: no system clock by phc2sys' /tmp/p2s.stale)" 1
lab2_phc2sys off
lab2_bmd_wait
