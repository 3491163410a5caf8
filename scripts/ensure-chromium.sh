#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests, only when it is missing (idempotent).
# playwright-core drives it through executablePath; `npx playwright install` cannot download here.
set -euo pipefail
. "$(dirname "$0")/_apt-install.sh"

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] && exit 0

apt_install ensure-chromium chromium
[ -x "$CHROMIUM" ] || { echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing (set CHROMIUM_PATH?)." >&2; exit 1; }
