#!/bin/bash
# usage: benches/threads_interleaved.sh OUT BIN "zuko035 zuko055 …" "1 2 [4 8]"
# Each problem of tests/data/zuko.txt at each thread count, the order of the counts rotated
# from one problem to the next (so a slow spell of a shared machine does not fall on one
# count); one line per run: problem, threads, status, length, shortest, nodes, ms.
# HASH=512 LIMIT=120 RULES=tsume by default.
out=$1; b=$2; problems=$3; counts=($4)
: > "$out"
i=0
for z in $problems; do
  s=$(grep "# $z " "$(dirname "$0")/../tests/data/zuko.txt" | awk '{print $1,$2,$3,$4}')
  n=${#counts[@]}
  for k in $(seq 0 $((n - 1))); do
    t=${counts[$(((k + i) % n))]}
    r=$($b solve "$s" --json --hash "${HASH:-512}" --rules "${RULES:-tsume}" --threads "$t" \
      --time-limit "${LIMIT:-120}" 2>/dev/null | python3 -c "import json,sys; d=json.loads(sys.stdin.read().splitlines()[-1]); print(d['status'],d.get('length'),d.get('shortest'),d['nodes'],d['time_ms'])")
    echo "$z t=$t $r" >> "$out"
  done
  i=$((i + 1))
done
awk '{n[$2]+=$6; ms[$2]+=$7} END {for (t in n) printf "%s %.1f M nodes %.1f s\n", t, n[t]/1e6, ms[t]/1000}' "$out" | sort
