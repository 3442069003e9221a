#!/usr/bin/env bash
# End-to-end test of the Slurm path (run by .ci/run, as root): a single-node cluster
# (ci-cluster.sh), a 4-task `tsume generate` array job and the dependent merge job
# submitted with submit.sh, then the checks made for one run: `tsume verify` of the merged
# pack, no duplicates, the counts, the manifest's checksums and sources, and a second merge
# (inputs in another order) byte-identical.
#
#   scripts/slurm/ci-test.sh [TSUME_BINARY]   (default: cargo build --release, target/release/tsume)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
if [ $# -ge 1 ]; then
  tsume=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
else
  cargo build --release --bin tsume
  tsume=${CARGO_TARGET_DIR:-$root/target}/release/tsume
fi
[ -x "$tsume" ] || { echo "ci-test: no tsume binary at $tsume" >&2; exit 2; }
export TSUME_SLURM_DIR=${TSUME_SLURM_DIR:-/tmp/tsume-slurm}
export SLURM_CONF=$TSUME_SLURM_DIR/slurm.conf
scripts/slurm/ci-cluster.sh start
trap 'scripts/slurm/ci-cluster.sh stop' EXIT
work=$(mktemp -d "${TMPDIR:-/tmp}/tsume-slurm-test.XXXXXX")
chmod 755 "$work"
export TSUME=$tsume TSUME_PACKS=$work/packs TSUME_OUT=$work/merged
export TSUME_SEED=12 TSUME_LENGTH=3-5 TSUME_COUNT=6
export TSUME_GENERATE_ARGS="--budget 100000 --max-candidates 256"
export TSUME_VERIFY_ARGS="--budget 400000"
shards=4
t0=$(date +%s%N)
read -r array merge < <(scripts/slurm/submit.sh "$shards" --time=10)
echo "ci-test: submitted array job $array ($shards tasks) and merge job $merge"
state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' '; }
for _ in $(seq 600); do
  s=$(state "$merge")
  case $s in
    *COMPLETED*|*FAILED*|*CANCELLED*|*TIMEOUT*|*NODE_FAIL*|*OUT_OF_MEMORY*) break ;;
  esac
  sleep 0.5
done
elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
for j in "$array" "$merge"; do
  scontrol show job "$j" | grep -E 'JobId=|JobState=|RunTime=' | paste - - - |
    sed -E 's/^ +//; s/ +/ /g; s/ (Reason|Dependency|TimeLimit|TimeMin)=[^ ]*//g' || true
done
echo "ci-test: merge job $merge: $(state "$merge")after ${elapsed_ms} ms from submission"
grep -H . "$TSUME_PACKS"/log/*.out
arr=$(state "$array")
if [ "$arr" != "COMPLETED " ] || [ "$(state "$merge")" != "COMPLETED " ]; then
  echo "ci-test: jobs did not all complete: array [$arr] merge [$(state "$merge")]" >&2
  tail -n 40 "$TSUME_SLURM_DIR"/log/*.log >&2 || true
  exit 1
fi
# The merged pack: sound (the merge job ran tsume verify; again here for the exit code).
"$tsume" verify --budget 400000 "$TSUME_OUT/pack.jsonl" 2>&1 >/dev/null | sed 's/^/ci-test: tsume verify: /'
# The same set of shards in another order: byte-identical.
"$tsume" merge "$work/again" "$TSUME_PACKS"/shard-4 "$TSUME_PACKS"/shard-2 \
  "$TSUME_PACKS"/shard-1 "$TSUME_PACKS"/shard-3 2>/dev/null
for f in pack.jsonl pack.sfen problems.kif manifest.json; do
  cmp "$TSUME_OUT/$f" "$work/again/$f"
done
python3 - "$work" "$shards" <<'PY'
import hashlib, json, pathlib, sys
work, n = pathlib.Path(sys.argv[1]), int(sys.argv[2])
sha = lambda p: hashlib.sha256(p.read_bytes()).hexdigest()
lines = lambda p: [json.loads(l) for l in p.read_text().splitlines() if l.strip()]
merged = work / "merged"
recs = lines(merged / "pack.jsonl")
m = json.loads((merged / "manifest.json").read_text())
assert recs, "no problems"
for key in ("id", "sfen"):
    vals = [r[key] for r in recs]
    assert len(vals) == len(set(vals)), f"duplicate {key}"
cands = [r["generator"]["candidate"] for r in recs]
assert cands == sorted(set(cands)), "candidates repeated or out of order"
counts = {}
for r in recs:
    assert 3 <= r["length"] <= 5 and len(r["solution"]) == r["length"], r
    k, kn = int(r["generator"]["shard"].split("/")[0]), r["generator"]["shard"]
    assert kn.endswith(f"/{n}") and r["generator"]["candidate"] % n == k - 1, r
    counts[str(r["length"])] = counts.get(str(r["length"]), 0) + 1
assert m["count"] == len(recs) and m["counts_per_length"] == counts, (m, counts)
for f in ("pack.jsonl", "pack.sfen", "problems.kif"):
    assert m["files"][f]["sha256"] == sha(merged / f), f
total = 0
assert len(m["sources"]) == n
seen = set()
for s in m["sources"]:
    d = pathlib.Path(s["dir"])
    assert s["files"]["pack.jsonl"]["sha256"] == sha(d / "pack.jsonl"), d
    assert s["files"]["manifest.json"]["sha256"] == sha(d / "manifest.json"), d
    sm = json.loads((d / "manifest.json").read_text())
    assert sm["files"]["pack.jsonl"]["sha256"] == sha(d / "pack.jsonl"), d
    seen.add(sm["shard"])
    total += len(lines(d / "pack.jsonl"))
assert seen == {f"{k}/{n}" for k in range(1, n + 1)}, seen
assert len(recs) + m["merge"]["duplicates_dropped"] == total
per = " ".join(f"{l}:{c}" for l, c in sorted(counts.items()))
print(f"ci-test: merged pack of {len(recs)} problems ({per}) from {total} in {n} shards: "
      "sound, no duplicates, counts and checksums hold")
PY
rm -rf "$work"
echo "ci-test: Slurm path OK"
