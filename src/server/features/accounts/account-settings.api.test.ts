// The account page's API (docs/accounts.md): name, email, password, devices and deletion, as the
// browser calls them, and what a deletion keeps and removes.
import { eq, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES, DELETED_ACCOUNT_EMAIL } from "../../../shared/contracts/account-settings.ts";
import { AUTH_MESSAGES } from "../../../shared/contracts/accounts.ts";
import {
  accounts,
  auditLog,
  certificates,
  contacts,
  jobs,
  payments,
  sessions,
  userProgress,
  users,
} from "../../db/schema.ts";
import {
  cookieHeader,
  createSignedInUser,
  givePlan,
  ipAllocator,
  linkInLastMail,
  mailsTo,
  me,
  PASSWORD,
  signIn,
  verifyEmail,
  type TestUser,
} from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { CLOSED_ACCOUNT_REVOKE_REASON } from "./account-deletion.ts";

const nextIp = ipAllocator(30);
const NEW_PASSWORD = "a brand new password";

describe("the account page's API", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let counter = 0;
  /** A fresh signed-in learner of its own for each test. */
  function learner(name = "learner"): Promise<TestUser> {
    counter++;
    return createSignedInUser(t, { email: `${name}-${counter}@example.com`, nextIp });
  }

  function as(user: { cookie: string }, options: InjectOptions) {
    return t.app.inject({ ...options, headers: { cookie: user.cookie, origin: t.services.env.appUrl }, remoteAddress: nextIp() });
  }

  async function userRow(id: string) {
    const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  /** A second device of the same person: signed in again, with a cookie of its own. */
  async function secondDevice(user: TestUser, password = PASSWORD) {
    const response = await signIn(t, user.email, password, nextIp());
    expect(response.statusCode, response.body).toBe(200);
    return { cookie: cookieHeader(response.headers["set-cookie"]) };
  }

  const errorOf = (message: string) => expect.objectContaining({ error: expect.objectContaining({ message }) });

  describe("name", () => {
    it("is saved trimmed, and a blank one is refused with the registration form's rule", async () => {
      const user = await learner();
      const saved = await as(user, { method: "POST", url: "/api/auth/update-user", payload: { name: "  Kofi Boateng  " } });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(await me(t, user.cookie)).toMatchObject({ name: "Kofi Boateng" });

      const blank = await as(user, { method: "POST", url: "/api/auth/update-user", payload: { name: "   " } });
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual(errorOf(ACCOUNT_MESSAGES.nameRequired));
      const tooLong = await as(user, { method: "POST", url: "/api/auth/update-user", payload: { name: "x".repeat(101) } });
      expect(tooLong.statusCode).toBe(400);
      expect((await userRow(user.id))?.name).toBe("Kofi Boateng");
    });
  });

  describe("email", () => {
    const changeEmail = (user: TestUser, newEmail: string) =>
      as(user, { method: "POST", url: "/api/accounts/change-email", payload: { newEmail } });

    it("to an address another account has: the spec's message, nothing changed, no mail", async () => {
      const [user, other] = await Promise.all([learner(), learner("taken")]);
      const response = await changeEmail(user, other.email.toUpperCase());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(errorOf(ACCOUNT_MESSAGES.emailInUse));
      expect((await userRow(user.id))?.email).toBe(user.email);
      expect(await mailsTo(t, other.email)).toHaveLength(1); // its own verification mail only
    });

    it("to the same address, or one that is not an email: said so", async () => {
      const user = await learner();
      expect((await changeEmail(user, user.email)).json()).toEqual(errorOf(ACCOUNT_MESSAGES.emailUnchanged));
      expect((await changeEmail(user, "not-an-email")).json()).toEqual(errorOf(AUTH_MESSAGES.invalidEmail));
    });

    it("takes effect only once the link mailed to the new address is opened", async () => {
      const user = await learner();
      const newEmail = `moved-${counter}@example.com`;
      const response = await changeEmail(user, `  ${newEmail.toUpperCase()} `);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ message: ACCOUNT_MESSAGES.emailChangeSent(newEmail) });
      expect((await userRow(user.id))?.email).toBe(user.email);
      const [mail] = await mailsTo(t, newEmail);
      expect(mail?.subject).toBe("Confirm your new email for Trading Academy");

      const link = await linkInLastMail(t, newEmail, "/verify-email");
      const opened = await verifyEmail(t, link.searchParams.get("oobCode") ?? "", nextIp());
      expect(opened.statusCode, opened.body).toBe(200);
      expect(await userRow(user.id)).toMatchObject({ email: newEmail, emailVerified: true });
      expect((await signIn(t, newEmail, PASSWORD, nextIp())).statusCode).toBe(200);
      expect((await signIn(t, user.email, PASSWORD, nextIp())).statusCode).toBe(401);

      // The address the account had is told, once, naming the new one.
      await t.services.jobs.runDue();
      const notices = (await mailsTo(t, user.email)).filter((sent) => sent.subject === "Your Trading Academy email was changed");
      expect(notices).toHaveLength(1);
      expect(notices[0]?.text).toContain(`is now ${newEmail}`);
      expect((await verifyEmail(t, link.searchParams.get("oobCode") ?? "", nextIp())).statusCode).not.toBe(200);
      await t.services.jobs.runDue();
      expect((await mailsTo(t, user.email)).filter((sent) => sent.subject === notices[0]?.subject)).toHaveLength(1);
      expect(await mailsTo(t, newEmail)).not.toContainEqual(expect.objectContaining({ subject: notices[0]?.subject }));
    });

    it("is refused when the new address was taken before the link was opened", async () => {
      const user = await learner();
      const newEmail = `contested-${counter}@example.com`;
      expect((await changeEmail(user, newEmail)).statusCode).toBe(200);
      const link = await linkInLastMail(t, newEmail, "/verify-email");
      await createSignedInUser(t, { email: newEmail, nextIp });

      const opened = await verifyEmail(t, link.searchParams.get("oobCode") ?? "", nextIp());
      expect(opened.statusCode).toBe(400);
      expect(opened.json()).toEqual(errorOf(ACCOUNT_MESSAGES.emailInUse));
      expect((await userRow(user.id))?.email).toBe(user.email);
    });
  });

  describe("password", () => {
    const changePassword = (user: { cookie: string }, currentPassword: string) =>
      as(user, {
        method: "POST",
        url: "/api/auth/change-password",
        payload: { currentPassword, newPassword: NEW_PASSWORD, revokeOtherSessions: true },
      });

    it("needs the current one", async () => {
      const user = await learner();
      const response = await changePassword(user, "not my password");
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(errorOf(ACCOUNT_MESSAGES.passwordWrong));
      expect((await signIn(t, user.email, PASSWORD, nextIp())).statusCode).toBe(200);
    });

    it("changes, keeps this device signed in and signs the others out", async () => {
      const user = await learner();
      const other = await secondDevice(user);
      const response = await changePassword(user, PASSWORD);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).not.toContain("token");

      const thisDevice = { cookie: cookieHeader(response.headers["set-cookie"]) };
      expect(await me(t, thisDevice.cookie)).toMatchObject({ email: user.email });
      expect(await me(t, other.cookie)).toBeNull();
      expect((await signIn(t, user.email, PASSWORD, nextIp())).statusCode).toBe(401);
      expect((await signIn(t, user.email, NEW_PASSWORD, nextIp())).statusCode).toBe(200);
    });
  });

  describe("devices", () => {
    it("lists this device and the others; signs out one, then all the others", async () => {
      const user = await learner();
      const [phone, laptop] = [await secondDevice(user), await secondDevice(user)];
      const listed = await as(user, { method: "GET", url: "/api/accounts/sessions" });
      expect(listed.statusCode, listed.body).toBe(200);
      const list = listed.json<{ sessions: { id: string; current: boolean; device: string }[] }>().sessions;
      expect(list).toHaveLength(3);
      expect(list[0]).toMatchObject({ current: true });
      expect(list.filter((session) => session.current)).toHaveLength(1);
      expect(listed.body).not.toContain("token");

      const mine = list[0]?.id ?? "";
      const refusedOwn = await as(user, { method: "DELETE", url: `/api/accounts/sessions/${mine}` });
      expect(refusedOwn.statusCode).toBe(400);
      expect(refusedOwn.json()).toEqual(errorOf(ACCOUNT_MESSAGES.currentSession));

      const phoneSession = await as(phone, { method: "GET", url: "/api/accounts/sessions" });
      const phoneId = phoneSession.json<{ sessions: { id: string; current: boolean }[] }>().sessions.find((s) => s.current)?.id;
      const revoked = await as(user, { method: "DELETE", url: `/api/accounts/sessions/${phoneId}` });
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(await me(t, phone.cookie)).toBeNull();
      expect(await me(t, laptop.cookie)).not.toBeNull();

      const others = await as(user, { method: "POST", url: "/api/auth/revoke-other-sessions", payload: {} });
      expect(others.statusCode, others.body).toBe(200);
      expect(await me(t, laptop.cookie)).toBeNull();
      expect(await me(t, user.cookie)).toMatchObject({ email: user.email });
    });

    it("never signs out another person's device", async () => {
      const [user, stranger] = await Promise.all([learner(), learner("stranger")]);
      const [theirs] = await t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, stranger.id));
      const response = await as(user, { method: "DELETE", url: `/api/accounts/sessions/${theirs?.id}` });
      expect(response.statusCode).toBe(404);
      expect(await me(t, stranger.cookie)).not.toBeNull();
    });
  });

  describe("deletion", () => {
    const deleteAccount = (user: { cookie: string }, payload: Record<string, unknown>) =>
      as(user, { method: "POST", url: "/api/auth/delete-user", payload });

    async function addPayment(user: TestUser, status: "success" | "pending", reference: string) {
      await t.database.db.insert(payments).values({
        reference,
        userId: user.id,
        userEmail: user.email,
        kind: "subscription",
        plan: "intermediate",
        amountMinor: 54_000,
        priceUsdCents: 5_000,
        exchangeRate: "10.8",
        status,
      });
    }

    it("keeps the payments and audit entries anonymised, revokes certificates and removes the rest", async () => {
      const user = await learner("leaving");
      await as(user, { method: "POST", url: "/api/auth/update-user", payload: { name: "Efua Asante" } });
      const other = await secondDevice(user);
      await addPayment(user, "success", `LTF-DELETE-${counter}`);
      await givePlan(t, user.email, "intermediate");
      const { db } = t.database;
      await db.insert(auditLog).values({
        actorId: null,
        subjectUserId: user.id,
        action: "payment.refunded",
        reason: `refund asked by ${user.email.toUpperCase()} for Efua Asante`,
        changes: { note: `mailed ${user.email}`, Efua: "Efua Asanteng stays" },
      });
      await db.insert(certificates).values({ id: `TA-DEL-${counter}`, userId: user.id, holderName: "Efua Asante", programId: "beginner", programTitle: "Beginner" });
      await db.insert(contacts).values({ name: "Efua", email: user.email.toUpperCase(), message: "Hello" });

      const response = await deleteAccount(user, { password: PASSWORD });
      expect(response.statusCode, response.body).toBe(200);
      expect(await me(t, user.cookie)).toBeNull();
      expect(await me(t, other.cookie)).toBeNull();

      expect(await userRow(user.id)).toBeUndefined();
      for (const table of [sessions, accounts, userProgress]) {
        expect(await db.select().from(table).where(eq(table.userId, user.id))).toEqual([]);
      }
      expect(await db.select().from(contacts).where(sql`lower(${contacts.email}) = ${user.email}`)).toEqual([]);

      const [payment] = await db.select().from(payments).where(eq(payments.reference, `LTF-DELETE-${counter}`));
      expect(payment).toMatchObject({ userId: null, userEmail: DELETED_ACCOUNT_EMAIL, status: "success", amountMinor: 54_000 });

      const entries = await db.select().from(auditLog).where(sql`${auditLog.reason} like '%deleted account%' or ${auditLog.action} = 'plan.set'`);
      const kept = entries.filter((entry) => entry.subjectUserId === null);
      expect(kept.map((entry) => entry.action)).toEqual(expect.arrayContaining(["plan.set", "payment.refunded"]));
      const refund = kept.find((entry) => entry.action === "payment.refunded");
      expect(refund).toMatchObject({
        reason: "refund asked by [deleted account] for [deleted account]",
        changes: { note: "mailed [deleted account]", Efua: "Efua Asanteng stays" },
      });
      expect(JSON.stringify(kept)).not.toContain(user.email);

      const [certificate] = await db.select().from(certificates).where(eq(certificates.id, `TA-DEL-${counter}`));
      expect(certificate).toMatchObject({ userId: null, holderName: "", revokeReason: CLOSED_ACCOUNT_REVOKE_REASON });
      expect(certificate?.revokedAt).toBeInstanceOf(Date);

      await t.services.jobs.runDue();
      const [mail] = await mailsTo(t, user.email);
      expect(mail?.subject).toBe("Your Trading Academy account has been deleted");
      expect((await signIn(t, user.email, PASSWORD, nextIp())).statusCode).toBe(401);
    });

    it("is refused while a payment is pending, and nothing changes", async () => {
      const user = await learner();
      await addPayment(user, "pending", `LTF-PENDING-${counter}`);
      const response = await deleteAccount(user, { password: PASSWORD });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(errorOf(ACCOUNT_MESSAGES.deletePaymentPending));
      expect(await userRow(user.id)).toBeDefined();
      expect(await me(t, user.cookie)).toMatchObject({ email: user.email });
      const [payment] = await t.database.db.select().from(payments).where(eq(payments.reference, `LTF-PENDING-${counter}`));
      expect(payment).toMatchObject({ userId: user.id, userEmail: user.email });
      expect(await t.database.db.select().from(jobs).where(sql`${jobs.payload}->>'email' = ${user.email}`)).toEqual([]);
    });

    it("needs the right password when the account has one", async () => {
      const user = await learner();
      const wrong = await deleteAccount(user, { password: "not my password" });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual(errorOf(ACCOUNT_MESSAGES.passwordWrong));
      const none = await deleteAccount(user, {});
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual(errorOf(ACCOUNT_MESSAGES.deletePasswordRequired));
      expect(await me(t, user.cookie)).toMatchObject({ email: user.email });
    });

    it("without a password, needs a recent sign-in", async () => {
      const user = await learner();
      await t.database.db.update(accounts).set({ providerId: "google", password: null }).where(eq(accounts.userId, user.id));
      await t.database.db
        .update(sessions)
        .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
        .where(eq(sessions.userId, user.id));
      const stale = await deleteAccount(user, {});
      expect(stale.statusCode).toBe(400);
      expect(stale.json()).toEqual(errorOf(AUTH_MESSAGES.requiresRecentLogin));

      await t.database.db.update(sessions).set({ createdAt: new Date() }).where(eq(sessions.userId, user.id));
      const fresh = await deleteAccount(user, {});
      expect(fresh.statusCode, fresh.body).toBe(200);
      expect(await userRow(user.id)).toBeUndefined();
    });

    it("is refused to the last administrator", async () => {
      const admin = await learner("admin");
      await givePlan(t, admin.email, "admin");
      const response = await deleteAccount(admin, { password: PASSWORD });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(errorOf(ACCOUNT_MESSAGES.deleteLastAdmin));

      const second = await learner("admin");
      await givePlan(t, second.email, "admin");
      expect((await deleteAccount(admin, { password: PASSWORD })).statusCode).toBe(200);
    });
  });
});
