import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "../../../shared/contracts/accounts.ts";
import { sessions, users } from "../../db/schema.ts";
import {
  createSignedInUser,
  createVerifiedAccount,
  forgotPassword,
  ipAllocator,
  linkInLastMail,
  mailsTo,
  me,
  ORIGIN,
  PASSWORD,
  resetPassword,
  signIn,
} from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(22);
const NEW_PASSWORD = "a brand new secret";

describe("forgot and reset password", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const forgot = (payload: Record<string, unknown>) => forgotPassword(t, payload, nextIp());
  const reset = (payload: Record<string, unknown>) => resetPassword(t, payload, nextIp());

  async function resetToken(email: string): Promise<string> {
    expect((await forgot({ email })).statusCode).toBe(200);
    return (await linkInLastMail(t, email, "/reset-password")).searchParams.get("token") ?? "";
  }

  describe("POST /api/accounts/forgot-password", () => {
    it.each([
      ["an empty email", { email: "" }, AUTH_MESSAGES.resetEmailRequired],
      ["a blank email", { email: "   " }, AUTH_MESSAGES.resetEmailRequired],
      ["no email at all", {}, AUTH_MESSAGES.resetEmailRequired],
      ["an invalid email", { email: "not-an-email" }, AUTH_MESSAGES.forgotInvalidEmail],
    ])("answers 400 for %s", async (_case, payload, message) => {
      const response = await forgot(payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: { code: "VALIDATION", message, requestId: expect.any(String) } });
    });

    it("answers 404 for an email with no account, and sends nothing", async () => {
      const response = await forgot({ email: "stranger@example.com" });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual({ error: { code: "USER_NOT_FOUND", message: AUTH_MESSAGES.forgotNoUser, requestId: expect.any(String) } });
      expect(await mailsTo(t, "stranger@example.com")).toEqual([]);
    });

    it("mails a reset link for a known email, in any case", async () => {
      const email = "forgetful@example.com";
      await createVerifiedAccount(t, email, nextIp);
      const response = await forgot({ email: " Forgetful@Example.COM " });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ message: AUTH_MESSAGES.resetEmailSent });

      const [mail] = await mailsTo(t, email);
      expect(mail?.subject).toBe("Reset your Trading Academy password");
      const link = await linkInLastMail(t, email, "/reset-password");
      expect(link.origin).toBe(ORIGIN);
      expect(link.searchParams.get("token")).toMatch(/\S{10,}/);
    });
  });

  describe("POST /api/auth/reset-password", () => {
    it("sets the new password, retires the old one and signs out every session", async () => {
      const email = "resetter@example.com";
      const { cookie } = await createSignedInUser(t, { email, nextIp });
      const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
      expect(await me(t, cookie)).toMatchObject({ email });

      const response = await reset({ newPassword: NEW_PASSWORD, token: await resetToken(email) });
      expect(response.statusCode, response.body).toBe(200);

      expect(await me(t, cookie)).toBeNull();
      expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user?.id ?? ""))).toEqual([]);
      const old = await signIn(t, email, PASSWORD, nextIp());
      expect(old.statusCode).toBe(401);
      expect(old.json()).toMatchObject({ error: { message: AUTH_MESSAGES.wrongPassword } });
      expect((await signIn(t, email, NEW_PASSWORD, nextIp())).statusCode).toBe(200);
    });

    it("refuses a password under 8 characters, and the link still works afterwards", async () => {
      const email = "short-reset@example.com";
      await createVerifiedAccount(t, email, nextIp);
      const token = await resetToken(email);

      const response = await reset({ newPassword: "1234567", token });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { message: AUTH_MESSAGES.passwordTooShort } });
      expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);

      expect((await reset({ newPassword: NEW_PASSWORD, token })).statusCode).toBe(200);
    });

    it.each([
      ["a made-up token", async () => "not-a-real-token"],
      [
        "a token already used",
        async () => {
          const email = "used-token@example.com";
          await createVerifiedAccount(t, email, nextIp);
          const token = await resetToken(email);
          expect((await reset({ newPassword: NEW_PASSWORD, token })).statusCode).toBe(200);
          return token;
        },
      ],
    ])("refuses %s with the invalid-link message", async (_case, makeToken) => {
      const response = await reset({ newPassword: "another new password", token: await makeToken() });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json()).toMatchObject({ error: { message: AUTH_MESSAGES.resetLinkInvalid } });
    });
  });
});
