#!/usr/bin/env bash
# Installs Debian's wrk, the load generator of bench/scale-out.ts (`--loadgen wrk`), only when
# missing (idempotent). Benches only: the tests and `npm start` do not need it.
set -euo pipefail
. "$(dirname "$0")/_apt-install.sh"
command -v wrk >/dev/null 2>&1 && exit 0
apt_install ensure-bench-tools wrk
