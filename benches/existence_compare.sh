#!/bin/sh
# Mate existence, tsume df-pn vs cshogi DfPn, interleaved (tsume, cshogi, tsume, cshogi, ...).
# Usage: benches/existence_compare.sh [REPS] [PYTHON]   (PYTHON: an interpreter with cshogi)
# Env: STEP (default 10), DATA (default benches/data relative to the repo root),
#      CARGO_TARGET_DIR (default benches/existence/target).
set -eu
cd "$(dirname "$0")/.."
REPS=${1:-5}
PY=${2:-python3}
STEP=${STEP:-10}
DATA=${DATA:-benches/data}
TARGET=${CARGO_TARGET_DIR:-benches/existence/target}
CARGO_TARGET_DIR=$TARGET cargo build --release --quiet --manifest-path benches/existence/Cargo.toml
FILES="$DATA/mate3_sample.txt $DATA/mate5_sample.txt $DATA/mate7_sample.txt $DATA/mate9_sample.txt $DATA/mate11_sample.txt"
LOG=$(mktemp)
uptime
r=1
while [ "$r" -le "$REPS" ]; do
    # shellcheck disable=SC2086
    "$TARGET/release/existence" --step "$STEP" --tag "tsume#$r" $FILES | tee -a "$LOG"
    # shellcheck disable=SC2086
    "$PY" benches/existence_cshogi.py --step "$STEP" --tag "cshogi#$r" $FILES | tee -a "$LOG"
    r=$((r + 1))
done
uptime
python3 - "$LOG" <<'PY'
import collections, re, statistics, sys
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'RESULT (\w+)#\d+ (\w+) n=(\d+) solved=(\d+) cpu=([\d.]+)s wall=([\d.]+)s nodes=(\d+)', l)
    if m:
        d[(m[1], m[2])].append((float(m[5]), float(m[6]), int(m[7]), int(m[4]), int(m[3])))
sets = [s for (lib, s) in d if lib == 'tsume']
print('| set | n | solved tsume / cshogi | tsume CPU s, median (min) | cshogi CPU s, median (min) '
      '| CPU ratio tsume/cshogi | tsume wall s | cshogi wall s | tsume nodes | cshogi nodes |')
print('|---|---|---|---|---|---|---|---|---|---|')
for s in sets:
    t, c = d[('tsume', s)], d[('cshogi', s)]
    tc, cc = statistics.median(x[0] for x in t), statistics.median(x[0] for x in c)
    print(f'| {s} | {t[0][4]} | {min(x[3] for x in t)} / {min(x[3] for x in c)} '
          f'| {tc:.3f} ({min(x[0] for x in t):.3f}) | {cc:.3f} ({min(x[0] for x in c):.3f}) '
          f'| {tc / cc if cc else float("inf"):.2f} | {statistics.median(x[1] for x in t):.3f} '
          f'| {statistics.median(x[1] for x in c):.3f} | {t[0][2]:,} | {c[0][2]:,} |')
PY
rm -f "$LOG"
