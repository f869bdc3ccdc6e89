#!/bin/sh
# Lays out what production runs in a folder: the built server and browser app, the migrations,
# the production dependencies only, and Node itself (bin/node, the Node 24 that npm ci installed
# for the project from the registry's `node` package), so the folder runs on its own Node whatever
# the machine has. The Dockerfile's runtime stage is this folder, and the process tests start the
# server and its health check from it (docs/operations.md, "Container").
#
# The new runtime is built beside the folder and then takes its place whole, so staging twice
# gives the same folder and nothing of an older release stays in it. The folder may be absent,
# empty, a runtime this script made (it has the .trading-academy-runtime mark), or one that an
# earlier release of this script made (those wrote no mark and no bin/node). Anything else is
# refused, and so is a runtime holding anything this script does not lay out (such as a `data`
# folder of the embedded database): replacing the folder would delete it. Any failure exits
# non-zero and leaves the folder as it was.
# Usage: scripts/deploy/stage-runtime.sh <folder>   (after npm run build)
set -eu
target=${1:?usage: stage-runtime.sh <folder>}
mark=.trading-academy-runtime
# Everything the script lays out, one name a line.
laid_out='.trading-academy-runtime
bin
dist
drizzle
node_modules
package-lock.json
package.json'
cd "$(dirname "$0")/../.."
project=$(pwd)
node_binary=node_modules/node/bin/node
if [ ! -f dist/node/src/server/main.js ] || [ ! -f dist/web/index.html ]; then
  echo "Nothing built yet: run npm run build first." >&2
  exit 1
fi
if [ ! -x "$node_binary" ]; then
  echo "$node_binary is missing: npm ci installs it (after npm ci --ignore-scripts, run npm rebuild node)." >&2
  exit 1
fi

# An earlier release's runtime (it has no mark): this project's package.json and built server.
earlier_release() {
  grep -q '"name": "trading-academy"' "$1/package.json" 2>/dev/null && [ -f "$1/dist/node/src/server/main.js" ]
}
if [ -e "$target" ]; then
  if [ ! -d "$target" ]; then
    echo "$target is not a folder: give a new or empty folder." >&2
    exit 1
  fi
  if [ -n "$(ls -A "$target")" ]; then
    if [ ! -f "$target/$mark" ] && ! earlier_release "$target"; then
      echo "$target is not a runtime this script made (no $mark in it): give a new or empty folder." >&2
      exit 1
    fi
    others=$(ls -A "$target" | grep -vxF "$laid_out" | tr '\n' ' ' || true)
    if [ -n "$others" ]; then
      echo "$target holds what this script does not lay out (${others% }): staging would delete it, so move it out first." >&2
      exit 1
    fi
  fi
fi

parent=$(dirname "$target")
mkdir -p "$parent"
staging=$(mktemp -d "$parent/.$(basename "$target").staging.XXXXXX")
trap 'rm -rf "$staging"' EXIT

mkdir -p "$staging/dist/node" "$staging/bin"
cp package.json package-lock.json "$staging/"
# The server alone: the development entry and its stand-ins (dist/node/dev) stay behind, and test
# helpers are never built (tsconfig.server.json).
cp -R dist/node/src "$staging/dist/node/src"
find "$staging/dist/node" -name '*.map' -delete
cp -R dist/web "$staging/dist/web"
cp -R drizzle "$staging/drizzle"
# Optional here means optional peers of the auth library (its test tools): not for production.
(cd "$staging" && npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund --prefer-offline)
# Node's binary alone (its headers are for building native addons, which production never does).
cp "$node_binary" "$staging/bin/node"
chmod 755 "$staging/bin/node"
# The mark, written by the staged Node: a Node that cannot run on this machine fails here.
"$staging/bin/node" -e 'console.log(require(process.argv[1]).version)' "$project/package.json" > "$staging/$mark"
chmod 755 "$staging"

# The switch: the old folder steps aside and the new one is renamed into its place, then the old
# one goes. A server already running keeps the files it opened; restart it to run the new release.
if [ -e "$target" ]; then
  previous="$staging.previous"
  mv "$target" "$previous"
  mv "$staging" "$target"
  rm -rf "$previous"
else
  mv "$staging" "$target"
fi
trap - EXIT
