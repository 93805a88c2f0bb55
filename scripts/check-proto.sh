#!/usr/bin/env bash
# The protos keep buf's style (`buf lint`, from the app's npm packages, offline), and a
# state travels as an enum: a string field named `state`, `status` or `*_state` is an error
# (decision 0026).
set -euo pipefail
cd "$(dirname "$0")/.."
buf=frontend/node_modules/.bin/buf
[ -x "$buf" ] || { echo "buf is missing: run npm ci in frontend/"; exit 1; }
(cd proto && "../$buf" lint)
python3 - <<'PY'
import pathlib, re, sys
bad = 0
for f in sorted(pathlib.Path("proto/backoffice").rglob("*.proto")):
    message = None
    for line in f.read_text().splitlines():
        m = re.match(r"\s*message\s+(\w+)", line)
        if m:
            message = m.group(1)
        m = re.match(r"\s*(?:optional\s+|repeated\s+)?string\s+(\w*state|\w*status|\w*_states|states)\s*=", line)
        if m:
            print(f"{f.relative_to('proto')}: {message}.{m.group(1)} is a string; make the state an enum "
                  "(X_UNSPECIFIED = 0, as buf's style has it)")
            bad = 1
if not bad:
    print("protos: buf lint clean; every state is an enum")
sys.exit(bad)
PY
