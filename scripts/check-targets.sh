#!/usr/bin/env bash
# Every target named in deploy/ and k8s/ must be one `backoffice --list-targets` prints.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --locked -q -p bo-backoffice --bin backoffice
bin="${CARGO_TARGET_DIR:-target}/debug/backoffice"
known=$("$bin" --list-targets)
named=$(grep -rhoE -- '--target("?, *"|[= ]"?)[a-z,]+' k8s deploy | sed -E 's/--target("?, *"|[= ]"?)//' | tr ',' '\n' | sort -u)
[ -n "$named" ] || { echo "no targets found in k8s/ or deploy/"; exit 1; }
bad=0
for t in $named; do
  if ! grep -qx "$t" <<<"$known"; then
    echo "unknown target '$t' in the manifests (known: $(echo $known | tr ' ' ','))"
    bad=1
  fi
done
[ $bad -eq 0 ] && echo "targets in manifests: $(echo $named | tr ' ' ',') — all known"
exit $bad
