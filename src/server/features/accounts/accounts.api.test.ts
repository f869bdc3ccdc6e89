import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "../../../shared/contracts/accounts.ts";
import { sessions, userProgress, users } from "../../db/schema.ts";
import {
  cookieHeader,
  createSignedInUser,
  createVerifiedAccount,
  ipAllocator,
  linkInLastMail,
  mailsTo,
  me,
  ORIGIN,
  PASSWORD,
  register,
  registrationForm,
  sessionSetCookie,
  signIn,
  signOut,
  verifyEmail,
} from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { setUserPlan } from "../users/users.service.ts";

const nextIp = ipAllocator(20);

describe("accounts: register, verify, sign in, sign out", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function userRow(email: string) {
    const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
    if (!user) throw new Error(`no user ${email}`);
    return user;
  }

  describe("POST /api/accounts/register", () => {
    it.each([
      ["every field is empty", { fullName: "", email: "", password: "", confirmPassword: "" }, AUTH_MESSAGES.fillAllFields],
      ["the name is blank", { fullName: "   " }, AUTH_MESSAGES.fillAllFields],
      ["the confirmation is missing (even if the password is short)", { password: "short", confirmPassword: "" }, AUTH_MESSAGES.fillAllFields],
      ["the email is not an email", { email: "not-an-email" }, AUTH_MESSAGES.invalidEmail],
      ["the passwords differ (even if short)", { password: "short", confirmPassword: "shorter" }, AUTH_MESSAGES.passwordsDoNotMatch],
      ["the password is 7 characters", { password: "1234567", confirmPassword: "1234567" }, AUTH_MESSAGES.passwordTooShort],
    ])("answers 400 when %s, in the spec's order", async (_case, overrides, message) => {
      const email = "validation@example.com";
      const response = await register(t, registrationForm(email, overrides), nextIp());
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: { code: "VALIDATION", message, requestId: expect.any(String) } });
      expect(await t.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    });

    it("creates an unverified email account on legacyFree with a beginner progress entry, mails a link, signs nobody in", async () => {
      const email = "ama@example.com";
      const before = new Date();
      const response = await register(t, registrationForm(email), nextIp());
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toEqual({ status: "created", message: AUTH_MESSAGES.registrationSuccess });
      expect(response.headers["set-cookie"]).toBeUndefined();

      const user = await userRow(email);
      expect(user).toMatchObject({
        name: "Ama Mensah",
        emailVerified: false,
        subscriptionPlan: "legacyFree",
        subscriptionStatus: "inactive",
        provider: "email",
        waitlistPaid: false,
      });
      expect(user.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      expect(user.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      const progress = await t.database.db.select().from(userProgress).where(eq(userProgress.userId, user.id));
      expect(progress).toEqual([expect.objectContaining({ programId: "beginner", data: {} })]);
      expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);

      const mails = await mailsTo(t, email);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toContain("Trading Academy");
      const link = await linkInLastMail(t, email, "/verify-email");
      expect(link.origin).toBe(ORIGIN);
      expect(link.searchParams.get("oobCode")).toMatch(/\S{20,}/);
    });

    it("ignores a plan, provider or verified flag sent with the form", async () => {
      const email = "sneaky@example.com";
      const response = await register(
        t,
        registrationForm(email, { subscriptionPlan: "admin", provider: "google", emailVerified: true, waitlistPaid: true, isAdmin: true }),
        nextIp(),
      );
      expect(response.statusCode, response.body).toBe(201);
      expect(await userRow(email)).toMatchObject({
        subscriptionPlan: "legacyFree",
        provider: "email",
        emailVerified: false,
        waitlistPaid: false,
      });
    });

    it("sends a new link when the email is registered but not verified", async () => {
      const email = "again@example.com";
      expect((await register(t, registrationForm(email), nextIp())).statusCode).toBe(201);
      const first = await linkInLastMail(t, email, "/verify-email");

      const response = await register(t, registrationForm(" Again@Example.com ", { fullName: "Someone Else" }), nextIp());
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toEqual({ status: "verification-resent", message: AUTH_MESSAGES.verificationResent });
      expect(await mailsTo(t, email)).toHaveLength(2);
      expect(await t.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
      // The account keeps the name it was created with.
      expect((await userRow(email)).name).toBe("Ama Mensah");
      // Either link verifies the account.
      expect((await verifyEmail(t, first.searchParams.get("oobCode") ?? "")).statusCode).toBe(200);
    });

    it("answers 409 when the email is already verified, and sends nothing", async () => {
      const email = "verified@example.com";
      await createVerifiedAccount(t, email, nextIp);
      const mailsBefore = (await mailsTo(t, email)).length;

      const response = await register(t, registrationForm(email), nextIp());
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toEqual({ error: { code: "ALREADY_VERIFIED", message: AUTH_MESSAGES.alreadyVerified, requestId: expect.any(String) } });
      expect(await mailsTo(t, email)).toHaveLength(mailsBefore);
    });
  });

  describe("GET /api/auth/verify-email", () => {
    it("verifies the account with the emailed code", async () => {
      const email = "verify@example.com";
      await register(t, registrationForm(email), nextIp());
      const token = (await linkInLastMail(t, email, "/verify-email")).searchParams.get("oobCode") ?? "";
      const response = await verifyEmail(t, token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["set-cookie"]).toBeUndefined();
      expect((await userRow(email)).emailVerified).toBe(true);
    });

    it("treats a link opened twice (a second device) as verified, changing nothing, and says it was already", async () => {
      const email = "twice@example.com";
      await register(t, registrationForm(email), nextIp());
      const token = (await linkInLastMail(t, email, "/verify-email")).searchParams.get("oobCode") ?? "";
      const first = await verifyEmail(t, token);
      expect(first.statusCode).toBe(200);
      expect(first.json()).not.toHaveProperty("alreadyVerified");

      const again = await verifyEmail(t, token);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toEqual({ status: true, user: null, alreadyVerified: true });
      expect(again.headers["set-cookie"]).toBeUndefined();
      expect((await userRow(email)).emailVerified).toBe(true);
    });

    it.each([
      ["a made-up code", "not-a-token"],
      ["a code signed with another secret", "eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6ImFtYUBleGFtcGxlLmNvbSJ9.c2lnbmF0dXJlLW5vdC12YWxpZA"],
    ])("refuses %s", async (_case, token) => {
      const response = await verifyEmail(t, token);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json()).toMatchObject({ error: { message: AUTH_MESSAGES.verificationFailed } });
    });
  });

  describe("POST /api/auth/sign-in/email", () => {
    const email = "kofi@example.com";
    beforeAll(async () => {
      await createVerifiedAccount(t, email, nextIp);
    });

    it.each([
      ["a wrong password", email, "wrong password"],
      ["an unknown email", "nobody@example.com", PASSWORD],
    ])("answers 401 with the spec's message for %s", async (_case, address, password) => {
      const response = await signIn(t, address, password, nextIp());
      expect(response.statusCode, response.body).toBe(401);
      expect(response.json()).toEqual({
        error: { code: expect.any(String), message: AUTH_MESSAGES.wrongPassword, requestId: expect.any(String) },
      });
      expect(sessionSetCookie(response)).toBeUndefined();
    });

    it("refuses an unverified account with 403 and mails a fresh link", async () => {
      const unverified = "unverified@example.com";
      await register(t, registrationForm(unverified), nextIp());
      const mailsBefore = (await mailsTo(t, unverified)).length;

      const response = await signIn(t, unverified, PASSWORD, nextIp());
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual({
        error: { code: "EMAIL_NOT_VERIFIED", message: AUTH_MESSAGES.emailNotVerified, requestId: expect.any(String) },
      });
      expect(sessionSetCookie(response)).toBeUndefined();
      expect(await mailsTo(t, unverified)).toHaveLength(mailsBefore + 1);

      // The fresh link works.
      const token = (await linkInLastMail(t, unverified, "/verify-email")).searchParams.get("oobCode") ?? "";
      expect((await verifyEmail(t, token)).statusCode).toBe(200);
      expect((await signIn(t, unverified, PASSWORD, nextIp())).statusCode).toBe(200);
    });

    it("sets an HttpOnly, SameSite=Lax session cookie and records the activity", async () => {
      const before = Date.now();
      const response = await signIn(t, email, PASSWORD, nextIp());
      expect(response.statusCode, response.body).toBe(200);

      const setCookie = sessionSetCookie(response) ?? "";
      const attributes = setCookie.split(";").map((part) => part.trim().toLowerCase());
      expect(attributes).toContain("httponly");
      expect(attributes).toContain("samesite=lax");
      expect(attributes).toContain("path=/");
      // Plain http in tests: APP_URL is http://localhost:3000.
      expect(attributes).not.toContain("secure");

      const lastActiveAt = (await userRow(email)).lastActiveAt;
      expect(lastActiveAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);

      expect(await me(t, cookieHeader(response.headers["set-cookie"]))).toEqual({
        id: expect.any(String),
        email,
        name: "Test Learner",
        emailVerified: true,
        provider: "email",
        plan: "legacyFree",
        accessLevel: "Free",
        tracks: ["beginner"],
        isAdmin: false,
        subscriptionEnd: null,
      });
    });

    it("accepts the email in any case", async () => {
      const response = await signIn(t, "KOFI@Example.com", PASSWORD, nextIp());
      expect(response.statusCode, response.body).toBe(200);
    });
  });

  describe("GET /api/me", () => {
    it("answers user null without a session, and is not cached", async () => {
      const response = await t.app.inject({ method: "GET", url: "/api/me" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ user: null });
      expect(response.headers["cache-control"]).toBe("no-store");
    });

    it("says once that this device's session was ended from another one, and clears its cookie", async () => {
      const email = "two-devices@example.com";
      const { cookie: laptop } = await createSignedInUser(t, { email, nextIp });
      const phoneSignIn = await signIn(t, email, PASSWORD, nextIp());
      const phone = cookieHeader(phoneSignIn.headers["set-cookie"]);
      expect(await me(t, phone)).toMatchObject({ email });

      const revoke = await t.app.inject({
        method: "POST",
        url: "/api/auth/revoke-other-sessions",
        headers: { cookie: laptop, origin: ORIGIN },
        payload: {},
      });
      expect(revoke.statusCode, revoke.body).toBe(200);

      const response = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: phone } });
      expect(response.json()).toEqual({ user: null, signedOutElsewhere: true });
      const cleared = cookieHeader(phoneSignIn.headers["set-cookie"], response.headers["set-cookie"]);
      expect(cleared).not.toContain("ta.session_token");
      expect((await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: cleared } })).json()).toEqual({ user: null });
      // A cookie that was never ours says nothing of the kind.
      const forged = "ta.session_token=made-up.c2lnbmF0dXJl";
      expect((await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: forged } })).json()).toEqual({ user: null });
    });

    it("reflects plan changes made on the server, and an expired paid plan counts as free", async () => {
      const email = "plans@example.com";
      const { cookie } = await createSignedInUser(t, { email, nextIp });
      const now = new Date();

      await setUserPlan(t.database.db, { email, plan: "intermediate", actorId: null, reason: "test", now });
      expect(await me(t, cookie)).toMatchObject({
        plan: "intermediate",
        accessLevel: "Intermediate",
        tracks: ["beginner", "intermediate"],
        isAdmin: false,
        subscriptionEnd: expect.any(String),
      });

      await t.database.db
        .update(users)
        .set({ subscriptionEnd: new Date(now.getTime() - 60_000) })
        .where(eq(users.email, email));
      expect(await me(t, cookie)).toMatchObject({ plan: "legacyFree", accessLevel: "Free", tracks: ["beginner"], isAdmin: false });

      await setUserPlan(t.database.db, { email, plan: "admin", actorId: null, reason: "test", now });
      expect(await me(t, cookie)).toMatchObject({
        plan: "admin",
        tracks: ["beginner", "intermediate", "advanced"],
        isAdmin: true,
        subscriptionEnd: null,
      });
    });
  });

  describe("POST /api/auth/sign-out", () => {
    it("ends the session: the same cookie no longer signs anyone in", async () => {
      const email = "leaving@example.com";
      const { cookie } = await createSignedInUser(t, { email, nextIp });
      expect(await me(t, cookie)).toMatchObject({ email });

      const response = await signOut(t, cookie);
      expect(response.statusCode, response.body).toBe(200);
      expect(await me(t, cookie)).toBeNull();
      const user = await userRow(email);
      expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    });
  });

  describe("POST /api/auth/update-user", () => {
    it("never lets a user write their own plan, provider or flags", async () => {
      const email = "self-promoter@example.com";
      const { cookie } = await createSignedInUser(t, { email, nextIp });
      const before = await userRow(email);

      const response = await t.app.inject({
        method: "POST",
        url: "/api/auth/update-user",
        headers: { cookie, origin: ORIGIN },
        payload: {
          name: "Renamed",
          subscriptionPlan: "admin",
          subscriptionStatus: "active",
          provider: "google",
          emailVerified: false,
          waitlistPaid: true,
          waitlistAdmitted: true,
          intermediatePaid: true,
          advancedPaid: true,
        },
      });
      // Better Auth accepts the request, but only the profile name is user-writable.
      expect(response.statusCode, response.body).toBe(200);

      const after = await userRow(email);
      expect(after).toMatchObject({
        name: "Renamed",
        subscriptionPlan: before.subscriptionPlan,
        subscriptionStatus: before.subscriptionStatus,
        subscriptionEnd: before.subscriptionEnd,
        provider: "email",
        emailVerified: true,
        waitlistPaid: false,
        waitlistAdmitted: false,
        intermediatePaid: false,
        advancedPaid: false,
      });
      expect(await me(t, cookie)).toMatchObject({ plan: "legacyFree", isAdmin: false, provider: "email" });
    });

    it("refuses changes without a session", async () => {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/auth/update-user",
        headers: { origin: ORIGIN },
        payload: { subscriptionPlan: "admin" },
      });
      expect(response.statusCode).toBe(401);
    });
  });
});
