#!/usr/bin/env bash
# The packages' unit tests on Node 24 too (npm test runs everything on the machine's Node, 20). Node 24 comes from the
# npm registry (the `node` package, its binary in a temp folder); vitest runs under it in each package, and so do
# the processes the tests start (`process.execPath`, and `node` on PATH). Run after `npm test` (it uses the builds).
#
# Not run on Node 24: @raw/store-sqlite (better-sqlite3's binary is built for the ABI of the Node that installed it:
# NODE_MODULE_VERSION 115 for Node 20, Node 24 needs 137, so loading it fails), and the database, browser and CLI
# suites (@raw/store-postgres, @raw/panel-web, @raw/cli), which npm test runs on Node 20.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(schema predicate effects panel hook-protocol tool-api node-support mcp ai-sdk acp)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The `node` package installs the binary of its version in a preinstall script: allowed here, and only here.
printf '{ "private": true, "allowScripts": { "node": true } }\n' >"$tmp/package.json"
npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$tmp" node@24 >/dev/null
node24="$tmp/node_modules/node/bin/node"
version="$("$node24" --version)"
case "$version" in
  v24.*) ;;
  *) echo "test-node24: expected Node 24 from the npm registry, got ${version}" >&2; exit 1 ;;
esac
export PATH="$tmp/node_modules/node/bin:$PATH"

failed=()
for pkg in "${packages[@]}"; do
  echo "test-node24: @raw/${pkg} on Node ${version}"
  (cd "packages/${pkg}" && "$node24" ../../node_modules/vitest/vitest.mjs run) || failed+=("@raw/${pkg}")
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "test-node24: failed on Node ${version}: ${failed[*]}" >&2
  exit 1
fi
echo "test-node24: ${#packages[@]} packages passed on Node ${version}"
