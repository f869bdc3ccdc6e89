// The container's HEALTHCHECK: exits 0 when this instance is ready (GET /api/health answers 200
// within 4 s), 1 otherwise (docs/operations.md, Container). Run as `node dist/node/src/server/healthcheck.js`.
import { readEnv } from "./env.ts";

const { port } = readEnv();
try {
  const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4_000) });
  if (!response.ok) console.error(`GET /api/health answered ${response.status}: ${await response.text()}`);
  process.exitCode = response.ok ? 0 : 1;
} catch (error) {
  console.error(`GET /api/health failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
