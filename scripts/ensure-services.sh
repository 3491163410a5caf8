#!/usr/bin/env bash
# Installs Debian's redis-server and postgresql for the multi-instance tests, only when missing
# (idempotent). The tests start their own servers on loopback, on free ports, in temporary
# directories; nothing here starts a system service.
set -euo pipefail

need=()
command -v "${REDIS_SERVER:-redis-server}" >/dev/null 2>&1 || need+=(redis-server)
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  need+=(postgresql)
fi
[ ${#need[@]} -eq 0 ] && exit 0

fail() {
  echo "ensure-services: $1" >&2
  echo "ensure-services: install them by hand (apt-get install -y ${need[*]})." >&2
  exit 1
}

command -v apt-get >/dev/null 2>&1 || fail "${need[*]} missing and apt-get is not available."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || fail "${need[*]} missing and installing needs root (no sudo found)."
  SUDO="sudo -n"
fi

echo "ensure-services: installing ${need[*]} via apt-get (one time)..." >&2
export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
# policy-rc.d: the packages must not start system-wide services; the tests start their own.
if ! { $SUDO apt-get update -qq && $SUDO env RUNLEVEL=1 apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  rm -f "$log"
  fail "apt-get could not install ${need[*]} (see the lines above)."
fi
rm -f "$log"
echo "ensure-services: ${need[*]} installed." >&2
