#!/usr/bin/env bash
# Sourced by the ensure-*.sh scripts: installs Debian packages with apt-get, as root or through
# passwordless sudo, without starting system services (the tests start their own, on loopback).
# Usage: apt_install <script-name> <package>...

apt_install() {
  local who="$1"; shift
  local fail_hint="install them by hand (apt-get install -y $*)"
  command -v apt-get >/dev/null 2>&1 || { echo "$who: $* missing and apt-get is not available; $fail_hint." >&2; return 1; }
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "$who: installing $* needs root (no sudo found); $fail_hint." >&2; return 1; }
    sudo="sudo -n"
  fi
  echo "$who: installing $* via apt-get (one time)..." >&2
  local log
  log="$(mktemp)"
  # RUNLEVEL=1: package scripts must not start system-wide services.
  if ! { $sudo apt-get update -qq \
      && $sudo env DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq --no-install-recommends "$@"; } >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    rm -f "$log"
    echo "$who: apt-get could not install $* (see the lines above); $fail_hint." >&2
    return 1
  fi
  rm -f "$log"
  echo "$who: $* installed." >&2
}
