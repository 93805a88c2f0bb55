#!/usr/bin/env bash
# The three marketplace sandboxes (Shopee, Lazada, TikTok Shop), a Magento 2 shop and a
# back-office pointed at them, with the demo store: sign in, open Sales channels and connect a
# shop through a sandbox's authorize page, or add a Magento channel with the shop's URL and
# OAuth 1.0a credentials printed below (ports: SHOPEE_PORT 18081, LAZADA_PORT 18082,
# TIKTOK_PORT 18083, MAGENTO_PORT 18084). Ctrl-C stops both. Built by `make channels-sandbox`.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}/quick"
settings=$(mktemp)
"$target/channels-sandbox" >"$settings" &
sandbox=$!
trap 'kill $sandbox 2>/dev/null; rm -f "$settings"' EXIT
for _ in $(seq 50); do grep -q PUBLIC_URL "$settings" && break; sleep 0.1; done
cat "$settings"
# shellcheck disable=SC1090
source <(grep '^  export ' "$settings")
BO_DEMO__ENABLED=true BO_DEMO__PRINT_PASSWORD=true "$target/backoffice" --target all
