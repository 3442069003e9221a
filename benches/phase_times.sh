#!/bin/bash
# usage: benches/phase_times.sh OUTDIR STATS_BIN "zuko001 zuko004 …" "1 2"
# Where the time of tsume solves goes, phase by phase, at each thread count: each problem of
# tests/data/zuko.txt solved with a build of the `stats` feature (see benches/README.md) at
# each count, the order of the counts rotated from one problem to the next; each solve's
# stderr and JSON kept in OUTDIR. Then prints, per kind of phase, the milliseconds summed
# over the problems solved at every count, and their ratio to the first count (RESULTS §50c).
# HASH=1024 LIMIT=120 by default.
set -e
out=$1; b=$2; problems=$3; counts=($4)
mkdir -p "$out"
i=0
for z in $problems; do
  s=$(grep "# $z " "$(dirname "$0")/../tests/data/zuko.txt" | awk '{print $1,$2,$3,$4}')
  [ -n "$s" ] || { echo "no problem $z in tests/data/zuko.txt" >&2; exit 2; }
  n=${#counts[@]}
  for k in $(seq 0 $((n - 1))); do
    t=${counts[$(((k + i) % n))]}
    "$b" solve "$s" --json --hash "${HASH:-1024}" --threads "$t" --time-limit "${LIMIT:-120}" \
      > "$out/$z.t$t.json" 2> "$out/$z.t$t.err" || true
  done
  i=$((i + 1))
done
python3 - "$out" "$4" <<'EOF'
import glob, json, os, re, sys
from collections import Counter, defaultdict
out, counts = sys.argv[1], [int(t) for t in sys.argv[2].split()]
kinds = [("raw first mate", "raw first mate"), ("raw shortenings", "raw shortenings"),
         ("lower-bound game", "lower-bound game"), ("two-ply game", "two-ply game first"), ("stalled", "stalled questions"),
         ("a tsume line", "lines told early"), ("value", "value questions"),
         ("best-play line", "best-play line")]
runs = defaultdict(dict)
for f in glob.glob(f"{out}/*.json"):
    z, t = os.path.basename(f)[:-5].rsplit(".t", 1)
    try:
        runs[z][int(t)] = (json.load(open(f))["time_ms"], f[:-5] + ".err")
    except (ValueError, KeyError):
        pass
ms = {t: Counter() for t in counts}
for z, by_count in sorted(runs.items()):
    if set(by_count) != set(counts):
        continue
    for t, (total, err) in by_count.items():
        last = 0
        for line in open(err):
            m = re.match(r"phase: (.*?), nodes \d+ \(\+\d+\), (\d+) ms \(\+(\d+)\)", line)
            if m:
                kind = next((k for p, k in kinds if m.group(1).startswith(p)), "other")
                ms[t][kind] += int(m.group(3))
                last = int(m.group(2))
        ms[t]["after the last phase"] += total - last
first = counts[0]
print(f"{'phase':<22}" + "".join(f"{f'{t} thr. ms':>12}{'ratio':>7}" for t in counts))
for kind in [k for _, k in kinds] + ["other", "after the last phase", "all"]:
    row = {t: (sum(ms[t].values()) if kind == "all" else ms[t][kind]) for t in counts}
    if not any(row.values()):
        continue
    print(f"{kind:<22}" + "".join(
        f"{row[t]:>12}{row[t] / row[first] if row[first] else 0:>7.2f}" for t in counts))
EOF
