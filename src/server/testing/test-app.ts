// Boots the whole app on a fresh database for API tests (app.inject, no network).
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import type { Database } from "../db/client.ts";
import { seedDatabase } from "../db/seed.ts";
import { readEnv } from "../env.ts";
import { createTestDatabase } from "./test-database.ts";

export type TestApp = { app: FastifyInstance; database: Database; close(): Promise<void> };

export async function createTestApp(
  options: { env?: Record<string, string>; seed?: boolean } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  if (options.seed ?? true) await seedDatabase(database.db);
  const env = readEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", ...options.env });
  const app = await buildApp({ env, database, serveWeb: false, logger: false });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
