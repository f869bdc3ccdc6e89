// Every endpoint of the table (src/shared/contracts/endpoints.ts) is a route the server serves,
// with the table's method and path: a declaration the server forgot is found here, not by a
// browser that calls it. The auth library's routes (/api/auth/...) are not registered one by one:
// the library serves them behind one catch-all route (src/server/auth/auth.routes.ts), which answers
// a path the library does not have with the no-route 404, so each is called instead.
import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../shared/contracts/endpoints.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const declared = Object.values(ENDPOINTS).flatMap((feature) => Object.values(feature));
const servedByLibrary = (path: string) => path.startsWith("/api/auth/");

describe("the endpoint table", () => {
  const registered = new Set<string>();
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      seed: false,
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) registered.add(`${method} ${route.url}`);
      },
    });
  });
  afterAll(() => t.close());

  it.each(declared.filter(({ path }) => !servedByLibrary(path)).map(({ method, path }) => [`${method} ${path}`]))(
    "%s is registered by the server",
    (endpoint) => {
      expect(registered).toContain(endpoint);
    },
  );

  it.each(declared.filter(({ path }) => servedByLibrary(path)).map(({ method, path }) => [method, path]))(
    "%s %s is served by the auth library",
    async (method, path) => {
      // Any value for a parameter; a body the library refuses, so that nothing is acted on.
      const url = path.replace(/:\w+/g, "x");
      const answer = await t.app.inject({ method, url, ...(method !== "GET" && { payload: {} }) });
      const message = answer.statusCode === 404 ? answer.json<{ error?: { message?: string } }>().error?.message : undefined;
      expect(message).not.toBe(`No route for ${method} ${url}.`);
    },
  );
});
