// Reads the environment, opens, waits for and migrates the database, seeds an empty one, and
// listens; on SIGTERM or SIGINT, stops within 10 s (docs/operations.md, Starting and stopping).
// Two entries call it: main.ts in production, dev/main.ts with the development tools.
import type { FastifyInstance } from "fastify";
import { buildApp, type DevelopmentTools } from "./app.ts";
import { openDatabase, waitForDatabase, DatabaseUnreachableError, type Database } from "./db/client.ts";
import { seedDatabase } from "./db/seed.ts";
import { EnvError, missingServiceWarnings, readEnv } from "./env.ts";
import { DataDirInUseError } from "./db/pglite-lock.ts";
import { MigrationLockError } from "./db/migrator.ts";
import { newOperatorToken, openOperatorChannel } from "./cli/operator-channel.ts";
import { unsupportedNodeProblem } from "./runtime.ts";

// Supervisors wait about 10 s between SIGTERM and SIGKILL: finish well inside that.
const SHUTDOWN_DEADLINE_MS = 9_000;

let database: Database | null = null;
let app: FastifyInstance | null = null;
const onShutdown: (() => void)[] = [];
let closing = false;

async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app?.log.info({ signal }, "shutting down");
  setTimeout(() => {
    console.error(`Shutdown did not finish within ${SHUTDOWN_DEADLINE_MS / 1000} s: exiting.`);
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS).unref();
  for (const stop of onShutdown) stop();
  // Stops accepting connections, answers the requests in flight, then stops the job runner.
  await app?.close();
  await database?.close();
  process.exit(0);
}
async function main(developmentTools: DevelopmentTools | undefined) {
  const env = readEnv();
  // Each entry runs one mode, so that production never loads what only development needs.
  if (env.isProduction === Boolean(developmentTools)) throw new EnvError([ENTRY_PROBLEM[env.isProduction ? "production" : "development"]]);
  database = await openDatabase(env.database);

  // The embedded database is single-process: operator commands come through this server.
  const dataDir = env.database.kind === "pglite" ? env.database.dataDir : null;
  const operatorToken = dataDir ? newOperatorToken() : undefined;
  const built = await buildApp({ env, database, operatorToken, developmentTools });
  app = built.app;
  for (const warning of missingServiceWarnings(env)) app.log.warn(warning);

  await waitForDatabase(database, app.log);
  await database.migrate();
  await seedDatabase(database.db);
  if (closing) return;

  built.services.jobs.start();
  // Expiry and the other schedules, once per period across instances; app.close() stops them.
  built.services.scheduler.start();

  await app.listen({ port: env.port, host: env.host });
  const address = app.server.address();
  if (dataDir && operatorToken && typeof address === "object" && address) {
    onShutdown.push(openOperatorChannel(dataDir, { port: address.port, token: operatorToken }));
  }
}

const ENTRY_PROBLEM = {
  production: "NODE_ENV: production runs dist/node/src/server/main.js, not the development entry",
  development: "NODE_ENV: this entry runs production only; set NODE_ENV=production, or run development with npm start",
};

/** Starts the server; the development entry passes its tools, production passes none. */
export function startServer(options: { developmentTools?: DevelopmentTools } = {}): void {
  const nodeProblem = unsupportedNodeProblem();
  if (nodeProblem) {
    console.error(nodeProblem);
    process.exit(1);
  }
  // Everything the server writes (the embedded database, the operator channel) is its user's alone.
  process.umask(0o077);
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  void main(options.developmentTools).catch(fail);
}

async function fail(error: unknown) {
  if (
    error instanceof EnvError ||
    error instanceof DataDirInUseError ||
    error instanceof DatabaseUnreachableError ||
    error instanceof MigrationLockError
  ) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  await app?.close().catch(() => {});
  await database?.close().catch(() => {});
  process.exit(1);
}
