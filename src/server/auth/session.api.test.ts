// The one-query session read against the auth library's own rules: a cookie is honoured exactly
// when the library would honour it, and the library still extends and removes sessions.
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../db/schema.ts";
import { createSignedInUser, givePlan, ipAllocator, me, signOut, type TestUser } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { signedSessionToken } from "./session.ts";

const nextIp = ipAllocator(70);
const DAY_MS = 24 * 60 * 60 * 1000;

describe("who is calling: the session cookie read in one query", () => {
  let t: TestApp;
  let cookieName: string;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp();
    const context = await t.services.auth.$context;
    cookieName = context.authCookies.sessionToken.name;
    secret = context.secret;
  });
  afterAll(() => t.close());

  const sign = (token: string, key = secret) =>
    `${cookieName}=${encodeURIComponent(`${token}.${createHmac("sha256", key).update(token).digest("base64")}`)}`;

  async function sessionOf(user: TestUser) {
    const token = signedSessionToken(user.cookie, cookieName, secret);
    if (!token) throw new Error("no signed session token in the test user's cookie");
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.token, token));
    if (!row) throw new Error("no session row");
    return row;
  }

  const learningStatus = async (cookie: string) =>
    (await t.app.inject({ method: "GET", url: "/api/programs/beginner", headers: { cookie } })).statusCode;

  it("reads the token the auth library signed at sign-in, and nothing else", async () => {
    const user = await createSignedInUser(t, { email: "session-reader@example.com", nextIp });
    const token = signedSessionToken(user.cookie, cookieName, secret);
    expect(token).toMatch(/^[A-Za-z0-9]{16,}$/);
    expect(sign(token ?? "")).toBe(user.cookie.split("; ").find((part) => part.startsWith(`${cookieName}=`)));

    expect(signedSessionToken(undefined, cookieName, secret)).toBeNull();
    expect(signedSessionToken("other=1", cookieName, secret)).toBeNull();
    expect(signedSessionToken(`${cookieName}=${token}`, cookieName, secret)).toBeNull();
    expect(signedSessionToken(sign(token ?? "", "another secret"), cookieName, secret)).toBeNull();
    const signed = sign(token ?? "");
    const firstOfSignature = signed.lastIndexOf(".") + 1;
    const flipped = signed[firstOfSignature] === "A" ? "B" : "A";
    const tampered = `${signed.slice(0, firstOfSignature)}${flipped}${signed.slice(firstOfSignature + 1)}`;
    expect(signedSessionToken(tampered, cookieName, secret)).toBeNull();
  });

  it("answers the signed-in user, and 401 for a tampered, unsigned or unknown token", async () => {
    const user = await createSignedInUser(t, { email: "session-owner@example.com", nextIp });
    expect(await me(t, user.cookie)).toMatchObject({ email: "session-owner@example.com" });
    expect(await learningStatus(user.cookie)).toBe(200);

    const { token } = await sessionOf(user);
    const forgedWithoutSecret = `${cookieName}=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`;
    for (const cookie of [forgedWithoutSecret, `${cookieName}=${token}`, sign("a-token-nobody-was-given")]) {
      expect(await me(t, cookie), cookie).toBeNull();
      expect(await learningStatus(cookie), cookie).toBe(401);
    }
  });

  it("stops honouring a session the moment it is signed out or revoked", async () => {
    const user = await createSignedInUser(t, { email: "session-revoked@example.com", nextIp });
    expect(await learningStatus(user.cookie)).toBe(200);
    expect((await signOut(t, user.cookie)).statusCode).toBe(200);
    expect(await learningStatus(user.cookie)).toBe(401);

    const other = await createSignedInUser(t, { email: "session-deleted@example.com", nextIp });
    await t.database.db.delete(sessions).where(eq(sessions.token, (await sessionOf(other)).token));
    expect(await learningStatus(other.cookie)).toBe(401);
  });

  it("lets the auth library remove an expired session", async () => {
    const user = await createSignedInUser(t, { email: "session-expired@example.com", nextIp });
    const { token } = await sessionOf(user);
    await t.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.token, token));
    expect(await learningStatus(user.cookie)).toBe(401);
    expect(await me(t, user.cookie)).toBeNull();
    expect(await t.database.db.select().from(sessions).where(eq(sessions.token, token))).toEqual([]);
  });

  it("lets the auth library extend a session used a day after it was last extended", async () => {
    const { sessionConfig } = await t.services.auth.$context;
    const user = await createSignedInUser(t, { email: "session-extended@example.com", nextIp });
    const { token } = await sessionOf(user);
    const lifetimeMs = sessionConfig.expiresIn * 1000;
    const fresh = new Date(Date.now() + lifetimeMs - 60_000);
    await t.database.db.update(sessions).set({ expiresAt: fresh }).where(eq(sessions.token, token));
    expect(await learningStatus(user.cookie)).toBe(200);
    expect((await sessionOf(user)).expiresAt).toEqual(fresh);

    const dayOld = new Date(Date.now() + lifetimeMs - sessionConfig.updateAge * 1000 - 60_000);
    await t.database.db.update(sessions).set({ expiresAt: dayOld }).where(eq(sessions.token, token));
    expect(await learningStatus(user.cookie)).toBe(200);
    const extended = (await sessionOf(user)).expiresAt.getTime();
    expect(extended).toBeGreaterThan(Date.now() + lifetimeMs - DAY_MS / 24);
  });
});

describe("who is calling, served over HTTPS", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: "https://academy.example" } });
  });
  afterAll(() => t.close());

  it("reads the __Secure- session cookie the auth library sets there", async () => {
    const user = await createSignedInUser(t, { email: "secure-session@example.com", nextIp });
    expect(user.cookie).toMatch(/^__Secure-ta\.session_token=/);
    expect(await me(t, user.cookie)).toMatchObject({ email: "secure-session@example.com" });
    expect((await t.app.inject({ method: "GET", url: "/api/programs/beginner", headers: { cookie: user.cookie } })).statusCode).toBe(200);
    const withoutPrefix = user.cookie.replace(/^__Secure-/, "");
    expect((await t.app.inject({ method: "GET", url: "/api/programs/beginner", headers: { cookie: withoutPrefix } })).statusCode).toBe(401);
  });
});

describe("who is calling, on two app instances sharing one database", () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ database: first.database });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const trackStatus = async (t: TestApp, cookie: string, track = "beginner") =>
    (await t.app.inject({ method: "GET", url: `/api/programs/${track}`, headers: { cookie } })).statusCode;

  it("sees a plan change and a sign-out made on the other at once (nothing is kept per instance)", async () => {
    const user = await createSignedInUser(first, { email: "session-two-instances@example.com", nextIp });
    expect(await trackStatus(second, user.cookie)).toBe(200);
    expect(await trackStatus(second, user.cookie, "advanced")).toBe(403);
    await givePlan(first, user.email, "advanced");
    expect(await trackStatus(second, user.cookie, "advanced")).toBe(200);
    expect((await signOut(first, user.cookie)).statusCode).toBe(200);
    expect(await trackStatus(second, user.cookie)).toBe(401);
    expect(await trackStatus(first, user.cookie)).toBe(401);
  });
});
