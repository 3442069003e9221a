#!/bin/bash
# usage: benches/phases_runs.sh OUT STATS_BIN zuko099 RUNS [THREADS]
# One tsume solve of a problem of tests/data/zuko.txt, RUNS times, with a build of the
# `stats` feature (see benches/README.md), which prints each phase's nodes: where runs of
# several threads differ from each other (RESULTS §41). Writes one line per run and phase,
# `<run> <seconds> <nodes> <ms> <phase>`, to OUT, then prints per phase the runs' nodes and
# milliseconds, least first (the first mates together, whatever their length). HASH=1024 by
# default.
set -e
out=$1; b=$2; z=$3; runs=$4; t=${5:-2}
s=$(grep "# $z " "$(dirname "$0")/../tests/data/zuko.txt" | awk '{print $1,$2,$3,$4}')
[ -n "$s" ] || { echo "no problem $z in tests/data/zuko.txt" >&2; exit 2; }
: > "$out"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for r in $(seq "$runs"); do
  start=$(date +%s.%N)
  "$b" solve "$s" --json --hash "${HASH:-1024}" --threads "$t" > /dev/null 2> "$err"
  secs=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
  grep '^phase: ' "$err" | sed -E 's/; searches.*//' |
    sed -E "s/^phase: (.*), nodes [0-9]+ \(\+([0-9]+)\), [0-9]+ ms \(\+([0-9]+)\)$/$r $secs \2 \3 \1/" >> "$out"
done
python3 - "$out" <<'EOF'
import re
import sys
from collections import defaultdict
phases, times, seconds = defaultdict(list), defaultdict(list), {}
for line in open(sys.argv[1]):
    run, secs, nodes, ms, phase = line.rstrip("\n").split(" ", 4)
    # The first mate's length differs from run to run at several threads.
    phase = re.sub(r"^raw first mate \d+", "raw first mate", phase)
    phases[phase].append(int(nodes))
    times[phase].append(int(ms))
    seconds[run] = float(secs)
print("seconds:", " ".join(f"{s:.1f}" for s in sorted(seconds.values())))
for phase, nodes in phases.items():
    print(
        f"{phase}: "
        + " ".join(f"{n / 1e6:.2f}" for n in sorted(nodes))
        + " M nodes; "
        + " ".join(str(t) for t in sorted(times[phase]))
        + " ms"
    )
EOF
