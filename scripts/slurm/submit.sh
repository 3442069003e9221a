#!/usr/bin/env bash
# Submits a sharded `tsume generate` as a Slurm array job of N tasks and the merge as a job
# that starts when every task has succeeded (afterok):
#
#   TSUME_PACKS=/scratch/packs TSUME_SEED=7 TSUME_LENGTH=3-21 TSUME_COUNT=100 \
#     scripts/slurm/submit.sh N [sbatch options for the array, e.g. --time=02:00:00]
#
# Prints the two job ids ("ARRAY MERGE"). The settings are those of generate.sbatch and
# merge.sbatch (environment variables, passed on by sbatch). Logs go to $TSUME_PACKS/log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=${1:?usage: submit.sh N [sbatch options]}
shift
: "${TSUME_PACKS:?set TSUME_PACKS to the directory of the shard packs}"
export TSUME_SHARDS=$n
mkdir -p "$TSUME_PACKS/log"
array=$(sbatch --parsable --array="1-$n" --output="$TSUME_PACKS/log/generate-%A_%a.out" \
  "$@" "$here/generate.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$TSUME_PACKS/log/merge-%j.out" "$here/merge.sbatch")
echo "$array ${merge%%;*}"
