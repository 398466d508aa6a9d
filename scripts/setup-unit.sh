#!/usr/bin/env bash
# Installs what the plain-Node unit suite needs beyond Node itself, before it
# runs. The external programs test/unit starts are: node (process.execPath)
# and npm (headless/aguiCli.test.ts), both part of Node; rg
# (tools/searchText.test.ts runs the ripgrep half of search_text); and mkfifo
# (tools/hostilePaths.test.ts; coreutils, essential on Debian). Only ripgrep
# may be missing on a new machine.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
if command -v rg >/dev/null; then
  printf '[setup-unit] rg present: %s\n' "$(command -v rg)"
  exit 0
fi
bash "$ROOT/scripts/apt-packages.sh" ripgrep
