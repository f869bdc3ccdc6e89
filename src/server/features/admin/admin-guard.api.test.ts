// Every /api/admin/* route, read from the router itself, refuses a visitor (401) and a learner
// (403): a route added later is checked without anyone remembering to list it here.
import type { HTTPMethods, RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { ADMIN_PREFIX } from "../../auth/session.ts";

const nextIp = ipAllocator(50);

type AdminRoute = { method: HTTPMethods; url: string };

function adminRoutesOf(route: RouteOptions): AdminRoute[] {
  if (!route.url.startsWith(ADMIN_PREFIX)) return [];
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  // Fastify adds HEAD for every GET by itself; it runs the same handler and hooks.
  return methods.map((method) => ({ method, url: route.url }));
}

/** A concrete path: every `:param` gets a plausible value. */
function concrete(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_match, name: string) => (name === "id" ? "beginner" : `sample-${name}`));
}

describe("admin routes are for administrators only", () => {
  const routes: AdminRoute[] = [];
  let t: TestApp;
  let user: (key: "learner" | "paidLearner" | "admin") => TestUser;

  beforeAll(async () => {
    t = await createTestApp({ onRoute: (route) => routes.push(...adminRoutesOf(route)) });
    user = await createTestUsers(t, nextIp, {
      learner: {},
      paidLearner: { plan: "advanced" },
      admin: { plan: "admin" },
    });
  });
  afterAll(() => t.close());

  it("finds the admin routes in the router", () => {
    const listed = routes.map((r) => `${r.method} ${r.url}`);
    // A sample of what must be there, so an empty or renamed router cannot pass the checks below.
    expect(listed).toEqual(
      expect.arrayContaining([
        "GET /api/admin/summary",
        "GET /api/admin/programs",
        "POST /api/admin/programs",
        "PUT /api/admin/programs/:id",
        "DELETE /api/admin/programs/:id",
        "GET /api/admin/users",
        "PUT /api/admin/users/:id/plan",
        "GET /api/admin/users.csv",
        "GET /api/admin/payments",
        "POST /api/admin/payments/:id/refund",
      ]),
    );
  });

  function call(route: AdminRoute, cookie?: string) {
    const hasBody = !["GET", "HEAD", "DELETE"].includes(route.method);
    return t.app.inject({
      method: route.method,
      url: concrete(route.url),
      headers: cookie ? { cookie } : {},
      ...(hasBody ? { payload: {} } : {}),
    });
  }

  it("answers 401 to every admin route without a session", async () => {
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const response = await call(route);
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      if (route.method !== "HEAD") expect(response.json().error.code).toBe("UNAUTHENTICATED");
    }
  });

  it("answers 403 to every admin route for learners, paid or not", async () => {
    for (const key of ["learner", "paidLearner"] as const) {
      for (const route of routes) {
        const response = await call(route, user(key).cookie);
        expect(response.statusCode, `${key}: ${route.method} ${route.url}`).toBe(403);
        if (route.method !== "HEAD") expect(response.json().error).toEqual({ code: "FORBIDDEN", message: "Administrators only.", requestId: expect.any(String) });
      }
    }
  });

  it("lets an administrator in", async () => {
    const response = await t.app.inject({ url: "/api/admin/summary", headers: { cookie: user("admin").cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
  });
});
