// Brute-force limits: a per-account lockout, Better Auth's per-address limit on sign-in, and our
// own per-address limit on the account routes, all counted in the database.
import { and, count, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "../../shared/contracts/accounts.ts";
import { loginFailures, rateLimits } from "../db/schema.ts";
import { createVerifiedAccount, ipAllocator, PASSWORD, signIn } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const nextIp = ipAllocator(23);
const TOO_MANY = { error: { code: "TOO_MANY_REQUESTS", message: AUTH_MESSAGES.tooManyRequests, requestId: expect.any(String) } };

describe("sign-in and account route limits", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function failuresFor(email: string) {
    const [row] = await t.database.db.select({ n: count() }).from(loginFailures).where(eq(loginFailures.email, email));
    return row?.n ?? 0;
  }

  describe("per-account lockout", () => {
    it("locks an account after 5 wrong passwords from anywhere, even against the right password", async () => {
      const email = "target@example.com";
      await createVerifiedAccount(t, email, nextIp);

      for (let attempt = 1; attempt <= 5; attempt++) {
        const response = await signIn(t, email, `wrong password ${attempt}`, nextIp());
        expect(response.statusCode, `attempt ${attempt}`).toBe(401);
        expect(response.json()).toMatchObject({ error: { message: AUTH_MESSAGES.wrongPassword } });
      }
      expect(await failuresFor(email)).toBe(5);

      const locked = await signIn(t, email, PASSWORD, nextIp());
      expect(locked.statusCode, locked.body).toBe(429);
      expect(locked.json()).toEqual(TOO_MANY);
      expect(locked.headers["set-cookie"]).toBeUndefined();
      // The email is matched however it is typed.
      expect((await signIn(t, "TARGET@example.com", PASSWORD, nextIp())).statusCode).toBe(429);
    });

    it("leaves other accounts alone", async () => {
      const email = "bystander@example.com";
      await createVerifiedAccount(t, email, nextIp);
      for (let attempt = 1; attempt <= 5; attempt++) await signIn(t, "victim@example.com", "guess", nextIp());
      expect((await signIn(t, "victim@example.com", "guess", nextIp())).statusCode).toBe(429);
      expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);
    });

    it("forgets earlier failures after a successful sign-in", async () => {
      const email = "clumsy@example.com";
      await createVerifiedAccount(t, email, nextIp);
      for (let attempt = 1; attempt <= 4; attempt++) await signIn(t, email, "typo", nextIp());
      expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);
      expect(await failuresFor(email)).toBe(0);
      for (let attempt = 1; attempt <= 4; attempt++) await signIn(t, email, "typo", nextIp());
      expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);
    });
  });

  describe("per-address sign-in limit (Better Auth)", () => {
    it("answers 429 after 10 sign-in attempts in a minute from one address, and counts them in rate_limits", async () => {
      const email = "crowded@example.com";
      await createVerifiedAccount(t, email, nextIp);
      const ip = nextIp();
      // Different unknown emails, so that the per-account lockout is not what stops them.
      for (let attempt = 1; attempt <= 10; attempt++) {
        const response = await signIn(t, `guess-${attempt}@example.com`, "guess", ip);
        expect(response.statusCode, `attempt ${attempt}`).toBe(401);
      }

      const limited = await signIn(t, email, PASSWORD, ip);
      expect(limited.statusCode, limited.body).toBe(429);
      expect(limited.json()).toEqual(TOO_MANY);

      const [row] = await t.database.db.select().from(rateLimits).where(eq(rateLimits.key, `${ip}|/sign-in/email`));
      expect(row?.count).toBe(10);
      // Another address is not affected.
      expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);
    });

    it("does not take a client's own x-client-ip header as its address", async () => {
      const ip = nextIp();
      for (let attempt = 1; attempt <= 10; attempt++) {
        const response = await t.app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          headers: { origin: "http://localhost:3000", "x-client-ip": `192.0.2.${attempt}` },
          payload: { email: `spoof-${attempt}@example.com`, password: "guess" },
          remoteAddress: ip,
        });
        expect(response.statusCode, `attempt ${attempt}`).toBe(401);
      }
      expect((await signIn(t, "spoof-11@example.com", "guess", ip)).statusCode).toBe(429);
    });
  });

  describe("per-address limit on our account routes", () => {
    it.each([
      ["/api/accounts/register", { fullName: "Limit Tester", email: "limit@example.com", password: "short", confirmPassword: "short" }],
      ["/api/accounts/forgot-password", { email: "nobody-here@example.com" }],
    ])("allows 5 requests a minute to %s from one address, then answers 429", async (url, payload) => {
      const ip = nextIp();
      for (let attempt = 1; attempt <= 5; attempt++) {
        const response = await t.app.inject({ method: "POST", url, payload, remoteAddress: ip });
        expect(response.statusCode, `attempt ${attempt}`).not.toBe(429);
      }

      const limited = await t.app.inject({ method: "POST", url, payload, remoteAddress: ip });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers["content-type"]).toMatch(/^application\/json/);
      expect(limited.json()).toEqual({
        error: { code: "FST_ERR_RATE_LIMIT_EXCEEDED", message: "Too many requests. Please try again later.", requestId: expect.any(String) },
      });

      const rows = await t.database.db
        .select()
        .from(rateLimits)
        .where(and(like(rateLimits.key, `route:POST ${url}:%`), like(rateLimits.key, `%${ip}`)));
      expect(rows).toEqual([expect.objectContaining({ count: 6 })]);

      const elsewhere = await t.app.inject({ method: "POST", url, payload, remoteAddress: nextIp() });
      expect(elsewhere.statusCode).not.toBe(429);
    });
  });
});
