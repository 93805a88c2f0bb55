#!/usr/bin/env bash
# Fuzzes the parsers of untrusted input (the spreadsheet import, the photo cleaner, the
# form-encoded body reader, the bank statement reader, the bill page's slip form) with
# cargo-fuzz and libFuzzer, each for FUZZ_SECONDS (default 180), starting from fuzz/seeds/;
# FUZZ_TARGETS names some of them only. Crashes land in fuzz/artifacts/<target>/; turn each into a
# regression test. Not part of `make test` or CI.
set -uo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${FUZZ_SECONDS:-180}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# cargo-fuzz passes the sanitizer flags of a nightly compiler; the stable one accepts them so.
export RUSTC_BOOTSTRAP=1
status=0
for target in ${FUZZ_TARGETS:-xlsx_import photo_clean form_body statement slip_form}; do
  mkdir -p "corpus/$target"
  cp -n "seeds/$target/"* "corpus/$target/" 2>/dev/null || true
  echo "== $target for ${seconds}s"
  log=$(mktemp)
  cargo fuzz run "$target" "corpus/$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 2>&1 | tee "$log" | grep -E "^(#[0-9]+\s+DONE|==[0-9]+==|SUMMARY|.*panicked)" || true
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" | tail -1)
  crashes=$(ls "artifacts/$target" 2>/dev/null | wc -l)
  echo "$target: ${runs:-0} executions, $crashes crashes"
  [ "$crashes" -eq 0 ] || status=1
  rm -f "$log"
done
exit $status
