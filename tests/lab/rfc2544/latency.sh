# R2544-LAT end to end (bmctl -> bmd -> bmgen.ko) against a bridge DUT
# with netem delay D on its egress port d2, drawn on every run (below).
#
# The procedure measures throughput first and runs the latency streams at
# that rate.  netem here delays but never drops (limit 10000 frames, far
# above the ~8 frames in flight), so with max_rate_pct=30 the search's
# first trial at r_max passes ("loss-free at r_max") and the latency
# streams run at 30 % of the 10 Mbit/s line: 704.89 fps at 512 B.  That
# keeps the search to one trial and the rate where the TCG guest paces
# reliably.  One size since session 18 (make check's 30 minutes): the
# truth is the same at every size (1518 B passed alike until then).
#
# Truth: bf latency (first bit out to first bit in, both stamped by
# bmgen.ko on one clock) = D + base + e, where base is the bridge/veth
# forwarding time without netem (measured below with bmgen-trial on the
# same DUT) and e >= 0 is how late netem's hrtimer watchdog releases the
# frame.  netem never releases a frame early, so every repetition's tagged
# latency is >= D exactly.
bm_load
topo_bridge 2
bmd_start

# base: the DUT without netem, same rate and size as the latency streams
$BMT --tx t1 --rx t2 --size 512 --rate 705 --count 700 > /tmp/base || fail "base trial"
note "base (no netem, 512 B, 705 fps): min $(kv lat_min_ns /tmp/base) mean $(kv lat_mean_ns /tmp/base) p99 $(kv lat_p99_ns /tmp/base) max $(kv lat_max_ns /tmp/base) ns"

# D is drawn on every run (lib.sh lab_draw, seed printed): 3..30 ms (10 ms
# until 2026-12-02); at 705 fps at most 22 frames are in flight
D_MS=$(lab_draw netem_delay_ms 3 30)
D=$((D_MS * 1000000))
note "seed $LAB_SEED: netem delay $D_MS ms"
$TC -n dut qdisc add dev d2 root netem delay ${D_MS}ms limit 10000 || fail "netem"
bm_job lat rfc2544 latency --port t1 --port t2 --line-rate 10M $R2544_FAST \
	--frame-sizes 512 --param max_rate_pct=30 \
	--param throughput_trial_duration_s=1 \
	--param throughput_search_trial_duration_s=1 \
	--param trial_duration_s=0.6 --param tag_at_s=0.3 \
	--param repetitions=20 --param drain_s=0.2
$BMCTL -j result "$job" > /tmp/lat.all || fail "bmctl result --json"
# the per-size results only (params and trials reuse some keys)
sed -n '/^  "results"/,$p' /tmp/lat.all > /tmp/lat.json
check_eq "throughput search" "$(jvals search_result /tmp/lat.json | tr '\n' ' ')" \
	'"loss-free at r_max" '
check_eq "latency stream rate (fps)" \
	"$(jvals rate_fps /tmp/lat.json | awk '{ printf "%.2f ", $1 }')" "704.89 "

mean512=$(jvals latency_ns /tmp/lat.json)
min512=$(jvals latency_min_ns /tmp/lat.json)
max512=$(jvals latency_max_ns /tmp/lat.json)
[ "$(echo "$mean512" | wc -l)" -eq 1 ] || fail "want 1 latency value, got: $mean512"
note "512 B: tagged latency mean $mean512 min $min512 max $max512 ns, truth D = $D ns + base + timer lateness"
check_eq "valid repetitions" "$(jvals valid_repetitions /tmp/lat.json | tr '\n' ' ')" "20 "
check_eq "definition stated" "$(jvals definition /tmp/lat.json | sort -u)" '"bf (RFC 1242 bit forwarding, FIFO)"'
# min over 20 repetitions: >= D exactly (netem never releases early), and
# at least one repetition gets through with base (mean 53 us, p99 280 us
# measured here) plus a timer that fires within 1 ms: measured 132/147 us
# above D.
check_range "512 B tagged latency min (ns)" "$min512" $D $((D + 1000000))
# mean of 20 tagged frames: >= D; above it by the mean timer lateness,
# measured 1.0 ms here (single repetitions up to 6.3 ms late, which moves
# a mean of 20 by 0.3 ms); 3 ms is three times that.
check_range "512 B tagged latency mean (ns)" "$mean512" $D $((D + 3000000))
