#!/bin/bash
# usage: benches/zuko_nodes.sh OUT BIN — node counts (deterministic, whatever the load) of the
# 57 将棋図巧 problems that took more than 3 M nodes under tsume rules at a5541dc, each
# capped at 300 M nodes; compare two runs with benches/compare_nodes.py OLD NEW.
out=$1; b=$2
for z in zuko012 zuko046 zuko054 zuko082 zuko067 zuko074 zuko057 zuko097 zuko084 zuko044 zuko059 zuko038 zuko030 zuko040 zuko041 zuko087 zuko010 zuko026 zuko052 zuko029 zuko066 zuko025 zuko007 zuko015 zuko043 zuko077 zuko028 zuko093 zuko020 zuko050 zuko086 zuko063 zuko075 zuko056 zuko017 zuko083 zuko027 zuko003 zuko062 zuko076 zuko049 zuko061 zuko079 zuko011 zuko013 zuko016 zuko069 zuko039 zuko009 zuko065 zuko096 zuko047 zuko090 zuko035 zuko070 zuko048 zuko055; do
  s=$(grep "# $z " "$(dirname "$0")/../tests/data/zuko.txt" | awk '{print $1,$2,$3,$4}')
  r=$($b solve "$s" --json --hash 1024 --nodes 300000000 | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['status'],d.get('length'),d['nodes'],d['time_ms'])")
  echo "$z $r" >> $out
done
