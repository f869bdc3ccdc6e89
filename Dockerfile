# Trading Academy: the production image (docs/operations.md, Container).
# Build: docker build -t trading-academy .   Run: see compose.yaml and the README, Deploying.

# 1. Build the browser app and the server, then lay out what production runs (built code,
#    migrations, production dependencies only, and Node 24 as bin/node) with the same script the
#    tests use. Install scripts stay off but for the `node` package's, which installs that Node.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild node
COPY . .
RUN npm run build:production && scripts/deploy/stage-runtime.sh /app

# 2. The runtime: no compiler, no development stand-ins, not root. The server runs on the folder's
#    own Node (bin/node), as the README's systemd unit runs it.
FROM node:24-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/trading-academy \
 && chown node:node /var/lib/trading-academy \
 && chmod 700 /var/lib/trading-academy
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/var/lib/trading-academy
WORKDIR /app
COPY --from=build --chown=root:root /app /app
USER node
EXPOSE 3000
VOLUME ["/var/lib/trading-academy"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["/app/bin/node", "dist/node/src/server/healthcheck.js"]
# tini is PID 1: it passes SIGTERM to node, which stops within 10 s, and reaps any orphan.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["/app/bin/node", "dist/node/src/server/main.js"]
