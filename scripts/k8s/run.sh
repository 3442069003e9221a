#!/usr/bin/env bash
# Runs the sharded generation on the current kubectl context: the volume, the Indexed Job,
# and, once every index has completed, the merge Job.
#   scripts/k8s/run.sh [TIMEOUT, default 48h]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kubectl apply -f "$here/pvc.yaml"
kubectl apply -f "$here/generate-job.yaml"
kubectl wait --for=condition=complete --timeout="${1:-48h}" job/tsume-generate
kubectl apply -f "$here/merge-job.yaml"
kubectl wait --for=condition=complete --timeout=6h job/tsume-merge
kubectl logs job/tsume-merge
