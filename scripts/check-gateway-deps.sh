#!/usr/bin/env bash
# The gateway speaks to services only through their contracts: among the workspace's own
# crates it may depend on the protos (bo-proto) and the shared libraries (bo-kit, bo-pdf),
# never on a service's crate, not even for its tests.
set -euo pipefail
cd "$(dirname "$0")/.."
allowed="bo-gateway bo-proto bo-kit bo-pdf"
workspace=$(cargo metadata --no-deps --format-version 1 \
  | python3 -c 'import json,sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["packages"]))')
used=$(cargo tree -p bo-gateway -e normal,build,dev --prefix none --format '{p}' \
  | awk '{print $1}' | sort -u)
bad=0
for crate in $used; do
  case " $workspace " in *" $crate "*) ;; *) continue ;; esac
  case " $allowed " in *" $crate "*) ;; *)
    echo "bo-gateway depends on the service crate $crate; reach it through its protos (bo-proto) instead"
    bad=1 ;;
  esac
done
[ $bad -eq 0 ] && echo "bo-gateway depends on no service crate (workspace crates it uses: $(echo $used | tr ' ' '\n' | grep -x -F "$(echo $workspace | tr ' ' '\n')" | tr '\n' ' '))"
exit $bad
