#!/usr/bin/env bash
# Installs what the real-VS-Code tests need: Debian's chromium and ripgrep, the
# native build dependencies, and code-server (VS Code in a browser) into
# .cache/code-server/. Idempotent and non-interactive; a second run only checks.
# See ../shared/notes/vscode-in-ci.md for why each step is needed.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
# @vscode/ripgrep inside code-server 4.100.3 looks for this cached tarball
# before downloading rg from GitHub (unreachable here).
RIPGREP_PACKAGE_VERSION=1.15.11
RIPGREP_TARBALL=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="$ROOT/.cache/code-server"
MARKER="$PREFIX/.installed-$CODE_SERVER_VERSION"
BIN="$PREFIX/node_modules/.bin/code-server"

log() { printf '[setup-vscode] %s\n' "$*"; }

# --- Debian packages ------------------------------------------------------
# curl: verify_code_server below; ripgrep: the tarball code-server's rg wants.
bash "$ROOT/scripts/apt-packages.sh" chromium ripgrep curl libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config make g++ python3

# --- code-server ----------------------------------------------------------
verify_code_server() {
  local dir port pid status=1
  dir="$(mktemp -d)"
  port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  "$BIN" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
    --user-data-dir "$dir/user-data" --extensions-dir "$dir/extensions" --config "$dir/config.yaml" \
    "$dir" >"$dir/code-server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 60); do
    # The workbench page is what a browser loads; it must be real HTML.
    if curl -fsS "http://127.0.0.1:$port/?folder=$dir" 2>/dev/null | grep -q 'workbench'; then
      status=0
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if ((status)); then
    log "code-server did not serve the workbench page; its output:"
    cat "$dir/code-server.log"
  fi
  rm -rf "$dir"
  return "$status"
}

native_modules_built() {
  local vscode_modules="$PREFIX/node_modules/code-server/lib/vscode/node_modules"
  [[ -f "$vscode_modules/node-pty/build/Release/pty.node" ]] &&
    [[ -f "$vscode_modules/@vscode/spdlog/build/Release/spdlog.node" ]] &&
    [[ -x "$vscode_modules/@vscode/ripgrep/bin/rg" ]]
}

if [[ -f "$MARKER" && -x "$BIN" ]] && native_modules_built; then
  log "code-server $CODE_SERVER_VERSION already installed in ${PREFIX#"$ROOT"/}"
  exit 0
fi

log "installing code-server $CODE_SERVER_VERSION into ${PREFIX#"$ROOT"/} (about a minute)"
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
# npm 11 runs a dependency's install scripts only when this project allows
# them; code-server's postinstall builds its native modules, argon2 is native.
cat >"$PREFIX/package.json" <<EOF
{
  "name": "tandem-code-server-cache",
  "private": true,
  "description": "code-server for Tandem's real-VS-Code tests; made by scripts/setup-vscode.sh",
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF

ripgrep_cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-$RIPGREP_PACKAGE_VERSION"
if [[ ! -f "$ripgrep_cache/$RIPGREP_TARBALL" ]]; then
  staging="$(mktemp -d)"
  cp "$(command -v rg)" "$staging/rg"
  mkdir -p "$ripgrep_cache"
  tar czf "$ripgrep_cache/$RIPGREP_TARBALL" -C "$staging" rg
  rm -rf "$staging"
fi

install_env=(npm_config_unsafe_perm=true npm_config_yes=true npm_config_fund=false npm_config_audit=false)
# node-gyp needs Node's headers; use the system's instead of downloading them.
if [[ -f /usr/include/node/node_api.h ]]; then
  install_env+=(npm_config_nodedir=/usr)
fi
# The postinstall is chatty (node-gyp, pruned files): keep it in a log, show it on failure.
if ! env "${install_env[@]}" npm install --prefix "$PREFIX" --no-save --loglevel=error >"$PREFIX/install.log" 2>&1; then
  tail -n 80 "$PREFIX/install.log"
  log "npm install of code-server failed; full log: ${PREFIX#"$ROOT"/}/install.log"
  exit 1
fi

if ! native_modules_built; then
  log "code-server's native modules were not built (were its install scripts blocked?)"
  exit 1
fi
verify_code_server
touch "$MARKER"
log "code-server $CODE_SERVER_VERSION ready: $BIN"
