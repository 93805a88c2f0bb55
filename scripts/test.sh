#!/usr/bin/env bash
# Runs every test suite and says plainly which ones were skipped. Suites that need
# PostgreSQL or NATS read TEST_DATABASE_URL and TEST_NATS_URL; the file storage's S3 suites
# read TEST_S3_URL, and this script starts a local S3-compatible server (moto) on loopback
# for them when it is installed. Under CI=true a missing one is a failure, never a skip.
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

moto_pid=""
if [ -z "${TEST_S3_URL:-}" ] && python3 -c 'import moto.server' 2>/dev/null; then
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 -m moto.server -H 127.0.0.1 -p "$port" >/dev/null 2>&1 &
  moto_pid=$!
  for _ in $(seq 1 100); do
    timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null && break
    sleep 0.2
  done
  export TEST_S3_URL="http://127.0.0.1:$port"
  echo "== A local S3-compatible server for the file storage suites on $TEST_S3_URL"
fi
check S3 TEST_S3_URL "pip install 'moto[server]', and this script starts one"
if ! python3 -c 'import openapi_python_client' 2>/dev/null; then
  if [ "${CI:-}" = "true" ]; then
    echo "error: openapi-python-client is not installed and CI=true: the integrator API's generated-client test must run in CI" >&2
    exit 1
  fi
  skipped+=("the integrator API through a generated client (pip install openapi-python-client)")
fi
if ! python3 -c 'import standardwebhooks' 2>/dev/null; then
  if [ "${CI:-}" = "true" ]; then
    echo "error: standardwebhooks is not installed and CI=true: the webhooks' signatures must be verified in CI" >&2
    exit 1
  fi
  skipped+=("webhooks verified by the Standard Webhooks library (pip install standardwebhooks)")
fi
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "error: Chromium is not at $CHROMIUM and CI=true: the end-to-end suite must run in CI" >&2
    exit 1
  fi
  skipped+=("Chromium end-to-end suite (no browser at $CHROMIUM; apt-get install chromium)")
fi
command -v node >/dev/null || { echo "error: node is required for the admin app's suites" >&2; exit 1; }

log=$(mktemp)
trap 'rm -f "$log"; [ -z "$moto_pid" ] || kill "$moto_pid" 2>/dev/null' EXIT
status=0

echo "== Deployment manifests name only real targets"
scripts/check-targets.sh || status=1

echo "== Rust: build the unit, service and API tests"
cargo test --workspace --lib --bins --tests --locked --no-run 2>&1 | tail -n 3
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

# The Rust suites mostly wait (on databases, the bus, processes they start), so the app's
# checks, unit tests and build run beside them; the end-to-end run comes after both, alone.
rust_log=$(mktemp)
app_log=$(mktemp)
trap 'rm -f "$log" "$rust_log" "$app_log"; [ -z "$moto_pid" ] || kill "$moto_pid" 2>/dev/null' EXIT
# Every test binary runs even after one fails, so the summary names every failure.
echo "== Rust: unit, service and API tests (beside the admin app's checks; output below when done)"
(cargo test --workspace --lib --bins --tests --locked --no-fail-fast > "$rust_log" 2>&1; echo $? > "$rust_log.rc") &
rust_pid=$!

echo "== The admin app: dependencies, type check, generated client, unit tests, build and size budget"
app_status=0
{
  make -s app-deps || app_status=1
  (cd frontend && npm run -s typecheck) || app_status=1
  (cd frontend && npm run -s lint) || app_status=1
  (cd frontend && npm run -s codegen:check) || app_status=1
  (cd frontend && npx jest --ci 2>&1) || app_status=1
  (cd frontend && npm run -s build) || app_status=1
} > "$app_log" 2>&1
cat "$app_log"
cat "$app_log" >> "$log"
[ "$app_status" -eq 0 ] || status=1

wait "$rust_pid"
echo "== Rust: unit, service and API tests (output)"
cat "$rust_log"
cat "$rust_log" >> "$log"
[ "$(cat "$rust_log.rc" 2>/dev/null)" = "0" ] || status=1
rm -f "$rust_log.rc"

if [ -x "$CHROMIUM" ]; then
  echo "== The admin app end to end in Chromium"
  (cd frontend && CHROMIUM="$CHROMIUM" node e2e/run.mjs 2>&1) | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi

# Sum cargo's "test result:", jest's "Tests:" and the end-to-end "e2e:" lines.
count() {
  awk -v word="$1" '/^test result:|^Tests:|^e2e:/ { for (i = 2; i <= NF; i++) if ($i ~ "^" word) n += $(i-1) } END { print n + 0 }' "$log"
}
passed=$(count passed)
failed=$(count failed)
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo
# The failures again, by name, where the end of a long log is all one reads.
failures='^ +✕ |^  ● .+ › |^test .* FAILED$|^FAIL '
if grep -qE "$failures" "$log"; then
  echo "failures:"
  grep -E "$failures" "$log" | sed 's/^ */  /' | sort -u
  # Why each Rust test failed: where it panicked and the first lines of its message.
  awk '/^---- .* stdout ----$/ { name = $2; left = 0; next }
       /panicked at/ && name != "" { print "  why " name ": " $0; left = 3; name = ""; next }
       left > 0 { print "      " substr($0, 1, 400); left-- }' "$log"
fi
if [ ${#skipped[@]} -gt 0 ]; then
  for s in "${skipped[@]}"; do echo "SKIPPED: $s"; done
else
  echo "Every suite ran (SQLite, PostgreSQL, NATS, S3, two-process, the app, Chromium end to end)."
fi
echo "summary: ${passed:-0} passed, ${failed:-0} failed"
exit $status
