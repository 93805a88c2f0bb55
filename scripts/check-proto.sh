#!/usr/bin/env bash
# The protos keep buf's style (`buf lint`, from the app's npm packages, offline), and a
# state travels as an enum: a string field named `state`, `status` or `*_state` is an
# error unless proto/string-states.txt still lists it (the fields from before enums, to be
# converted; a field gone from the protos must leave the list too).
set -euo pipefail
cd "$(dirname "$0")/.."
buf=frontend/node_modules/.bin/buf
[ -x "$buf" ] || { echo "buf is missing: run npm ci in frontend/"; exit 1; }
(cd proto && "../$buf" lint)
python3 - <<'PY'
import pathlib, re, sys
found = set()
for f in sorted(pathlib.Path("proto/backoffice").rglob("*.proto")):
    message = None
    for line in f.read_text().splitlines():
        m = re.match(r"\s*message\s+(\w+)", line)
        if m:
            message = m.group(1)
        m = re.match(r"\s*(?:optional\s+|repeated\s+)?string\s+(\w*state|\w*status|\w*_states|states)\s*=", line)
        if m:
            found.add(f"{f.relative_to('proto')}: {message}.{m.group(1)}")
listed = {l.strip() for l in pathlib.Path("proto/string-states.txt").read_text().splitlines()
          if l.strip() and not l.startswith("#")}
bad = 0
for field in sorted(found - listed):
    print(f"{field} is a string; make the state an enum (X_UNSPECIFIED = 0, as buf's style has it)")
    bad = 1
for field in sorted(listed - found):
    print(f"proto/string-states.txt lists {field}, which is no longer a string field: remove the line")
    bad = 1
if not bad:
    print(f"protos: buf lint clean; states are enums ({len(listed)} older string fields still listed)")
sys.exit(bad)
PY
