# REQ-GEN-3 / issue 3: the achieved rate, from first/last arrival and the
# count, is within 0.1 % of the intended rate for rates from 1 % to 90 %
# of what the lab carries (~9 kfps through the software bridge with
# slub_debug on under TCG).
bm_load
topo_bridge 2
for r in 100 500 2000 5000 7777.7; do
	n=$(awk -v r=$r 'BEGIN { printf "%d", r * 2 }')	# 2 s trials
	$BMT --tx t1 --rx t2 --size 64 --rate $r --count $n > /tmp/r || fail "trial at $r fps"
	check_eq "rate $r: lost" "$(kv lost /tmp/r)" 0
	check_range "rate $r: tx rate" "$(kv tx_rate_fps /tmp/r)" \
		"$(awk -v r=$r 'BEGIN { print r * 0.999 }')" "$(awk -v r=$r 'BEGIN { print r * 1.001 }')"
	check_range "rate $r: rx rate" "$(kv rx_rate_fps /tmp/r)" \
		"$(awk -v r=$r 'BEGIN { print r * 0.999 }')" "$(awk -v r=$r 'BEGIN { print r * 1.001 }')"
done
