#!/bin/sh
# Lays out what production runs in a folder: the built server and browser app, the migrations,
# and the production dependencies only. The Dockerfile's runtime stage is this folder, and the
# process tests start the server and its health check from it (docs/operations.md, "Container").
#
# The new runtime is built beside the folder and then takes its place whole, so staging twice
# gives the same folder and nothing of an older release stays in it. A folder this script did not
# make (it has no .trading-academy-runtime mark) is refused, unless it is empty. Any failure
# exits non-zero and leaves the folder as it was.
# Usage: scripts/deploy/stage-runtime.sh <folder>   (after npm run build)
set -eu
target=${1:?usage: stage-runtime.sh <folder>}
mark=.trading-academy-runtime
cd "$(dirname "$0")/../.."
project=$(pwd)
if [ ! -f dist/node/src/server/main.js ] || [ ! -f dist/web/index.html ]; then
  echo "Nothing built yet: run npm run build first." >&2
  exit 1
fi
if [ -e "$target" ] && [ ! -f "$target/$mark" ] && [ -n "$(ls -A "$target" 2>/dev/null || echo not-a-folder)" ]; then
  echo "$target is not a runtime this script made (no $mark in it): give a new or empty folder." >&2
  exit 1
fi

parent=$(dirname "$target")
mkdir -p "$parent"
staging=$(mktemp -d "$parent/.$(basename "$target").staging.XXXXXX")
trap 'rm -rf "$staging"' EXIT

mkdir -p "$staging/dist/node"
cp package.json package-lock.json "$staging/"
# The server alone: the development entry and its stand-ins (dist/node/dev) stay behind, and test
# helpers are never built (tsconfig.server.json).
cp -R dist/node/src "$staging/dist/node/src"
find "$staging/dist/node" -name '*.map' -delete
cp -R dist/web "$staging/dist/web"
cp -R drizzle "$staging/drizzle"
# Optional here means optional peers of the auth library (its test tools): not for production.
(cd "$staging" && npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund --prefer-offline)
node -e 'console.log(require(process.argv[1]).version)' "$project/package.json" > "$staging/$mark"
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
