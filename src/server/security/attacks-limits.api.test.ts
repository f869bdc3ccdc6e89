// Attack suite (docs/product.md, "Timings and limits"): a page on another site can make every
// browser behind one address send POSTs to our per-address limited routes, `text/plain` ones
// without any preflight. They are refused, and must not spend the address's allowance: a request
// counts only once it could do something (same origin, JSON, a body that passes validation).
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMIT_MESSAGES } from "../../shared/contracts/accounts.ts";
import { LIBRARY_LIMITS } from "../auth/auth-limits.ts";
import { ACCOUNT_ROUTE_LIMITS } from "../features/accounts/accounts.routes.ts";
import { createTestUsers, ipAllocator, limitAnswer, PASSWORD, registrationForm, type TestUser } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const nextIp = ipAllocator(71);

/** What the review sent: more requests than any of these limits allows. */
const ATTEMPTS = 30;

type Body = Record<string, unknown>;

type LimitedRoute = {
  url: string;
  max: number;
  /** The answer of a request beyond the limit. */
  refusal: unknown;
  /** Sent with a signed-in learner's cookie, as the account page sends it. */
  signedIn?: boolean;
  /** The `n`th body the route acts on, and the status it answers while the address is under its limit. */
  valid: (n: number) => Body;
  accepted: number;
  /** A body the route's validation refuses. */
  invalid: Body;
  /** The `n`th of many valid bodies that spend the allowance (by default the valid ones). */
  spend?: (n: number) => Body;
};

const fresh = (what: string, n: number) => `${what}-${n}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Registered and verified in beforeAll: taken addresses, refused by what they name, not by their shape. */
const TAKEN_KEY = "taken";
const TAKEN = `${TAKEN_KEY}@example.com`;

const ROUTES: LimitedRoute[] = [
  {
    url: "/api/accounts/forgot-password",
    max: ACCOUNT_ROUTE_LIMITS.forgotPassword.max,
    refusal: limitAnswer(LIMIT_MESSAGES.resetRequests),
    valid: () => ({ email: TAKEN }),
    accepted: 200,
    invalid: { email: "not-an-email" },
    // Each mail to one account counts against its own limit: unknown addresses are asked about instead.
    spend: (n) => ({ email: fresh("forgot", n) }),
  },
  {
    url: "/api/accounts/register",
    max: ACCOUNT_ROUTE_LIMITS.register.max,
    refusal: limitAnswer(LIMIT_MESSAGES.signUps),
    valid: (n) => registrationForm(fresh("register", n)),
    accepted: 201,
    invalid: registrationForm("not-an-email"),
    // Registering a verified address again: answered at once, with no account made.
    spend: () => registrationForm(TAKEN),
  },
  {
    url: "/api/contact",
    max: 5,
    // The form's own words for it (contact.api.test.ts).
    refusal: { error: { code: "FST_ERR_RATE_LIMIT_EXCEEDED", message: "Too many requests. Please try again later.", requestId: expect.any(String) } },
    valid: (n) => ({ name: "Kofi Boateng", email: fresh("contact", n), message: "When does the next cohort start?" }),
    accepted: 201,
    invalid: { name: "Kofi Boateng", email: "not-an-email", message: "When does the next cohort start?" },
  },
  {
    url: "/api/accounts/change-email",
    max: ACCOUNT_ROUTE_LIMITS.changeEmail.max,
    refusal: limitAnswer(LIMIT_MESSAGES.requests),
    signedIn: true,
    valid: (n) => ({ newEmail: fresh("change", n) }),
    accepted: 200,
    invalid: { newEmail: "not-an-email" },
    // Each new address is mailed, within the account's mail limit: a taken one is asked about instead.
    spend: () => ({ newEmail: TAKEN }),
  },
  {
    url: "/api/auth/change-email",
    max: LIBRARY_LIMITS["/change-email"].max,
    refusal: limitAnswer(LIMIT_MESSAGES.requests),
    signedIn: true,
    valid: (n) => ({ newEmail: fresh("library-change", n) }),
    accepted: 200,
    invalid: { newEmail: "not-an-email" },
    spend: () => ({ newEmail: TAKEN }),
  },
  {
    url: "/api/auth/sign-in/email",
    max: LIBRARY_LIMITS["/sign-in/email"].max,
    refusal: limitAnswer(LIMIT_MESSAGES.signIns),
    valid: () => ({ email: TAKEN, password: PASSWORD }),
    accepted: 200,
    invalid: { email: "not-an-email", password: PASSWORD },
    // Unknown accounts: no one's lockout is what stops them.
    spend: (n) => ({ email: fresh("guess", n), password: "a guess" }),
  },
  {
    url: "/api/auth/change-password",
    max: LIBRARY_LIMITS["/change-password"].max,
    refusal: limitAnswer(LIMIT_MESSAGES.requests),
    signedIn: true,
    valid: () => ({ currentPassword: PASSWORD, newPassword: PASSWORD }),
    accepted: 200,
    invalid: { currentPassword: PASSWORD, newPassword: "short" },
  },
  {
    url: "/api/auth/send-verification-email",
    max: LIBRARY_LIMITS["/send-verification-email"].max,
    refusal: limitAnswer(LIMIT_MESSAGES.verificationRequests),
    valid: (n) => ({ email: fresh("verify", n) }),
    accepted: 200,
    invalid: { email: "not-an-email" },
  },
  {
    url: "/api/auth/reset-password",
    max: LIBRARY_LIMITS["/reset-password"].max,
    refusal: limitAnswer(LIMIT_MESSAGES.resetAttempts),
    // A token tried is what this limit counts, right or wrong; each a token of its own, which is
    // counted on its own too (attacks-cross-site-gets.api.test.ts).
    valid: (n) => ({ token: `a-guessed-token-${n}`, newPassword: PASSWORD }),
    accepted: 400,
    invalid: { token: "a-guessed-token", newPassword: 12345678 },
  },
];

describe("per-address limits count only requests that could do something", () => {
  let t: TestApp;
  let learner: (key: string) => TestUser;
  const learnerKey = (route: LimitedRoute, test: string) => `${route.url.replace(/[^a-z]+/g, "-").slice(1)}${test}`;

  beforeAll(async () => {
    t = await createTestApp();
    // One learner per signed-in route and test: each valid email change mails within the account's limit.
    const keys = ROUTES.filter((route) => route.signedIn).flatMap((route) =>
      ["cross-site", "invalid", "limit"].map((test) => learnerKey(route, test)),
    );
    learner = await createTestUsers(t, nextIp, Object.fromEntries([TAKEN_KEY, ...keys].map((key) => [key, {}])));
  }, 120_000);
  afterAll(() => t.close());

  function post(route: LimitedRoute, test: string, body: Body | string, ip: string, headers: Record<string, string> = {}) {
    const cookie = route.signedIn ? { cookie: learner(learnerKey(route, test)).cookie } : {};
    return t.app.inject({ method: "POST", url: route.url, headers: { ...cookie, ...headers }, payload: body, remoteAddress: ip });
  }

  function expectAccepted(route: LimitedRoute, response: LightMyRequestResponse) {
    expect(response.statusCode, response.body).toBe(route.accepted);
  }

  describe.each(ROUTES)("$url", (route) => {
    it(`${ATTEMPTS} cross-site requests (text/plain, and JSON) leave the address its allowance`, async () => {
      const ip = nextIp();
      for (let n = 0; n < ATTEMPTS; n++) {
        // A form or fetch() on another site: no preflight for text/plain; JSON is refused by its Origin.
        const textPlain = n % 2 === 0;
        const response = await post(route, "cross-site", textPlain ? JSON.stringify(route.valid(n)) : route.valid(n), ip, {
          origin: "https://evil.test",
          "sec-fetch-site": "cross-site",
          "content-type": textPlain ? "text/plain" : "application/json",
        });
        expect(response.statusCode, `attempt ${n}: ${response.body}`).toBe(textPlain ? 415 : 403);
      }
      expectAccepted(route, await post(route, "cross-site", route.valid(ATTEMPTS), ip));
    });

    it(`${ATTEMPTS} requests with an invalid body leave the address its allowance`, async () => {
      const ip = nextIp();
      for (let n = 0; n < ATTEMPTS; n++) {
        const response = await post(route, "invalid", route.invalid, ip);
        expect(response.statusCode, `attempt ${n}: ${response.body}`).toBe(400);
      }
      expectAccepted(route, await post(route, "invalid", route.valid(ATTEMPTS), ip));
    });

    it("valid requests beyond the limit are refused 429, saying what and when", async () => {
      const ip = nextIp();
      const spend = route.spend ?? route.valid;
      // At once: the auth library holds some answers for a moment.
      const answers = await Promise.all(Array.from({ length: route.max }, (_, n) => post(route, "limit", spend(n), ip)));
      expect(answers.map((answer) => answer.statusCode)).not.toContain(429);

      const limited = await post(route, "limit", spend(route.max), ip);
      expect(limited.statusCode, limited.body).toBe(429);
      expect(limited.json()).toEqual(route.refusal);
      expect(limited.headers["retry-after"]).toEqual(expect.stringMatching(/^\d+$/));
    }, 120_000);
  });
});
