// Attack suite (docs/product.md, "Limits"): the auth library's paths spelled another way. The library reads
// the path of the URL it is handed, which the URL parser has already normalised (`./`, `x/..`,
// `%2E`), so a spelling the app's router does not know as sign-in or update-user must neither reach
// the library around the app's checks nor skip the checks inside it. Sent over real HTTP with the
// exact request line: `fetch` and `app.inject` normalise dot segments before the app sees them.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAPIError } from "better-auth/api";
import { sessions, users } from "../db/schema.ts";
import { LOCKOUT_FAILURES } from "../auth/login-lockout.ts";
import { createSignedInUser, createVerifiedAccount, ipAllocator, PASSWORD } from "../testing/accounts.ts";
import { loopbackCall, type LoopbackAnswer } from "../testing/loopback-http.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const nextIp = ipAllocator(66);
const nextLoopback = ipAllocator(66, 127);

/** Every spelling of /api/auth/sign-in/email a client might try, other than the plain one. */
const SIGN_IN_SPELLINGS = [
  "/api/auth/./sign-in/email",
  "/api/auth//sign-in/email",
  "/api/auth/sign-in/email/",
  "/api/auth/sign-in//email",
  "/api/auth/%2E/sign-in/email",
  "/api/auth/%2e/sign-in/email",
  "/api/auth/x/../sign-in/email",
  "/api/auth/x/%2E%2E/sign-in/email",
  "/api/auth/sign-in/./email",
  "/api/auth/sign-in/x/../email",
  "/api/auth/sign-in/email/.",
  "/api/auth/sign-in/email/x/..",
  "/api/auth/.//sign-in/email",
  "/api/./auth/sign-in/email",
  "/api/auth/../auth/sign-in/email",
  "/api/auth/sign-in/%65mail",
  "/api/auth/Sign-In/Email",
  "/api/auth/sign-in/email;",
  "/api/auth/sign-in/email%2F",
  "/api/auth/sign-in/email?x=1",
  "/api/auth/sign-in/email#x",
];

/** The same for /api/auth/update-user. */
const UPDATE_USER_SPELLINGS = [
  "/api/auth/./update-user",
  "/api/auth//update-user",
  "/api/auth/update-user/",
  "/api/auth/%2E/update-user",
  "/api/auth/%2e/update-user",
  "/api/auth/x/../update-user",
  "/api/auth/x/%2E%2E/update-user",
  "/api/auth/update-user/.",
  "/api/auth/update-user/x/..",
  "/api/./auth/update-user",
  "/api/auth/../auth/update-user",
  "/api/auth/%75pdate-user",
  "/api/auth/Update-User",
  "/api/auth/update-user;",
  "/api/auth/update-user%2F",
  "/api/auth/update-user?x=1",
];

function sessionCookieIn(answer: LoopbackAnswer): string | undefined {
  return answer.setCookies.find((cookie) => /session_token=[^;]/.test(cookie));
}

describe("auth paths spelled another way, over real HTTP", () => {
  let t: TestApp;
  let appUrl: string;
  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    appUrl = t.baseUrl ?? "";
  });
  afterAll(() => t.close());

  const raw = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    loopbackCall(appUrl, nextLoopback(), "POST", path, body, headers);

  async function userRow(email: string) {
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    if (!row) throw new Error(`no user ${email}`);
    return row;
  }

  it("with the account locked, no spelling of the sign-in path signs in, nor tells a right password from a wrong one", async () => {
    const email = "locked-paths@example.com";
    await createVerifiedAccount(t, email, nextIp);
    for (let attempt = 1; attempt <= LOCKOUT_FAILURES; attempt++) {
      expect((await raw("/api/auth/sign-in/email", { email, password: `wrong ${attempt}` })).status, `attempt ${attempt}`).toBe(401);
    }
    expect((await raw("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(429);

    for (const path of SIGN_IN_SPELLINGS) {
      const right = await raw(path, { email, password: PASSWORD });
      const wrong = await raw(path, { email, password: "wrong again" });
      expect(right.status, `${path}: ${JSON.stringify(right.body)}`).toBeGreaterThanOrEqual(400);
      expect(right.status, path).toBeLessThan(500);
      expect(sessionCookieIn(right), path).toBeUndefined();
      // The same answer for the right password as for a wrong one: nothing learned.
      expect(right.status, path).toBe(wrong.status);
      expect(right.body, path).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    const user = await userRow(email);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
  });

  it("30 wrong guesses spread over every spelling get at most 5 passwords checked, each counted toward the lockout", async () => {
    const email = "guessed-paths@example.com";
    await createVerifiedAccount(t, email, nextIp);
    let checked = 0;
    for (let guess = 0; guess < 30; guess++) {
      const path = SIGN_IN_SPELLINGS[guess % SIGN_IN_SPELLINGS.length] ?? "";
      const answer = await raw(path, { email, password: `guess ${guess}` });
      // 401 is the library's verdict on a password it checked.
      if (answer.status === 401) checked++;
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
    }
    expect(checked).toBeLessThanOrEqual(LOCKOUT_FAILURES);
    // What was checked counted toward the lockout.
    const right = await raw("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(right.status).toBe(checked >= LOCKOUT_FAILURES ? 429 : 200);
  });

  it("update-user through any spelling stores neither a 50,000-character name nor an image", async () => {
    const email = "long-name-paths@example.com";
    const { cookie } = await createSignedInUser(t, { email, nextIp });
    const before = await userRow(email);
    for (const path of UPDATE_USER_SPELLINGS) {
      const answer = await raw(path, { name: "N".repeat(50_000), image: "https://evil.test/x.png" }, { cookie });
      expect(answer.status, `${path}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
    const after = await userRow(email);
    expect(after.name).toBe(before.name);
    expect(after.image).toBeNull();

    // The plain path keeps the rule too: at most 100 characters, and the name only.
    const plain = await raw("/api/auth/update-user", { name: "N".repeat(101) }, { cookie });
    expect(plain.status).toBe(400);
    expect((await userRow(email)).name).toBe(before.name);
    expect((await raw("/api/auth/update-user", { name: "Renamed Learner" }, { cookie })).status).toBe(200);
    expect((await userRow(email)).name).toBe("Renamed Learner");
  });

  it("an unknown or non-canonical path under /api/auth is a 404 in the app's error shape", async () => {
    for (const path of ["/api/auth/./sign-in/email", "/api/auth/sign-in/email/", "/api/auth/no-such-endpoint", "/api/auth/request-password-reset"]) {
      const answer = await raw(path, { email: "nobody@example.com", password: "guess" });
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String), requestId: expect.any(String) } });
    }
  });
});

describe("the checks live inside the auth library, whatever reaches it", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const origin = () => t.services.env.appUrl;
  const libraryRequest = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    t.services.auth.handler(
      new Request(new URL(path, origin()), {
        method: "POST",
        headers: { origin: origin(), "content-type": "application/json", "x-client-ip": nextIp(), ...headers },
        body: JSON.stringify(body),
      }),
    );

  it("a locked account is refused by the library's own handler and by a direct call, even with the right password", async () => {
    const email = "locked-inside@example.com";
    await createVerifiedAccount(t, email, nextIp);
    for (let attempt = 1; attempt <= LOCKOUT_FAILURES; attempt++) {
      expect((await libraryRequest("/api/auth/sign-in/email", { email, password: `wrong ${attempt}` })).status).toBe(401);
    }
    for (const path of ["/api/auth/sign-in/email", "/api/auth/./sign-in/email", "/api/auth/x/../sign-in/email"]) {
      const response = await libraryRequest(path, { email, password: PASSWORD });
      expect(response.status, path).toBe(429);
      expect(response.headers.getSetCookie().some((cookie) => /session_token=[^;]/.test(cookie)), path).toBe(false);
    }
    const direct = await t.services.auth.api
      .signInEmail({ body: { email, password: PASSWORD }, headers: new Headers({ "x-client-ip": nextIp() }) })
      .then(
        () => "signed in",
        (error: unknown) => (isAPIError(error) ? error.statusCode : "other error"),
      );
    expect(direct).toBe(429);
  });

  it("the library's own handler refuses a name over 100 characters and any field but the name", async () => {
    const email = "long-name-inside@example.com";
    const { cookie } = await createSignedInUser(t, { email, nextIp });
    const [before] = await t.database.db.select().from(users).where(eq(users.email, email));
    for (const body of [{ name: "N".repeat(50_000) }, { name: 42 }, { name: "Fine", image: "https://evil.test/x.png" }, { image: "https://evil.test/x.png" }]) {
      const response = await libraryRequest("/api/auth/./update-user", body, { cookie });
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    const [after] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(after).toEqual(before);
    // A session cookie from a sign-in still works for a plain rename.
    expect((await libraryRequest("/api/auth/update-user", { name: "Inside Renamed" }, { cookie })).status).toBe(200);
  });
});
