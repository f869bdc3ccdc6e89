// Boots the whole app on a fresh database for API tests (app.inject; with `listen`, also on a
// real port, for the integrations the app reaches over HTTP, like the Paystack simulator).
import { randomBytes } from "node:crypto";
import type { FastifyInstance, InjectOptions, LightMyRequestCallback } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { registerDevelopmentTools } from "../../../dev/development.ts";
import { buildApp, type AppOptions, type AppServices } from "../app.ts";
import type { Database } from "../db/client.ts";
import { seedDatabase } from "../db/seed.ts";
import { readEnv } from "../env.ts";
import { createTestDatabase } from "./test-database.ts";
import { freePort } from "./child-process-env.ts";
import { lightPasswordHashing } from "./light-scrypt.ts";

export type TestApp = {
  app: FastifyInstance;
  /** The services the app's features were built from: its job runner, scheduler, caches, env. */
  services: AppServices;
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
  // Tests write the database behind the app's back; the cache has tests of its own that turn it on.
  const env = readEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    APP_URL: "http://localhost:3000",
    SIGNED_IN_CACHE: "off",
    ...listening,
    ...options.env,
  });
  const { logDestination, onRoute } = options;
  const { app, services } = await buildApp({
    env,
    database,
    serveWeb: false,
    logger: logDestination !== undefined,
    logDestination,
    onRoute,
    developmentTools: registerDevelopmentTools,
    passwordHashing: lightPasswordHashing(),
  });
  sendLikeTheBrowserApp(app, env.appUrl);
  await app.ready();
  if (port !== null) await app.listen({ port, host: "127.0.0.1" });
  return {
    app,
    services,
    database,
    baseUrl,
    async close() {
      await app.close();
      if (!shared) await database.close();
    },
  };
}

/**
 * A second app on `t`'s database with the operator channel open to `token`, as a server holding
 * the embedded database runs it for the CLI. Its requests are sent as the CLI sends them (no
 * Origin); close it before `t`.
 */
export async function createOperatorChannelApp(t: TestApp, token: string): Promise<FastifyInstance> {
  const { app } = await buildApp({
    env: readEnv({ NODE_ENV: "test", LOG_LEVEL: "silent" }),
    database: t.database,
    serveWeb: false,
    logger: false,
    operatorToken: token,
  });
  return app;
}

/**
 * For a describe block: a fresh, unseeded database and the operator channel's app on it, started
 * before its tests and closed after them, with the channel's token.
 */
export function useOperatorChannelApp() {
  const token = randomBytes(32).toString("hex");
  let t: TestApp | undefined;
  let channel: FastifyInstance | undefined;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    channel = await createOperatorChannelApp(t, token);
  });
  afterAll(async () => {
    await channel?.close();
    await t?.close();
  });
  return {
    token,
    app(): FastifyInstance {
      if (!channel) throw new Error("the operator channel's app starts before the tests: use it inside one");
      return channel;
    },
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The request with the site's own Origin, when it changes something and names no Origin or Referer. */
function withSiteOrigin(options: InjectOptions, siteOrigin: string): InjectOptions {
  const headers = options.headers ?? {};
  const named = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const safe = SAFE_METHODS.has((options.method ?? "GET").toUpperCase());
  if (safe || named.has("origin") || named.has("referer")) {
    // `origin: undefined` is how a test sends a request without one.
    return { ...options, headers: Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) };
  }
  return { ...options, headers: { ...headers, origin: siteOrigin } };
}

/**
 * `app.inject` sends what the browser app sends: its own Origin on every state-changing request
 * (the app refuses one without it, src/server/plugins/same-origin.ts). A request that names an
 * Origin or a Referer is sent as it is; `headers: { origin: undefined }` sends none at all.
 */
function sendLikeTheBrowserApp(app: FastifyInstance, appUrl: string) {
  const siteOrigin = new URL(appUrl).origin;
  const inject = app.inject.bind(app);
  function injectFromTheSite(options?: InjectOptions | string, callback?: LightMyRequestCallback) {
    if (options === undefined) return inject();
    const sent = typeof options === "string" ? options : withSiteOrigin(options, siteOrigin);
    return callback ? inject(sent, callback) : inject(sent);
  }
  app.inject = injectFromTheSite as FastifyInstance["inject"];
}
