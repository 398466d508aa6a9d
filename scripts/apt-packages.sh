#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are not installed yet.
# Shared by the per-suite setup scripts so each suite installs only what it
# needs, before it runs. Idempotent and non-interactive; uses sudo when not root.
#   bash scripts/apt-packages.sh ripgrep chromium ...
set -euo pipefail

log() { printf '[apt-packages] %s\n' "$*"; }

missing=()
for package in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if ((${#missing[@]} == 0)); then
  log "Debian packages present: $*"
  exit 0
fi

log "installing Debian packages: ${missing[*]}"
SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { log "need root (or sudo) to install: ${missing[*]}"; exit 1; }
  SUDO=(sudo)
fi
# Another apt run may hold the lock; wait for it rather than fail.
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "${missing[@]}"
