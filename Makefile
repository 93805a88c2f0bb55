# The two commands a newcomer needs are `make run` and `make test` (see README.md).
.PHONY: run run-binary channels-sandbox test e2e bench fuzz lint fmt build app app-deps

CARGO ?= cargo
NPM ?= npm

run: ## Build the admin app and the binary side by side, then start every module (SQLite, in-process bus, demo store) on http://localhost:8080
	@$(MAKE) --no-print-directory -j2 app run-binary
	BO_DEMO__ENABLED=true BO_DEMO__PRINT_PASSWORD=true $(CARGO) run --locked --profile quick -p bo-backoffice --bin backoffice -- --target all

# The binary `make run` starts, in the `quick` profile (a short first build; decision 0024).
# It takes every core beside the app's build (no share of make's job slots).
run-binary:
	MAKEFLAGS= $(CARGO) build --locked --profile quick -p bo-backoffice --bin backoffice

channels-sandbox: app ## The marketplace sandboxes (Shopee, Lazada, TikTok Shop), a Magento 2 shop and a back-office pointed at them, demo store, on http://localhost:8080
	MAKEFLAGS= $(CARGO) build --locked --profile quick -p bo-backoffice --bin backoffice -p bo-sandbox --bin channels-sandbox
	scripts/channels-sandbox.sh

test: ## Every suite: Rust (SQLite; PostgreSQL and NATS when TEST_DATABASE_URL and TEST_NATS_URL are set), the app, Chromium end-to-end
	scripts/test.sh

e2e: app ## The admin app end to end in Chromium against a fresh backoffice
	$(CARGO) build --locked -p bo-backoffice --bin backoffice
	cd frontend && node e2e/run.mjs

app: app-deps ## Build the admin app into frontend/dist (fails over the size budget)
	cd frontend && $(NPM) run build

app-deps:
	@if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then \
		cd frontend && $(NPM) ci --no-audit --no-fund; fi

bench: ## Requests per second and p50/p99 through the gateway, embedded and (with TEST_DATABASE_URL, TEST_NATS_URL) distributed
	$(CARGO) build --locked --release -p bo-backoffice --bin backoffice
	$(CARGO) bench --locked -p bo-backoffice --bench api

fuzz: ## The import, photo, form, statement and slip-form parsers under libFuzzer, FUZZ_SECONDS each (default 180); not in CI
	scripts/fuzz.sh

lint: ## rustfmt check, the gateway free of service crates, the protos (buf lint, states as enums), clippy with warnings as errors; the app's type check
	$(CARGO) fmt --all -- --check
	scripts/check-gateway-deps.sh
	scripts/check-proto.sh
	$(CARGO) clippy --locked --workspace --all-targets -- -D warnings
	cd frontend && $(NPM) run typecheck
	cd frontend && $(NPM) run lint
	node scripts/manifests.mjs --check
	scripts/check-k8s.sh

fmt:
	$(CARGO) fmt --all

build: app
	$(CARGO) build --locked --release -p bo-backoffice --bin backoffice
