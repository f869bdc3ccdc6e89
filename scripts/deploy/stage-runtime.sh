#!/bin/sh
# Lays out what production runs in a folder: the built server and browser app, the migrations,
# and the production dependencies only. The Dockerfile's runtime stage is this folder, and the
# process tests start the server and its health check from it (docs/operations.md, Container).
# Usage: scripts/deploy/stage-runtime.sh <empty folder>   (after npm run build)
set -eu
target=${1:?usage: stage-runtime.sh <folder>}
cd "$(dirname "$0")/../.."
if [ ! -f dist/node/src/server/main.js ] || [ ! -f dist/web/index.html ]; then
  echo "Nothing built yet: run npm run build first." >&2
  exit 1
fi
mkdir -p "$target/dist/node"
cp package.json package-lock.json "$target/"
# The server alone: the development entry and its stand-ins (dist/node/dev) stay behind, and test
# helpers are never built (tsconfig.server.json).
cp -R dist/node/src "$target/dist/node/src"
find "$target/dist/node" -name '*.map' -delete
cp -R dist/web "$target/dist/web"
cp -R drizzle "$target/drizzle"
cd "$target"
# Optional here means optional peers of the auth library (its test tools): not for production.
npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund --prefer-offline
