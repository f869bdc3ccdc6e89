// Attack suite (issue 7): the ways into an account. Brute force against the sign-in and
// password-reset limits (per address and per account), and open redirects and cross-site requests
// through the auth library's endpoints that take a callbackURL or redirectTo.
// Already covered elsewhere, and not repeated here: the per-account lockout after 5 wrong
// passwords, Better Auth's per-address sign-in limit, a forged x-client-ip header, and the
// per-address limits of our register and forgot-password routes (sign-in-limits.api.test.ts); the
// lockout under parallel attempts (login-lockout.api.test.ts) and on every spelling of the path
// (attacks-auth-paths.api.test.ts).
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleOidcFake } from "../../../dev/fakes/google-oidc.ts";
import { LIMIT_MESSAGES } from "../../shared/contracts/accounts.ts";
import { LIBRARY_LIMITS } from "../auth/auth-limits.ts";
import { LOCKOUT_FAILURES } from "../auth/login-lockout.ts";
import { ACCOUNT_ROUTE_LIMITS } from "../features/accounts/accounts.routes.ts";
import {
  createSignedInUser,
  createVerifiedAccount,
  ipAllocator,
  limitAnswer,
  linkInLastMail,
  lockOut,
  ORIGIN,
  PASSWORD,
  register,
  registrationForm,
  signIn,
} from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { expectNothingChanged, expectRefused } from "../testing/attack-kit.ts";
import { randomSecret } from "../testing/secrets.ts";

const nextIp = ipAllocator(64);
const SIGN_INS_PER_ADDRESS = LIBRARY_LIMITS["/sign-in/email"].max;
const RESETS_PER_ADDRESS = LIBRARY_LIMITS["/reset-password"].max;

/** Where a redirect must never go: other sites, and the spellings browsers read as another site. */
const FOREIGN_TARGETS = [
  "https://evil.com",
  "http://evil.com/login",
  "//evil.com",
  "//evil.com/%2F..",
  "/\\evil.com",
  "\\\\evil.com",
  "/\t/evil.com",
  "/%2F%2Fevil.com",
  "/%5Cevil.com",
  "javascript:alert(document.cookie)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "http://localhost:3000.evil.com",
  "http://localhost:3000@evil.com",
  "https://localhost:3000",
  "http://localhost:3001",
  "evil.com",
  " https://evil.com",
];

describe("brute force behind the production proxy", () => {
  // In production the app sits behind one proxy (the load balancer), which appends the address it
  // saw to X-Forwarded-For. Whatever a client wrote there itself comes first and proves nothing.
  const PROXY = "10.64.250.1";
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { NODE_ENV: "production", AUTH_SECRET: randomSecret(), APP_URL: "https://academy.example" } });
  });
  afterAll(() => t.close());

  // Sign-ins at a locked account (refused before any password is hashed) and reset requests for
  // addresses with no account: each counted by the limit, as a body the route refuses would not be
  // (docs/product.md, "Timings and limits").
  const LOCKED_EMAIL = "locked@example.com";
  const attempt = (client: string, spoofed: string, n: number, url = "/api/auth/sign-in/email") =>
    t.app.inject({
      method: "POST",
      url,
      remoteAddress: PROXY,
      headers: { origin: "https://academy.example", "x-forwarded-for": `${spoofed}, ${client}` },
      payload: url.includes("sign-in") ? { email: LOCKED_EMAIL, password: `guess ${n}` } : { email: `nobody-${n}@example.com` },
    });

  it("a client rotating its own X-Forwarded-For entry is still one address to the sign-in limit", async () => {
    for (let n = 1; n <= LOCKOUT_FAILURES; n++) expect((await attempt(`203.0.113.${100 + n}`, "198.51.100.1", n)).statusCode).toBe(401);
    for (let n = 1; n <= SIGN_INS_PER_ADDRESS; n++) {
      expect((await attempt("203.0.113.7", `198.51.100.${n % 250}`, n)).json(), `attempt ${n}`).toEqual(limitAnswer(LIMIT_MESSAGES.lockedOut));
    }
    expect((await attempt("203.0.113.7", "198.51.100.77", 0)).json()).toEqual(limitAnswer(LIMIT_MESSAGES.signIns));
    // Another client behind the same proxy is not affected: only the account's lockout stops it.
    expect((await attempt("203.0.113.8", "198.51.100.77", 0)).json()).toEqual(limitAnswer(LIMIT_MESSAGES.lockedOut));
  });

  it("and to our own per-address limits", async () => {
    for (let n = 1; n <= ACCOUNT_ROUTE_LIMITS.forgotPassword.max; n++) {
      expect((await attempt("203.0.113.9", `198.51.100.${n}`, n, "/api/accounts/forgot-password")).statusCode, `attempt ${n}`).toBe(404);
    }
    expectRefused(await attempt("203.0.113.9", "198.51.100.99", 0, "/api/accounts/forgot-password"), 429);
  });
});

describe("attacks on signing in", () => {
  let t: TestApp;
  let fakes: FastifyInstance;

  beforeAll(async () => {
    fakes = Fastify();
    await fakes.register(googleOidcFake, { prefix: "/dev/fakes/google" });
    await fakes.listen({ host: "127.0.0.1", port: 0 });
    const address = fakes.server.address();
    if (typeof address !== "object" || address === null) throw new Error("the fakes are not listening");
    t = await createTestApp({
      env: {
        GOOGLE_CLIENT_ID: "trading-academy-google",
        GOOGLE_CLIENT_SECRET: "google-test-secret",
        GOOGLE_DISCOVERY_URL: `http://127.0.0.1:${address.port}/dev/fakes/google/.well-known/openid-configuration`,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fakes.close();
  });

  const post = (url: string, payload: object, remoteAddress = nextIp(), headers: Record<string, string> = {}) =>
    t.app.inject({ method: "POST", url, headers: { origin: ORIGIN, ...headers }, payload, remoteAddress });

  describe("brute force", () => {
    it("rotating X-Forwarded-For, X-Real-IP or Forwarded does not reset the per-address sign-in limit", async () => {
      const ip = nextIp();
      // Tries at a locked account: refused before any password is hashed, counted by the address's limit.
      await lockOut(t, "locked-rotating@example.com", nextIp);
      for (let attempt = 1; attempt <= SIGN_INS_PER_ADDRESS; attempt++) {
        const spoofed = `198.51.100.${attempt % 250}`;
        const response = await post("/api/auth/sign-in/email", { email: "locked-rotating@example.com", password: "guess" }, ip, {
          "x-forwarded-for": spoofed,
          "x-real-ip": spoofed,
          forwarded: `for=${spoofed}`,
          "cf-connecting-ip": spoofed,
        });
        expect(response.json(), `attempt ${attempt}`).toEqual(limitAnswer(LIMIT_MESSAGES.lockedOut));
      }
      const limited = await post("/api/auth/sign-in/email", { email: "nobody-last@example.com", password: "guess" }, ip, {
        "x-forwarded-for": "198.51.100.99",
      });
      expect(limited.json()).toEqual(limitAnswer(LIMIT_MESSAGES.signIns));
    });

    it("the per-account lockout counts every spelling of the email, and holds on every path to the sign-in", async () => {
      const email = "spelled@example.com";
      await createVerifiedAccount(t, email, nextIp);
      // With spaces around it the address is refused outright: no way round the count, nor in.
      for (const spelling of [" spelled@example.com", "spelled@example.com "]) {
        expectRefused(await post("/api/auth/sign-in/email", { email: spelling, password: PASSWORD }), 400, spelling);
      }
      for (const spelling of ["spelled@example.com", "SPELLED@example.com", "Spelled@Example.Com", "spelled@EXAMPLE.com", "sPeLLeD@example.COM"]) {
        expect((await post("/api/auth/sign-in/email", { email: spelling, password: "wrong password" })).statusCode, spelling).toBe(401);
      }
      await expectNothingChanged(t, async () => {
        const paths = [
          "/api/auth/sign-in/email",
          "/api/auth/sign-in/email/",
          "/api/auth//sign-in/email",
          "/api/auth/sign-in//email",
          "/api/auth/Sign-In/Email",
          "/api/auth/sign-in/%65mail",
          "/api/auth/sign-in/email?x=1",
          "/api/auth/./sign-in/email",
        ];
        for (const url of paths) {
          const response = await post(url, { email, password: PASSWORD });
          expect(response.statusCode, `${url}: ${response.body}`).not.toBe(200);
          expect(response.headers["set-cookie"] ?? "", url).not.toMatch(/session_token=[^;]/);
          expectRefused(response, undefined, url);
        }
      });
    });

    it("a sign-in with a 10,000-character address is a plain refusal, never a 5xx, and locks nobody", async () => {
      const long = `${"a1b2c3d4e5".repeat(1000)}@example.com`;
      for (const email of [long, long.toUpperCase(), `${long.slice(0, 250)}@example.com`]) {
        const response = await post("/api/auth/sign-in/email", { email, password: "guess" });
        expectRefused(response, undefined, email.slice(0, 20));
      }
    });

    it("the auth library's own reset-request endpoint is closed (it would skip the per-account limit): 404, no mail", async () => {
      const email = "reset-bypass@example.com";
      await createVerifiedAccount(t, email, nextIp);
      await expectNothingChanged(t, async () => {
        for (const redirectTo of ["/reset-password", "https://evil.com"]) {
          expectRefused(await post("/api/auth/request-password-reset", { email, redirectTo }), 404, redirectTo);
          expectRefused(await post("/api/auth/forget-password", { email, redirectTo }), 404, redirectTo);
        }
      });
    });

    it("guessing reset tokens is limited per address (20 in 10 minutes) and changes no password", async () => {
      const email = "token-guess@example.com";
      await createVerifiedAccount(t, email, nextIp);
      const ip = nextIp();
      await expectNothingChanged(t, async () => {
        for (let attempt = 1; attempt <= RESETS_PER_ADDRESS; attempt++) {
          const response = await post("/api/auth/reset-password", { token: `guess-${attempt}`, newPassword: "attacker password" }, ip);
          expectRefused(response, 400, `attempt ${attempt}`);
        }
        for (let attempt = RESETS_PER_ADDRESS + 1; attempt <= RESETS_PER_ADDRESS + 3; attempt++) {
          const response = await post("/api/auth/reset-password", { token: `guess-${attempt}`, newPassword: "attacker password" }, ip);
          expectRefused(response, 429);
          expect(response.json()).toEqual(limitAnswer(LIMIT_MESSAGES.resetAttempts));
        }
      });
      expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);
    });

    it("a reset-mail flood at one account from many addresses: 3 links in 15 minutes, then 429 and no mail", async () => {
      const email = "flooded@example.com";
      await createVerifiedAccount(t, email, nextIp);
      const forgot = () => t.app.inject({ method: "POST", url: "/api/accounts/forgot-password", payload: { email }, remoteAddress: nextIp() });
      for (let attempt = 1; attempt <= 3; attempt++) expect((await forgot()).statusCode, `attempt ${attempt}`).toBe(200);
      await expectNothingChanged(t, async () => {
        for (let attempt = 4; attempt <= 10; attempt++) {
          const response = await forgot();
          expectRefused(response, 429, `attempt ${attempt}`);
          expect(response.json()).toEqual(limitAnswer(LIMIT_MESSAGES.resetEmails));
        }
      });
      // Another account is not affected.
      const other = "not-flooded@example.com";
      await createVerifiedAccount(t, other, nextIp);
      const response = await t.app.inject({ method: "POST", url: "/api/accounts/forgot-password", payload: { email: other }, remoteAddress: nextIp() });
      expect(response.statusCode).toBe(200);
    });
  });

  describe("open redirects", () => {
    it("GET /api/auth/verify-email with a foreign callbackURL: 403, and the email stays unverified", async () => {
      const email = "verify-redirect@example.com";
      expect((await register(t, registrationForm(email), nextIp())).statusCode).toBe(201);
      const token = (await linkInLastMail(t, email, "/verify-email")).searchParams.get("oobCode") ?? "";
      await expectNothingChanged(t, async () => {
        for (const callbackURL of FOREIGN_TARGETS) {
          const response = await t.app.inject({ url: `/api/auth/verify-email?${new URLSearchParams({ token, callbackURL })}`, remoteAddress: nextIp() });
          expectRefused(response, 403, callbackURL);
          expect(response.headers.location, callbackURL).toBeUndefined();
        }
      });
      // A same-site callbackURL is followed.
      const ok = await t.app.inject({ url: `/api/auth/verify-email?${new URLSearchParams({ token, callbackURL: "/program?program=beginner" })}` });
      expect(ok.statusCode, ok.body).toBe(302);
      expect(new URL(String(ok.headers.location), ORIGIN).origin).toBe(ORIGIN);
    });

    it("GET /api/auth/reset-password/:token with a foreign callbackURL: 403, no redirect", async () => {
      const email = "reset-redirect@example.com";
      await createVerifiedAccount(t, email, nextIp);
      expect((await t.app.inject({ method: "POST", url: "/api/accounts/forgot-password", payload: { email }, remoteAddress: nextIp() })).statusCode).toBe(200);
      const token = (await linkInLastMail(t, email, "/reset-password")).searchParams.get("token") ?? "";
      await expectNothingChanged(t, async () => {
        for (const callbackURL of FOREIGN_TARGETS) {
          const response = await t.app.inject({ url: `/api/auth/reset-password/${token}?${new URLSearchParams({ callbackURL })}`, remoteAddress: nextIp() });
          expectRefused(response, 403, callbackURL);
          expect(response.headers.location, callbackURL).toBeUndefined();
        }
      });
      const ok = await t.app.inject({ url: `/api/auth/reset-password/${token}?callbackURL=%2Freset-password` });
      expect(ok.statusCode).toBe(302);
      expect(new URL(String(ok.headers.location)).origin).toBe(ORIGIN);
    });

    it.each([
      ["POST /api/auth/sign-in/social", "/api/auth/sign-in/social", (url: string) => ({ provider: "google", callbackURL: url })],
      ["its errorCallbackURL", "/api/auth/sign-in/social", (url: string) => ({ provider: "google", callbackURL: "/", errorCallbackURL: url })],
      ["its newUserCallbackURL", "/api/auth/sign-in/social", (url: string) => ({ provider: "google", callbackURL: "/", newUserCallbackURL: url })],
      ["POST /api/auth/sign-in/email", "/api/auth/sign-in/email", (url: string) => ({ email: "nobody@example.com", password: "guess", callbackURL: url })],
      ["POST /api/auth/send-verification-email", "/api/auth/send-verification-email", (url: string) => ({ email: "nobody@example.com", callbackURL: url })],
    ])("%s with a foreign target: 403, nothing stored, no mail", async (_name, url, body) => {
      await expectNothingChanged(t, async () => {
        for (const target of FOREIGN_TARGETS) expectRefused(await post(url, body(target)), 403, target);
      });
    });

    it("the same requests with a same-site target are accepted (the refusals above are about the target)", async () => {
      const social = await post("/api/auth/sign-in/social", { provider: "google", callbackURL: "/program?program=beginner", errorCallbackURL: "/login" });
      expect(social.statusCode, social.body).toBe(200);
      expect(new URL(social.json<{ url: string }>().url).pathname).toBe("/dev/fakes/google/authorize");
    });
  });

  describe("cross-site requests", () => {
    it("a request from another origin (or none) carrying the session cannot change the account or end it", async () => {
      const victim = await createSignedInUser(t, { email: "csrf-victim@example.com", nextIp });
      const attempts: [string, object][] = [
        ["/api/auth/update-user", { name: "Hijacked" }],
        ["/api/auth/change-password", { currentPassword: PASSWORD, newPassword: "attacker password", revokeOtherSessions: true }],
        ["/api/auth/change-email", { newEmail: "attacker@evil.test" }],
        ["/api/auth/sign-out", {}],
        ["/api/auth/revoke-sessions", {}],
      ];
      await expectNothingChanged(t, async () => {
        for (const origin of ["https://evil.com", "null", "http://localhost:3000.evil.com", undefined]) {
          for (const [url, payload] of attempts) {
            const response = await t.app.inject({
              method: "POST",
              url,
              headers: { cookie: victim.cookie, ...(origin ? { origin } : {}), ...(origin === undefined ? { referer: "https://evil.com/page" } : {}) },
              payload,
              remoteAddress: nextIp(),
            });
            expectRefused(response, 403, `${origin} ${url}`);
          }
        }
      });
      const me = await t.app.inject({ url: "/api/me", headers: { cookie: victim.cookie } });
      expect(me.json().user).toMatchObject({ email: "csrf-victim@example.com", name: "Test Learner" });
    });

    it("a form post (the only cross-site body a browser sends without asking) to any write route is refused 415", async () => {
      const learner = await createSignedInUser(t, { email: "form-post@example.com", nextIp, plan: "admin" });
      const routes = [
        "/api/subscription-management",
        "/api/programs/beginner/quiz/answers",
        "/api/waitlist/checkout",
        "/api/verify-paystack",
        "/api/contact",
        "/api/admin/programs",
        "/api/auth/update-user",
        "/api/auth/sign-out",
      ];
      await expectNothingChanged(t, async () => {
        for (const url of routes) {
          for (const contentType of ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"]) {
            const response = await t.app.inject({
              method: "POST",
              url,
              headers: { cookie: learner.cookie, origin: "https://evil.com", "content-type": contentType },
              payload: "name=Hijacked&action=get_subscription&plan=advanced",
              remoteAddress: nextIp(),
            });
            expectRefused(response, 415, `${contentType} ${url}`);
          }
        }
      });
    });
  });
});
