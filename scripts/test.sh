#!/usr/bin/env bash
# Runs every test suite and says plainly which ones were skipped. Suites that need
# PostgreSQL or NATS read TEST_DATABASE_URL and TEST_NATS_URL; under CI=true a missing one
# is a failure, never a skip.
set -uo pipefail
cd "$(dirname "$0")/.."

skipped=()
check() { # name, variable, what
  if [ -z "${!2:-}" ]; then
    if [ "${CI:-}" = "true" ]; then
      echo "error: $2 is not set and CI=true: the $1 suites must run in CI" >&2
      exit 1
    fi
    skipped+=("$1 suites ($2 is not set; $3)")
  fi
}
check PostgreSQL TEST_DATABASE_URL "e.g. postgres://postgres@127.0.0.1:5432/test"
check NATS TEST_NATS_URL "e.g. nats://127.0.0.1:4222"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

echo "== Deployment manifests name only real targets"
scripts/check-targets.sh || status=1

echo "== Rust: unit, service and API tests"
cargo test --workspace --all-targets --locked 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

passed=$(awk '/^test result:/ { for (i = 1; i <= NF; i++) if ($i ~ /^passed/) n += $(i-1) } END { print n + 0 }' "$log")
failed=$(awk '/^test result:/ { for (i = 1; i <= NF; i++) if ($i ~ /^failed/) n += $(i-1) } END { print n + 0 }' "$log")
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo
if [ ${#skipped[@]} -gt 0 ]; then
  for s in "${skipped[@]}"; do echo "SKIPPED: $s"; done
else
  echo "Every suite ran (SQLite, PostgreSQL, NATS, two-process)."
fi
echo "summary: ${passed:-0} passed, ${failed:-0} failed"
exit $status
