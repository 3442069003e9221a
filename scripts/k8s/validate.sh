#!/usr/bin/env bash
# Validates the manifests of scripts/k8s against the Kubernetes API schemas (strict: an
# unknown field is an error) with kubernetes-validate from PyPI, pinned, in a venv; then
# checks that each Indexed Job's completions equal its TSUME_SHARDS and the merge Job's.
# Run by .ci/run. No cluster is needed.
set -euo pipefail
cd "$(dirname "$0")"
venv=${TMPDIR:-/tmp}/tsume-ci-kubernetes-validate-venv
if ! "$venv/bin/kubernetes-validate" --version >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet 'kubernetes-validate==1.37.0'
fi
for version in 1.30.0 1.37.0; do
  "$venv/bin/kubernetes-validate" --strict --kubernetes-version "$version" \
    pvc.yaml generate-job.yaml merge-job.yaml
done
"$venv/bin/python" - <<'PY'
import yaml
gen = yaml.safe_load(open("generate-job.yaml"))
merge = yaml.safe_load(open("merge-job.yaml"))
env = lambda job: {e["name"]: e["value"] for e in job["spec"]["template"]["spec"]["containers"][0]["env"]}
n = gen["spec"]["completions"]
assert gen["spec"]["completionMode"] == "Indexed", "not an Indexed Job"
assert env(gen)["TSUME_SHARDS"] == str(n), "generate: completions != TSUME_SHARDS"
assert env(merge)["TSUME_SHARDS"] == str(n), "merge: TSUME_SHARDS != the generate Job's completions"
claims = {j["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"] for j in (gen, merge)}
assert claims == {yaml.safe_load(open("pvc.yaml"))["metadata"]["name"]}, claims
print(f"k8s: Indexed Job of {n} shards, merge Job and volume claim consistent")
PY
