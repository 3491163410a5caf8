#!/usr/bin/env bash
# Installs Debian's redis-server and postgresql for the multi-instance tests, only when missing
# (idempotent). The tests start their own servers on loopback, on free ports, in temporary
# directories; nothing here starts a system service.
set -euo pipefail
. "$(dirname "$0")/_apt-install.sh"

need=()
command -v "${REDIS_SERVER:-redis-server}" >/dev/null 2>&1 || need+=(redis-server)
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  need+=(postgresql)
fi
[ ${#need[@]} -eq 0 ] && exit 0

apt_install ensure-services "${need[@]}"
