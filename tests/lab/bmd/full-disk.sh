# bmd(8) FILES: a full disk loses no result and hands out no id twice,
# with bmgen.ko's trials on a veth pair and the results directory on a
# small tmpfs:
#  1. a submit without room for what it may write at its worst is refused
#     with one line ("no room: ..."), and taken once there is room;
#  2. the disk filled to the last byte while a job runs: the job ends done,
#     bmctl result gives its whole result from bmd's memory, and once space
#     is freed the result file appears (within 5 s) with the same trials;
#  3. no inode left: a submit is refused with one line and bmd goes on;
#     freed, the next job takes the next id, and after every file of it is
#     lost and bmd restarted, the id after that: none is handed out twice.
FS=/tmp/fd
RES=$FS/results
RUN="rfc2544 throughput --port x0 --port y0 --line-rate 10M $R2544_FAST
	--frame-sizes 512 --param trial_duration_s=1
	--param search_trial_duration_s=1 --param drain_s=0.1
	--param resolution_pct=10"

uptime_s() { cut -d' ' -f1 /proc/uptime; }
job_of() { sed -n 's/^job *\([0-9]*\)$/\1/p'; }
# trials_of FILE: each trial's index and attempted frames, on one line
trials_of() {
	grep -o '"\(index\|attempted\)": *[0-9]*' "$1" | tr -d ' ' | tr '\n' ' '
}

bm_load
# a repeated run (lab-rate, one boot) finds the last run's devices, and
# its tmpfs when it failed half-way
$IP link del x0 2> /dev/null
umount $FS 2> /dev/null
$IP link add x0 type veth peer name y0 || fail "veth"
$IP link set x0 up && $IP link set y0 up || fail "veth up"
mkdir -p $FS
mount -t tmpfs -o size=16m,nr_inodes=64 tmpfs $FS || fail "tmpfs"
mkdir -p $RES
bmd_start -r $RES

# 1.
free_kb=$(df -k $FS | awk 'NR == 2 { print $4 }')
dd if=/dev/zero of=$FS/fill bs=1k count=$((free_kb - 1100)) 2> /dev/null
one_line 1 $BMCTL run $RUN
grep -q "^bmctl: no room: $RES has 1\.[0-9] MiB free, and rfc2544.throughput with the jobs queued or running may write up to [0-9.]* MiB ([0-9]* trials of its own): free some space$" /tmp/one.err ||
	fail "no room: '$(cat /tmp/one.err)'"
rm $FS/fill

# 2.
# 3 s trials (the search may need one): the disk fills during the first
a=$($BMCTL run $RUN --param trial_duration_s=3 --param search_trial_duration_s=3 \
	--detach | job_of)
[ -n "$a" ] || fail "job not taken with room"
i=0
until $BMCTL jobs | awk -v j="$a" '$1 == j && $2 == "running" { f = 1 } END { exit !f }'; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "job $a: not running after 30 s"
	sleep 0.1
done
sleep 1
dd if=/dev/zero of=$FS/fill bs=4k 2> /dev/null
check_eq "free KiB with the disk filled" "$(df -k $FS | awk 'NR == 2 { print $4 }')" 0
$BMCTL wait "$a" > /dev/null 2>&1
check_eq "job $a on a full disk" "$($BMCTL jobs | awk -v j="$a" '$1 == j { print $2 }')" done
[ ! -s $RES/$a.json ] || { ls -la $RES $RES/jobs; df -k $FS; grep -v "^ *$" /tmp/bmd.log | tail -5; fail "job $a: a result file on a full disk?"; }
$BMCTL -j result "$a" > /tmp/a-mem.json || fail "bmctl result $a from memory"
n=$(trials_of /tmp/a-mem.json | grep -o attempted | wc -l)
check_range "job $a: trials in the result bmd kept" "$n" 1 1000
grep -q "its result is not stored" /tmp/bmd.log || fail "bmd did not log the unstored result"
rm $FS/fill
t0=$(uptime_s)
i=0
until [ -s $RES/$a.json ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "job $a: result not written 10 s after space was freed"
	sleep 0.1
done
note "job $a: result written $(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }') s after space was freed"
check_eq "job $a: the trials written" "$(trials_of $RES/$a.json)" "$(trials_of /tmp/a-mem.json)"
cp $RES/$a.json /tmp/results/ 2> /dev/null

# 3.
i=0
while touch $FS/i$i 2> /dev/null; do
	i=$((i + 1))
done
note "inodes taken by $i files"
one_line 1 $BMCTL run $RUN --detach
grep -q "^bmctl: no room: $RES has [0-9]* free inodes, a job needs 8: free some files$" /tmp/one.err ||
	fail "no inodes: '$(cat /tmp/one.err)'"
$BMCTL status > /dev/null || fail "bmd gone after a refusal"
rm -f $FS/i*
b=$($BMCTL run $RUN --detach | job_of)
check_eq "the job after job $a" "$b" $((a + 1))
$BMCTL cancel "$b" > /dev/null
$BMCTL wait "$b" > /dev/null 2>&1
bmd_stop
rm -f $RES/$b.* $RES/jobs/$b.*
bmd_start -r $RES
c=$($BMCTL run $RUN --detach | job_of)
check_eq "the job after job $b, whose files were lost, and a restart" "$c" $((b + 1))
$BMCTL cancel "$c" > /dev/null
$BMCTL wait "$c" > /dev/null 2>&1
bmd_stop
umount $FS
echo "ok: full disk: refused without room, the result kept and written, no id twice"
