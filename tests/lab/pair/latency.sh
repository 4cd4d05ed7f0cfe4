# One-way latency across two tester hosts (Documentation/multi-host.md):
# RFC 2544 §26.2 tagged latency from this guest's t1 to lab2's t2 (tools/
# lab-run --pair) through this guest's DUT, whose egress to lab2 delays
# every frame by netem delay D (drawn).  The tagged frame leaves with its
# transmit time since this host's epoch; lab2 takes its arrival since
# its own; both epochs are one CLOCK_TAI instant on clocks ptp4l keeps
# together, so the difference is the one-way latency off by their sync
# error.
#
# Truth: D plus the path (under 1 ms here, rfc2544/latency's base, and
# the cable between two TCG guests) plus lab2's clock offset O from this
# one by ptp4l's own account (pmc: lab2's master_offset, read before and
# after the job; within 1 ms before it, 2 ms after: Documentation/lab.md
# "Two tester hosts"): min - O in [D - 1 ms, D + 2 ms], mean - O in
# [D - 1 ms, D + 4 ms], the 1 ms below for ptp4l's own error of O (its
# path delay's asymmetry); all 20 repetitions valid.
bm_load
pair_setup
D_MS=$(lab_draw netem_delay_ms 5 30)
D=$((D_MS * 1000000))
note "seed $LAB_SEED: netem delay $D_MS ms"
$TC -n dut qdisc add dev d2 root netem delay ${D_MS}ms limit 10000 || fail "netem"
# lab2 follows this clock within 1 ms
off0=$(pair_sync 1000000)
bmd_start
# RFC 2544 §26.2's 20 repetitions, short; no learning frames (a bridge
# of two ports learns nothing that matters), so each part starts 0.5 s
# after bmd sends it
bm_job lat rfc2544 latency --port t1 --port lab2:t2 --line-rate 10M \
	--param restabilise_s=0 --param learning=false \
	--frame-sizes 512 --param throughput_fps=705 \
	--param trial_duration_s=0.6 --param tag_at_s=0.3 \
	--param repetitions=20 --param drain_s=0.2
off1=$(lab2_offset)
$BMCTL -j result "$job" > /tmp/lat.all || fail "bmctl result --json"
sed -n '/^  "results"/,$p' /tmp/lat.all > /tmp/lat.json
[ -n "$off0" ] && [ -n "$off1" ] || fail "lab2 does not follow this clock (pmc: '$off0', '$off1')"
O=$(( (off0 + off1) / 2 ))
note "lab2's offset by ptp4l: $off0 ns before, $off1 ns after the job (O = $O ns)"
check_range "lab2's offset by ptp4l after the job (ns)" "$off1" -2000000 2000000
mean=$(jvals latency_ns /tmp/lat.json | awk -v o=$O '{ printf "%.0f", $1 - o }')
min=$(jvals latency_min_ns /tmp/lat.json | awk -v o=$O '{ printf "%.0f", $1 - o }')
note "512 B: tagged latency less O: mean $mean min $min ns, truth D = $D ns + path"
check_eq "valid repetitions" "$(jvals valid_repetitions /tmp/lat.json)" 20
check_range "512 B tagged latency min - O (ns)" "$min" $((D - 1000000)) $((D + 2000000))
check_range "512 B tagged latency mean - O (ns)" "$mean" $((D - 1000000)) $((D + 4000000))
