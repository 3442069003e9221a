#!/bin/bash
# usage: benches/zuko_threads.sh OUT BIN — the 57 heavier 将棋図巧 problems (benches/zuko_nodes.sh's list)
# under tsume rules at 1 and 2 threads, side by side (60 s limit, 512 MiB).
# THREADS="1 2 4 8" sets the thread counts, PROBLEMS="zuko012 zuko065 …" the problems
# (RESULTS §20 lists the 5–60 s subset), LIMIT=240 and HASH=1024 the time limit and table.
out=$1; b=$2
all="zuko012 zuko046 zuko054 zuko082 zuko067 zuko074 zuko057 zuko097 zuko084 zuko044 zuko059 zuko038 zuko030 zuko040 zuko041 zuko087 zuko010 zuko026 zuko052 zuko029 zuko066 zuko025 zuko007 zuko015 zuko043 zuko077 zuko028 zuko093 zuko020 zuko050 zuko086 zuko063 zuko075 zuko056 zuko017 zuko083 zuko027 zuko003 zuko062 zuko076 zuko049 zuko061 zuko079 zuko011 zuko013 zuko016 zuko069 zuko039 zuko009 zuko065 zuko096 zuko047 zuko090 zuko035 zuko070 zuko048 zuko055"
for z in ${PROBLEMS:-$all}; do
  s=$(grep "# $z " "$(dirname "$0")/../tests/data/zuko.txt" | awk '{print $1,$2,$3,$4}')
  for t in ${THREADS:-1 2}; do
    r=$($b solve "$s" --json --hash ${HASH:-512} --threads $t --time-limit ${LIMIT:-60} 2>/dev/null | python3 -c "import json,sys; d=json.loads(sys.stdin.read().splitlines()[-1]); print(d['status'],d.get('length'),d.get('shortest'),d['nodes'],d['time_ms'])")
    echo "$z t=$t $r" >> $out
  done
done
