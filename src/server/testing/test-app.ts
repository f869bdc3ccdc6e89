// Boots the whole app on a fresh database for API tests (app.inject; with `listen`, also on a
// real port, for the integrations the app reaches over HTTP, like the Paystack simulator).
import type { FastifyInstance } from "fastify";
import { registerDevelopmentTools } from "../../../dev/development.ts";
import { buildApp, type AppOptions } from "../app.ts";
import type { Database } from "../db/client.ts";
import { seedDatabase } from "../db/seed.ts";
import { readEnv } from "../env.ts";
import { createTestDatabase } from "./test-database.ts";
import { freePort } from "./child-process-env.ts";

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  /** Where the app listens (`http://127.0.0.1:<port>`, also its APP_URL), or null without `listen`. */
  baseUrl: string | null;
  close(): Promise<void>;
};

export type TestAppOptions = {
  env?: Record<string, string>;
  seed?: boolean;
  /**
   * Listen on a free local port, with APP_URL pointing at it: the app then reaches its own
   * Paystack simulator and exchange-rate stand-in, and the simulator its webhook, over HTTP.
   */
  listen?: boolean;
  /** Run on this database (another test app's) instead of a fresh one; it is neither seeded nor closed here. */
  database?: Database;
  /** Sees every route as the app registers it. */
  onRoute?: AppOptions["onRoute"];
  /** Log to this instead of not at all (set LOG_LEVEL in `env` too: tests default to silent). */
  logDestination?: AppOptions["logDestination"];
};

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const shared = options.database;
  const database = shared ?? (await createTestDatabase());
  if (!shared && (options.seed ?? true)) await seedDatabase(database.db);
  const port = options.listen ? await freePort() : null;
  const baseUrl = port === null ? null : `http://127.0.0.1:${port}`;
  const listening = port === null ? {} : { PORT: String(port), APP_URL: `http://127.0.0.1:${port}` };
  // APP_URL is given so that a test may switch to production, which requires it.
  const env = readEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", APP_URL: "http://localhost:3000", ...listening, ...options.env });
  const { logDestination, onRoute } = options;
  const app = await buildApp({
    env,
    database,
    serveWeb: false,
    logger: logDestination !== undefined,
    logDestination,
    onRoute,
    developmentTools: registerDevelopmentTools,
  });
  await app.ready();
  if (port !== null) await app.listen({ port, host: "127.0.0.1" });
  return {
    app,
    database,
    baseUrl,
    async close() {
      await app.close();
      if (!shared) await database.close();
    },
  };
}
