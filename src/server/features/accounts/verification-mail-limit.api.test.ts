// Verification mails are limited per account, like reset mails: at most 3 in 15 minutes, however
// they are asked for (signing in unverified, the auth library's resend endpoint, registering
// again) and from however many addresses. The answers reveal no more than they did without it.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AUTH_MESSAGES, LIMIT_MESSAGES } from "../../../shared/contracts/accounts.ts";
import {
  ipAllocator,
  limitAnswer,
  linkInLastMail,
  mailsTo,
  PASSWORD,
  register,
  registrationForm,
  sessionSetCookie,
  signIn,
  verifyEmail,
} from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(27);

const NOT_VERIFIED = { error: { code: "EMAIL_NOT_VERIFIED", message: AUTH_MESSAGES.emailNotVerified, requestId: expect.any(String) } };
// Signing in and registering again both say what was limited (this account's mails) and when.
const MAILS_USED_UP = limitAnswer(LIMIT_MESSAGES.verificationEmails);
const RESENT = { status: "verification-resent", message: AUTH_MESSAGES.verificationResent };

describe("verification mails per account", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Verification mails delivered to `email` (reset mails are counted on their own). */
  async function verificationMails(email: string): Promise<number> {
    return (await mailsTo(t, email)).filter((mail) => mail.subject === "Verify your email for Trading Academy").length;
  }

  /** Registers `email` (its first mail) from an address of its own. */
  async function registerUnverified(email: string) {
    const response = await register(t, registrationForm(email), nextIp());
    expect(response.statusCode, response.body).toBe(201);
    expect(await verificationMails(email)).toBe(1);
  }

  /** Better Auth's resend endpoint, as a signed-out browser calls it. */
  const resend = (email: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/send-verification-email",
      headers: { origin: t.services.env.appUrl },
      payload: { email },
      remoteAddress: nextIp(),
    });

  it("signing in unverified from many addresses mails 3 links in 15 minutes, then answers 429 and mails nothing", async () => {
    const email = "sign-in-flood@example.com";
    await registerUnverified(email);
    for (let attempt = 2; attempt <= 3; attempt++) {
      const response = await signIn(t, email, PASSWORD, nextIp());
      expect(response.statusCode, `attempt ${attempt}`).toBe(403);
      expect(response.json()).toEqual(NOT_VERIFIED);
    }
    expect(await verificationMails(email)).toBe(3);

    for (let attempt = 4; attempt <= 8; attempt++) {
      const response = await signIn(t, email, PASSWORD, nextIp());
      expect(response.statusCode, `attempt ${attempt}: ${response.body}`).toBe(429);
      expect(response.json()).toEqual(MAILS_USED_UP);
      expect(sessionSetCookie(response)).toBeUndefined();
    }
    expect(await verificationMails(email)).toBe(3);

    // Without the password nothing is revealed: the answer is the usual refusal.
    const guess = await signIn(t, email, "not the password", nextIp());
    expect(guess.statusCode).toBe(401);
    expect(guess.json()).toMatchObject({ error: { message: AUTH_MESSAGES.wrongPassword } });
  });

  it("the auth library's resend endpoint answers every request as it answers an unknown address, and mails 3 links", async () => {
    const email = "resend-flood@example.com";
    await registerUnverified(email);
    const unknown = await resend("nobody-registered@example.com");
    expect(unknown.statusCode, unknown.body).toBe(200);

    for (let attempt = 2; attempt <= 6; attempt++) {
      const response = await resend(email);
      expect(response.statusCode, `attempt ${attempt}: ${response.body}`).toBe(unknown.statusCode);
      expect(response.json()).toEqual(unknown.json());
    }
    expect(await verificationMails(email)).toBe(3);
    expect(await verificationMails("nobody-registered@example.com")).toBe(0);
  });

  it("registering an unverified email again mails 3 links in 15 minutes, then answers 429 and mails nothing", async () => {
    const email = "register-flood@example.com";
    await registerUnverified(email);
    for (let attempt = 2; attempt <= 3; attempt++) {
      const response = await register(t, registrationForm(email), nextIp());
      expect(response.statusCode, `attempt ${attempt}`).toBe(201);
      expect(response.json()).toEqual(RESENT);
    }
    for (let attempt = 4; attempt <= 6; attempt++) {
      const response = await register(t, registrationForm(email), nextIp());
      expect(response.statusCode, `attempt ${attempt}: ${response.body}`).toBe(429);
      expect(response.json()).toEqual(MAILS_USED_UP);
    }
    expect(await verificationMails(email)).toBe(3);
  });

  it("every way of asking counts toward the same 3", async () => {
    const email = "mixed-flood@example.com";
    await registerUnverified(email);
    expect((await resend(email)).statusCode).toBe(200);
    expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(403);
    expect(await verificationMails(email)).toBe(3);

    expect((await resend(email)).statusCode).toBe(200);
    expect((await signIn(t, email, PASSWORD, nextIp())).json()).toEqual(MAILS_USED_UP);
    expect((await register(t, registrationForm(email), nextIp())).json()).toEqual(MAILS_USED_UP);
    expect(await verificationMails(email)).toBe(3);
  });

  it("leaves other accounts alone, and mails the account again once 15 minutes have passed", async () => {
    const email = "patient@example.com";
    await registerUnverified(email);
    for (let attempt = 2; attempt <= 4; attempt++) await signIn(t, email, PASSWORD, nextIp());
    expect(await verificationMails(email)).toBe(3);

    const other = "neighbour@example.com";
    await registerUnverified(other);
    expect((await signIn(t, other, PASSWORD, nextIp())).json()).toEqual(NOT_VERIFIED);
    expect(await verificationMails(other)).toBe(2);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 15 * 60_000 + 1_000 });
    const later = await signIn(t, email, PASSWORD, nextIp());
    expect(later.statusCode, later.body).toBe(403);
    expect(later.json()).toEqual(NOT_VERIFIED);
    expect(await verificationMails(email)).toBe(4);
    vi.useRealTimers();

    // The new link works.
    const token = (await linkInLastMail(t, email, "/verify-email")).searchParams.get("oobCode") ?? "";
    expect((await verifyEmail(t, token, nextIp())).statusCode).toBe(200);
    expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);
  });
});
