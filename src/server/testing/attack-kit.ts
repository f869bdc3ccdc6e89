// Shared by the attack suite (issue 7): what the database holds before and after an attack, the
// one error shape every refusal must have, and the app's routes as the router knows them.
import type { HTTPMethods, LightMyRequestResponse, RouteOptions } from "fastify";
import { expect } from "vitest";
import {
  accounts,
  auditLog,
  cardAuthorizations,
  devMail,
  jobs,
  lessonPositions,
  modules,
  payments,
  programs,
  quizAttempts,
  quizzes,
  sessions,
  subscriptionReminders,
  userProgress,
  users,
  verifications,
  waitlist,
  contacts,
} from "../db/schema.ts";
import { mailDelivered } from "./accounts.ts";
import type { TestApp } from "./test-app.ts";

/**
 * Every table an attack could change. Left out on purpose: rate_limits and login_failures (the
 * limits themselves count the attempts) and config (the exchange-rate cache a price read refreshes).
 */
const WATCHED_TABLES = {
  users,
  sessions,
  accounts,
  verifications,
  devMail,
  programs,
  modules,
  quizzes,
  userProgress,
  quizAttempts,
  lessonPositions,
  contacts,
  payments,
  cardAuthorizations,
  waitlist,
  subscriptionReminders,
  auditLog,
  jobs,
};

export type DatabaseSnapshot = Record<string, string[]>;

/** Every row of every watched table, as JSON, in a stable order. */
export async function databaseSnapshot(t: TestApp): Promise<DatabaseSnapshot> {
  const snapshot: DatabaseSnapshot = {};
  for (const [name, table] of Object.entries(WATCHED_TABLES)) {
    const rows: unknown[] = await t.database.db.select().from(table);
    snapshot[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return snapshot;
}

/** Row counts per watched table: a short summary for failure messages. */
export function rowCounts(snapshot: DatabaseSnapshot): Record<string, number> {
  return Object.fromEntries(Object.entries(snapshot).map(([name, rows]) => [name, rows.length]));
}

/**
 * Runs `attack` and asserts that no watched row was added, changed or removed. Mail queued before
 * the attack (a reset link asked for just before) is delivered first: its delivery runs in the
 * background and would otherwise change the outbox's rows in the middle.
 */
export async function expectNothingChanged(t: TestApp, attack: () => Promise<void>) {
  await mailDelivered(t);
  const before = await databaseSnapshot(t);
  await attack();
  const after = await databaseSnapshot(t);
  expect(rowCounts(after)).toEqual(rowCounts(before));
  expect(after).toEqual(before);
}

/**
 * The one error shape (src/server/plugins/errors.ts): JSON
 * `{ error: { code, message, requestId } }` and nothing else, the request id the one in the
 * X-Request-Id header.
 */
export function expectErrorShape(response: LightMyRequestResponse, what = "") {
  expect(response.headers["content-type"], what).toMatch(/^application\/json/);
  const body: unknown = response.json();
  const requestId = response.headers["x-request-id"];
  expect(requestId, what).toEqual(expect.any(String));
  expect(body, what).toEqual({ error: { code: expect.any(String), message: expect.any(String), requestId } });
  expect(response.body, what).not.toMatch(/"stack"|\bat \S+ \(|\bat .+:\d+:\d+|node_modules|[A-Z]\w*Error\b/);
}

/** A refusal: a 4xx in the one error shape. */
export function expectRefused(response: LightMyRequestResponse, status?: number, what = "") {
  const label = `${what} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  if (status !== undefined) expect(response.statusCode, label).toBe(status);
  expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, label).toBeLessThan(500);
  expectErrorShape(response, label);
}

/** Every object key anywhere in a JSON value. */
export function allKeys(value: unknown): string[] {
  const keys: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (Array.isArray(next)) stack.push(...next);
    else if (next && typeof next === "object") {
      for (const [key, child] of Object.entries(next)) {
        keys.push(key);
        stack.push(child);
      }
    }
  }
  return keys;
}

export type AppRoute = { method: HTTPMethods; url: string; route: RouteOptions };

/** Collects the router's routes (one entry per method) through createTestApp({ onRoute }). */
export function routeCollector() {
  const routes: AppRoute[] = [];
  return {
    routes,
    onRoute(route: RouteOptions) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) routes.push({ method, url: route.url, route });
    },
  };
}

/** The keys of a Zod object schema (through unions, intersections, pipes, defaults and optionals); none for anything else. */
export function schemaFields(schema: unknown): string[] {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def) return [];
  if (def.type === "object" && def.shape && typeof def.shape === "object") return Object.keys(def.shape);
  if (def.type === "union" && Array.isArray(def.options)) return [...new Set(def.options.flatMap(schemaFields))];
  if (def.type === "intersection") return [...new Set([...schemaFields(def.left), ...schemaFields(def.right)])];
  if (def.type === "pipe") return schemaFields(def.in);
  if ("innerType" in def) return schemaFields(def.innerType);
  return [];
}

export type LibraryRoute = { method: HTTPMethods; url: string; bodyFields: string[]; queryFields: string[] };

/**
 * The auth library's own endpoints behind the `/api/auth/*` route, read from the library: a
 * method, a path (`:id`-style parameters left in) and the fields its schemas name.
 */
export function authLibraryRoutes(t: TestApp): LibraryRoute[] {
  const found: LibraryRoute[] = [];
  for (const endpoint of Object.values(t.services.auth.api)) {
    const { path, options } = endpoint as unknown as {
      path?: string;
      options?: { method?: HTTPMethods | HTTPMethods[]; body?: unknown; query?: unknown };
    };
    if (!path || !options?.method) continue;
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const bodyFields = schemaFields(options.body);
    const queryFields = schemaFields(options.query);
    for (const method of methods) found.push({ method, url: `/api/auth${path}`, bodyFields, queryFields });
  }
  return found;
}

/** A concrete path for a route: every `:param` gets a plausible value. */
export function concretePath(url: string, values: Record<string, string> = {}): string {
  return url.replace(/:([A-Za-z]+)/g, (_match, name: string) => values[name] ?? `sample-${name}`);
}
