// Limits that real learners meet (docs/product.md, "Limits"): many of them share one address (a carrier's
// NAT, a seminar room on one Wi-Fi). A room of 40 registers at once; one address still cannot
// create accounts by the hundred; and every limit says what it limited and when to try again,
// never speaking of passwords unless passwords were the matter (docs/product.md, "Limits").
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES, LIMIT_MESSAGES } from "../../../shared/contracts/accounts.ts";
import { LIBRARY_LIMITS, SIGN_UPS_PER_ADDRESS } from "../../auth/auth-limits.ts";
import { users } from "../../db/schema.ts";
import { ipAllocator, limitAnswer, mailsTo, PASSWORD, register, registrationForm, signIn } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(29);

const NOT_VERIFIED = { error: { code: "EMAIL_NOT_VERIFIED", message: AUTH_MESSAGES.emailNotVerified, requestId: expect.any(String) } };

describe("sign-up and verification limits for learners sharing one address", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Everyone registers at once, as a room does (each answer takes the library's half-second floor). */
  const registerAll = async (emails: string[], ip: string) =>
    (await Promise.all(emails.map((email) => register(t, registrationForm(email), ip)))).map((response) => response.statusCode);

  it("a seminar room of 40 registers from one address within 5 minutes, and each one's first login is not refused", async () => {
    const room = nextIp();
    const emails = Array.from({ length: 40 }, (_, n) => `seminar-${n}@example.com`);
    const started = Date.now();
    expect(await registerAll(emails, room)).toEqual(emails.map(() => 201));
    expect(Date.now() - started).toBeLessThan(5 * 60_000);
    expect(await t.database.db.$count(users)).toBeGreaterThanOrEqual(40);

    // Each tries to log in before opening the mail: "please verify", with a fresh link, from the room.
    const logins = await Promise.all(emails.map((email) => signIn(t, email, PASSWORD, room)));
    expect(logins.map((response) => response.json())).toEqual(emails.map(() => NOT_VERIFIED));
  }, 60_000);

  it(`one address cannot go on creating accounts: after ${SIGN_UPS_PER_ADDRESS.max} in an hour, a message about sign-ups and when`, async () => {
    const ip = nextIp();
    const emails = Array.from({ length: SIGN_UPS_PER_ADDRESS.max }, (_, n) => `bulk-${n}@example.com`);
    expect(await registerAll(emails, ip)).toEqual(emails.map(() => 201));

    const refused = await register(t, registrationForm("bulk-one-more@example.com"), ip);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toEqual(limitAnswer(LIMIT_MESSAGES.signUps));
    expect(refused.json().error.message).toMatch(/^Too many sign-ups from your network\. Please try again in (60|59) minutes\.$/);
    expect(refused.json().error.message).not.toMatch(/password/i);
    expect(await t.database.db.select().from(users).where(eq(users.email, "bulk-one-more@example.com"))).toEqual([]);

    // Another address registers as usual.
    expect((await register(t, registrationForm("bulk-elsewhere@example.com"), nextIp())).statusCode).toBe(201);
  }, 60_000);

  it("Resend verification email pressed right after signing up is answered about the emails, never about passwords", async () => {
    const email = "impatient@example.com";
    const ip = nextIp();
    expect((await register(t, registrationForm(email), ip)).statusCode).toBe(201);
    // The login page: signing in unverified mails a new link, and Resend signs in again.
    expect((await signIn(t, email, PASSWORD, ip)).json()).toEqual(NOT_VERIFIED);
    expect((await signIn(t, email, PASSWORD, ip)).json()).toEqual(NOT_VERIFIED);
    expect(await mailsTo(t, email)).toHaveLength(3);

    const pressedAgain = await signIn(t, email, PASSWORD, ip);
    expect(pressedAgain.statusCode).toBe(429);
    expect(pressedAgain.json()).toEqual(limitAnswer(LIMIT_MESSAGES.verificationEmails));
    expect(pressedAgain.json().error.message).toMatch(/^Too many verification emails for this account\. Please try again in 15 minutes\.$/);
    expect(pressedAgain.headers["retry-after"]).toEqual(expect.stringMatching(/^\d+$/));
    // Registering again says the same.
    const again = await register(t, registrationForm(email), ip);
    expect(again.json()).toEqual(limitAnswer(LIMIT_MESSAGES.verificationEmails));
    expect(await mailsTo(t, email)).toHaveLength(3);
  });

  it("asking for verification emails from one address: 60 in 10 minutes, then a message about those requests", async () => {
    const ip = nextIp();
    const ask = (n: number) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/send-verification-email",
        headers: { origin: t.services.env.appUrl },
        payload: { email: `asker-${n}@example.com` },
        remoteAddress: ip,
      });
    const max = LIBRARY_LIMITS["/send-verification-email"].max;
    // At once: each answer takes the library's half-second floor.
    const answers = await Promise.all(Array.from({ length: max }, (_, n) => ask(n + 1)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    const limited = await ask(0);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual(limitAnswer(LIMIT_MESSAGES.verificationRequests));
    expect(limited.json().error.message).toMatch(/in 10 minutes\.$/);
  });
});
