#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests, only when it is missing (idempotent).
# playwright-core drives it through executablePath; `npx playwright install` cannot download here.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

fail() {
  echo "ensure-chromium: $1" >&2
  echo "ensure-chromium: install Debian 'chromium' by hand (apt-get install -y chromium) or set CHROMIUM_PATH." >&2
  exit 1
}

command -v apt-get >/dev/null 2>&1 || fail "$CHROMIUM is missing and apt-get is not available."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || fail "$CHROMIUM is missing and installing it needs root (no sudo found)."
  SUDO="sudo -n"
fi

echo "ensure-chromium: installing chromium via apt-get (one time)..." >&2
export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends chromium; } >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  rm -f "$log"
  fail "apt-get could not install chromium (see the lines above)."
fi
rm -f "$log"

[ -x "$CHROMIUM" ] || fail "apt-get finished but $CHROMIUM is still missing."
echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed." >&2
