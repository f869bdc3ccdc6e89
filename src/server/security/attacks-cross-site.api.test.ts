// Attack suite (docs/product.md, "Roles"): a page on another origin (a sibling port or subdomain of
// the site) makes a signed-in browser send a POST without a body, which no content-type rule
// stops; and the operator channel, which must check its token before it reads anything else.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announcementUnsubscribes, modules, users, waitlist } from "../db/schema.ts";
import { unsubscribeToken } from "../features/announcements/announcement-email.ts";
import { ONE_CLICK_UNSUBSCRIBE_PATH } from "../features/announcements/announcements.routes.ts";
import { placeOnWaitlist } from "../testing/waitlist.ts";
import { CROSS_SITE_MESSAGE } from "../plugins/same-origin.ts";
import { createTestUsers, ipAllocator, PASSWORD, type TestUser } from "../testing/accounts.ts";
import { concretePath, expectNothingChanged, expectRefused, routeCollector, type AppRoute } from "../testing/attack-kit.ts";
import { paymentRow, postWebhook, useBillingApp, simulatePayment } from "../testing/billing.ts";
import { createTestApp, useOperatorChannelApp, type TestApp } from "../testing/test-app.ts";
import { oneCharacterOff } from "../testing/secrets.ts";

const nextIp = ipAllocator(67);

/** Routes with an authentication of their own, left to it (app.ts): tried in "the exceptions" below. */
const EXEMPT = [ONE_CLICK_UNSUBSCRIBE_PATH];

function expectCrossSiteRefusal(response: LightMyRequestResponse, what: string) {
  expectRefused(response, 403, what);
  expect(response.json(), what).toEqual({
    error: { code: "CROSS_SITE_REQUEST", message: CROSS_SITE_MESSAGE, requestId: response.headers["x-request-id"] },
  });
}

/**
 * Two sites: the default test one on a port of localhost, and one on a domain, with a sibling
 * origin of each kind (another port, another subdomain, the parent domain, another scheme).
 */
const SITES = [
  {
    appUrl: "http://localhost:3000",
    siblings: ["http://localhost:3001", "http://localhost", "http://evil.localhost:3000", "https://localhost:3000", "http://127.0.0.1:3000"],
  },
  {
    appUrl: "https://academy.example",
    siblings: [
      "https://blog.academy.example",
      "https://academy.example:8443",
      "https://evil.academy.example",
      "https://example",
      "http://academy.example",
      "https://academy.example.evil.test",
    ],
  },
];

describe.each(SITES)("cross-site requests to $appUrl", ({ appUrl, siblings }) => {
  const collected = routeCollector();
  let t: TestApp;
  let user: (key: "admin" | "learner" | "sameSite") => TestUser;
  let firstModule: string;
  const waitlisted = `waitlisted-${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: appUrl }, onRoute: collected.onRoute });
    user = await createTestUsers(t, nextIp, { admin: { plan: "admin" }, learner: {}, sameSite: {} });
    const [first] = await t.database.db.select({ id: modules.id }).from(modules).where(eq(modules.programId, "beginner")).orderBy(modules.position).limit(1);
    if (!first) throw new Error("no beginner module");
    firstModule = first.id;
    // A learner who paid for a place in the next cohort, waiting to be admitted.
    await t.database.db.insert(users).values({ id: waitlisted, email: `${waitlisted}@waitlist.test`, waitlistPaid: true, intermediatePaid: true });
    await placeOnWaitlist(t.database.db, [{ userId: waitlisted, plan: "intermediate" }]);
  });
  afterAll(() => t.close());

  /** The two body-less requests of the review: admit from the waitlist, mark a video watched. */
  const admit = (headers: Record<string, string | undefined>): InjectOptions => ({
    method: "POST",
    url: `/api/admin/users/${waitlisted}/admit`,
    headers: { cookie: user("admin").cookie, ...headers },
    remoteAddress: nextIp(),
  });
  const markWatched = (learner: TestUser, headers: Record<string, string | undefined>): InjectOptions => ({
    method: "POST",
    url: `/api/programs/beginner/modules/${firstModule}/watched`,
    headers: { cookie: learner.cookie, ...headers },
    remoteAddress: nextIp(),
  });

  it("a POST without a body from a sibling origin is refused 403 and changes nothing", async () => {
    await expectNothingChanged(t, async () => {
      for (const origin of siblings) {
        // What a browser sends from a sibling: its Origin, and Sec-Fetch-Site same-site or cross-site.
        for (const fetchSite of [undefined, "same-site", "cross-site"]) {
          const headers = { origin, "sec-fetch-site": fetchSite };
          expectCrossSiteRefusal(await t.app.inject(admit(headers)), `admit from ${origin} ${fetchSite}`);
          expectCrossSiteRefusal(await t.app.inject(markWatched(user("learner"), headers)), `watched from ${origin} ${fetchSite}`);
        }
      }
    });
  });

  it("a POST with no Origin at all (or Origin null) is refused, whatever else it says", async () => {
    await expectNothingChanged(t, async () => {
      for (const headers of [
        { origin: undefined },
        { origin: undefined, referer: `${appUrl}/admin` },
        { origin: undefined, "sec-fetch-site": "none" },
        { origin: undefined, "sec-fetch-site": "same-site" },
        { origin: "null" },
        { origin: "null", referer: `${appUrl}/admin` },
        { origin: `${appUrl}/` },
        { origin: appUrl.toUpperCase() },
        { origin: `${appUrl}, https://evil.test` },
      ]) {
        const what = JSON.stringify(headers);
        expectCrossSiteRefusal(await t.app.inject(admit(headers)), `admit ${what}`);
        expectCrossSiteRefusal(await t.app.inject(markWatched(user("learner"), headers)), `watched ${what}`);
      }
    });
  });

  it("the site's own Origin passes, and so does Sec-Fetch-Site: same-origin", async () => {
    const learner = user("sameSite");
    const viaOrigin = await t.app.inject(markWatched(learner, { origin: appUrl }));
    expect(viaOrigin.statusCode, viaOrigin.body).toBe(200);
    expect(viaOrigin.json()).toMatchObject({ watched: [firstModule] });
    // A browser always sends Sec-Fetch-Site; a proxy or the Vite port may leave the Origin unlike APP_URL's.
    const viaFetchSite = await t.app.inject(markWatched(learner, { origin: undefined, "sec-fetch-site": "same-origin" }));
    expect(viaFetchSite.statusCode, viaFetchSite.body).toBe(200);

    const admitted = await t.app.inject(admit({ origin: appUrl, "sec-fetch-site": "same-origin" }));
    expect(admitted.statusCode, admitted.body).toBe(200);
    const [place] = await t.database.db.select().from(waitlist).where(eq(waitlist.userId, waitlisted));
    expect(place?.admitted).toBe(true);
  });

  it("every state-changing route of the app, the auth library's included, refuses a cross-site request", async () => {
    // The development stand-ins (/dev/fakes) are tried below: some answer their own key check first.
    const changing = collected.routes.filter(
      (route: AppRoute) =>
        !["GET", "HEAD", "OPTIONS"].includes(route.method) &&
        ![...EXEMPT, "/api/paystack/webhook"].includes(route.url) &&
        !route.url.startsWith("/dev/"),
    );
    expect(changing.length).toBeGreaterThan(15);
    expect(changing.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        "POST /api/auth/*",
        "POST /api/admin/users/:id/admit",
        "POST /api/programs/:track/modules/:moduleId/watched",
        "DELETE /api/admin/programs/:id",
      ]),
    );
    await expectNothingChanged(t, async () => {
      for (const route of changing) {
        const url = concretePath(route.url.replace("*", "sign-out"), { id: user("learner").id, track: "beginner", moduleId: firstModule });
        const what = `${route.method} ${url}`;
        const response = await t.app.inject({
          method: route.method,
          url,
          headers: { cookie: user("admin").cookie, origin: siblings[0], "content-type": "application/json" },
          payload: "{}",
          remoteAddress: nextIp(),
        });
        expectCrossSiteRefusal(response, what);
      }
    });
  });

  it("the auth library's flows: a sibling cannot sign in or out, the site can; its GET callbacks are not checked", async () => {
    const signIn = (origin: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: { origin },
        payload: { email: user("learner").email, password: PASSWORD },
        remoteAddress: nextIp(),
      });
    expectCrossSiteRefusal(await signIn(siblings[0] ?? ""), "sign-in from a sibling");
    expect((await signIn(appUrl)).statusCode).toBe(200);
    const signOut = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie: user("admin").cookie, origin: siblings[1] },
      payload: {},
    });
    expectCrossSiteRefusal(signOut, "sign-out from a sibling");
    // An OAuth provider sends the browser back with a GET, from its own site.
    const callback = await t.app.inject({
      url: "/api/auth/callback/google?code=x&state=y",
      headers: { referer: "https://accounts.google.com/", "sec-fetch-site": "cross-site" },
    });
    expect(callback.statusCode).toBeLessThan(500);
    expect(callback.body).not.toContain("CROSS_SITE_REQUEST");
  });
});

describe("the exceptions keep their own authentication", () => {
  const billing = useBillingApp(nextIp, { buyer: {} });

  it("Paystack's webhook, sent by the simulator server to server (no Origin), credits the payment", async () => {
    const { t } = billing;
    const reference = await billing.buy(billing.user("buyer"));
    // The test control and the webhook are server-to-server calls over HTTP: fetch sends no Origin.
    const settled = await simulatePayment(billing.t, reference, { outcome: "success" });
    expect(settled.webhook).toEqual({ delivered: true, statusCode: 200 });
    expect((await paymentRow(t, reference))?.status).toBe("success");
  });

  it("the webhook is answered on its signature, whatever the Origin", async () => {
    const unsigned = await postWebhook(billing.t, { event: "charge.success", data: {} }, { signature: "0".repeat(128) });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().error.code).toBe("INVALID_SIGNATURE");
    const fromElsewhere = await billing.t.app.inject({
      method: "POST",
      url: "/api/paystack/webhook",
      headers: { origin: "https://evil.test", "content-type": "application/json" },
      payload: "{}",
    });
    expect(fromElsewhere.json().error.code).toBe("INVALID_SIGNATURE");
  });

  it("a mail program's one-click unsubscribe is answered on its signed token, whatever the Origin", async () => {
    const { t } = billing;
    const learner = billing.user("buyer");
    const post = (token: string) =>
      t.app.inject({
        method: "POST",
        url: `${ONE_CLICK_UNSUBSCRIBE_PATH}?${new URLSearchParams({ token })}`,
        headers: { origin: "https://evil.test", "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
      });
    const forged = await post(`${learner.id}.${"A".repeat(43)}`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe("INVALID_TOKEN");
    expect(await t.database.db.select().from(announcementUnsubscribes)).toEqual([]);
    expect((await post(unsubscribeToken(t.services.env.authSecret, learner.id))).statusCode).toBe(200);
    expect(await t.database.db.select().from(announcementUnsubscribes)).toEqual([expect.objectContaining({ userId: learner.id })]);
  });

  it("a development stand-in takes a server's call (no Origin) but not a browser's from another site", async () => {
    const pay = (headers: Record<string, string | undefined>) =>
      billing.t.app.inject({ method: "POST", url: "/dev/fakes/paystack/checkout/unknown-code/pay", headers, payload: {} });
    expectCrossSiteRefusal(await pay({ origin: "http://localhost:3001" }), "checkout from a sibling");
    expectCrossSiteRefusal(await pay({ origin: undefined, "sec-fetch-site": "cross-site" }), "checkout, cross-site without Origin");
    expect((await pay({ origin: undefined })).statusCode).not.toBe(403);
    expect((await pay({ origin: billing.t.services.env.appUrl })).statusCode).not.toBe(403);
  });

  describe("the operator channel", () => {
    const channel = useOperatorChannelApp();
    const { token } = channel;

    const command = (authorization: string | undefined, payload: string, contentType = "application/json", origin?: string) =>
      channel.app().inject({
        method: "POST",
        url: "/api/operator/commands",
        headers: { "content-type": contentType, ...(authorization ? { authorization } : {}), ...(origin ? { origin } : {}) },
        payload,
      });

    it("with its token, a command runs from the CLI (no Origin), and the token, not the Origin, decides", async () => {
      const migrate = await command(`Bearer ${token}`, JSON.stringify({ name: "migrate" }));
      expect(migrate.statusCode, migrate.body).toBe(200);
      expect(migrate.json()).toEqual({ message: "Migrations applied." });
      expect((await command(`Bearer ${token}`, JSON.stringify({ name: "migrate" }), "application/json", "https://evil.test")).statusCode).toBe(200);
    });

    it("a wrong token with a wrong body is a 401 that says nothing of the command's shape", async () => {
      const wrongTokens = [undefined, `Bearer ${oneCharacterOff(token)}`, `Bearer ${"0".repeat(64)}`, `Basic ${token}`];
      const wrongBodies: [string, string][] = [
        [JSON.stringify({ name: "drop-everything" }), "application/json"],
        [JSON.stringify({ name: "set-plan", email: "x", plan: "owner" }), "application/json"],
        [JSON.stringify({}), "application/json"],
        [JSON.stringify([1, 2]), "application/json"],
        ["{not json", "application/json"],
        ["", "application/json"],
        ["name=migrate", "application/x-www-form-urlencoded"],
        ["x".repeat(100_000), "application/json"],
      ];
      for (const authorization of wrongTokens) {
        for (const [payload, contentType] of wrongBodies) {
          const response = await command(authorization, payload, contentType);
          const what = `${String(authorization).slice(0, 12)} ${contentType} ${payload.slice(0, 30)}`;
          expectRefused(response, 401, what);
          expect(response.json(), what).toEqual({
            error: { code: "UNAUTHENTICATED", message: "Operator token required.", requestId: response.headers["x-request-id"] },
          });
          expect(response.body, what).not.toMatch(/migrate|set-plan|seed|prune|discriminator|expected|invalid|name|plan|email/i);
        }
      }
    });

    it("the token's holder is told what is wrong with a command", async () => {
      const response = await command(`Bearer ${token}`, JSON.stringify({ name: "drop-everything" }));
      expectRefused(response, 400, "unknown command");
      expect(response.json().error.code).toBe("VALIDATION");
    });
  });
});
