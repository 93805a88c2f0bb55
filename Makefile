# The two commands a newcomer needs are `make run` and `make test` (see README.md).
.PHONY: run test lint fmt build

CARGO ?= cargo

run: ## Build and start every module (SQLite, in-process bus, demo store) on http://localhost:8080
	$(CARGO) run --locked -p bo-gateway --bin backoffice -- --target all

test: ## Every test suite; PostgreSQL and NATS suites need TEST_DATABASE_URL and TEST_NATS_URL
	scripts/test.sh

lint: ## rustfmt check and clippy with warnings as errors
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --locked --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

build:
	$(CARGO) build --locked --release -p bo-gateway --bin backoffice
