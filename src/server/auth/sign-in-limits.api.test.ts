// Brute-force limits: a per-account lockout, a per-address limit on sign-in, and our
// own per-address limit on the account routes, all counted in the database (docs/product.md,
// "Limits"). Each answers with what was limited and when to try again.
import { and, count, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES, LIMIT_MESSAGES } from "../../shared/contracts/accounts.ts";
import { loginFailures, rateLimits } from "../db/schema.ts";
import { ACCOUNT_ROUTE_LIMITS } from "../features/accounts/accounts.routes.ts";
import { createVerifiedAccount, ipAllocator, limitAnswer, lockOut, PASSWORD, registrationForm, signIn } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { LIBRARY_LIMITS } from "./auth-limits.ts";

const nextIp = ipAllocator(23);
const LOCKED = limitAnswer(LIMIT_MESSAGES.lockedOut);
const SIGN_INS_PER_ADDRESS = LIBRARY_LIMITS["/sign-in/email"].max;

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
      expect(locked.json()).toEqual(LOCKED);
      expect(locked.json().error.message).toMatch(/in 15 minutes or reset your password\.$/);
      expect(Number(locked.headers["retry-after"])).toBeGreaterThan(14 * 60);
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

  describe("per-address sign-in limit", () => {
    it("answers 429 after 100 sign-in attempts in 5 minutes from one address, and counts them in rate_limits", async () => {
      const email = "crowded@example.com";
      await createVerifiedAccount(t, email, nextIp);
      const ip = nextIp();
      // Tries at a locked account: refused by its lockout, and counted by the address's limit.
      await lockOut(t, "locked-crowded@example.com", nextIp);
      for (let attempt = 1; attempt <= SIGN_INS_PER_ADDRESS; attempt++) {
        const response = await signIn(t, "locked-crowded@example.com", `guess ${attempt}`, ip);
        expect(response.json(), `attempt ${attempt}`).toEqual(LOCKED);
      }

      const limited = await signIn(t, email, PASSWORD, ip);
      expect(limited.statusCode, limited.body).toBe(429);
      expect(limited.json()).toEqual(limitAnswer(LIMIT_MESSAGES.signIns));
      expect(limited.json().error.message).not.toMatch(/password/i);

      const [row] = await t.database.db.select().from(rateLimits).where(eq(rateLimits.key, `auth:/sign-in/email:${ip}`));
      expect(row?.count).toBe(SIGN_INS_PER_ADDRESS + 1);
      // Another address is not affected.
      expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);
    }, 60_000);

    it("does not take a client's own x-client-ip header as its address", async () => {
      const ip = nextIp();
      await lockOut(t, "locked-spoof@example.com", nextIp);
      for (let attempt = 1; attempt <= SIGN_INS_PER_ADDRESS; attempt++) {
        const response = await t.app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          headers: { origin: "http://localhost:3000", "x-client-ip": `192.0.2.${attempt % 250}` },
          payload: { email: "locked-spoof@example.com", password: "guess" },
          remoteAddress: ip,
        });
        expect(response.json(), `attempt ${attempt}`).toEqual(LOCKED);
      }
      expect((await signIn(t, "spoof-last@example.com", "guess", ip)).json()).toEqual(limitAnswer(LIMIT_MESSAGES.signIns));
    }, 60_000);
  });

  describe("per-address limit on our account routes", () => {
    const VERIFIED = "verified-limit@example.com";
    beforeAll(() => createVerifiedAccount(t, VERIFIED, nextIp));

    it.each([
      [
        "/api/accounts/register",
        // An address with a verified account: answered at once, and no account is made.
        registrationForm(VERIFIED),
        ACCOUNT_ROUTE_LIMITS.register.max,
        LIMIT_MESSAGES.signUps,
      ],
      ["/api/accounts/forgot-password", { email: "nobody-here@example.com" }, ACCOUNT_ROUTE_LIMITS.forgotPassword.max, LIMIT_MESSAGES.resetRequests],
    ])("allows %s its number of requests in 10 minutes from one address, then answers 429 saying what and when", async (url, payload, max, message) => {
      const ip = nextIp();
      for (let attempt = 1; attempt <= max; attempt++) {
        const response = await t.app.inject({ method: "POST", url, payload, remoteAddress: ip });
        expect(response.statusCode, `attempt ${attempt}`).not.toBe(429);
      }

      const limited = await t.app.inject({ method: "POST", url, payload, remoteAddress: ip });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers["content-type"]).toMatch(/^application\/json/);
      expect(limited.json()).toEqual(limitAnswer(message));
      expect(limited.json().error.message).toMatch(/in 10 minutes\.$/);

      const rows = await t.database.db
        .select()
        .from(rateLimits)
        .where(and(like(rateLimits.key, `route:POST ${url}:%`), like(rateLimits.key, `%${ip}`)));
      expect(rows).toEqual([expect.objectContaining({ count: max + 1 })]);

      const elsewhere = await t.app.inject({ method: "POST", url, payload, remoteAddress: nextIp() });
      expect(elsewhere.statusCode).not.toBe(429);
    });
  });
});
