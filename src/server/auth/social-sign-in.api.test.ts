// Google and MQL5 sign-in against the local stand-ins, over real HTTP: Better Auth fetches the
// discovery document, tokens, keys and user info from them as it would from the real providers.
import { and, eq } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleOidcFake } from "../../../dev/fakes/google-oidc.ts";
import { mql5OAuthFake } from "../../../dev/fakes/mql5-oauth.ts";
import { LIMIT_MESSAGES } from "../../shared/contracts/accounts.ts";
import { accounts, userProgress, users } from "../db/schema.ts";
import {
  cookieHeader,
  createVerifiedAccount,
  givePlan,
  ipAllocator,
  limitAnswer,
  linkInLastMail,
  mailsTo,
  me,
  ORIGIN,
  sessionSetCookie,
  signOut,
} from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { LIBRARY_LIMITS } from "./auth-limits.ts";

const nextIp = ipAllocator(24);

type Provider = "google" | "mql5";
type Fields = Record<string, string | undefined>;

const ERROR_CALLBACK = (provider: Provider) => `/login?provider=${provider}`;

function unescapeHtml(value: string): string {
  return value
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

async function startFakes() {
  const fakes = Fastify();
  await fakes.register(googleOidcFake, { prefix: "/dev/fakes/google" });
  await fakes.register(mql5OAuthFake, { prefix: "/dev/fakes/mql5" });
  await fakes.listen({ host: "127.0.0.1", port: 0 });
  const address = fakes.server.address();
  if (typeof address !== "object" || address === null) throw new Error("the fakes are not listening");
  return { fakes, base: `http://127.0.0.1:${address.port}` };
}

describe("social sign-in through the local identity providers", () => {
  let fakes: FastifyInstance;
  let t: TestApp;

  beforeAll(async () => {
    const started = await startFakes();
    fakes = started.fakes;
    const mql5 = `${started.base}/dev/fakes/mql5`;
    t = await createTestApp({
      env: {
        GOOGLE_CLIENT_ID: "trading-academy-google",
        GOOGLE_CLIENT_SECRET: "google-test-secret",
        GOOGLE_DISCOVERY_URL: `${started.base}/dev/fakes/google/.well-known/openid-configuration`,
        MQL5_CLIENT_ID: "trading-academy-mql5",
        MQL5_CLIENT_SECRET: "mql5-test-secret",
        MQL5_AUTHORIZE_URL: `${mql5}/en/oauth/login`,
        MQL5_TOKEN_URL: `${mql5}/api/oauth/access_token`,
        MQL5_USERINFO_URL: `${mql5}/api/oauth/user_info`,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fakes.close();
  });

  /** The browser's POST /api/auth/sign-in/social: where to go, and the state cookies set on the way. */
  async function startSignIn(provider: Provider, from = nextIp()) {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/social",
      headers: { origin: ORIGIN },
      payload: { provider, callbackURL: "/", errorCallbackURL: ERROR_CALLBACK(provider) },
      remoteAddress: from,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ url: string; redirect: boolean }>();
    expect(body.redirect).toBe(true);
    return { authorizeUrl: new URL(body.url), cookies: cookieHeader(response.headers["set-cookie"]) };
  }

  /** The person on the provider's page: loads it, fills the form, presses a button. */
  async function consent(authorizeUrl: URL, fields: Fields): Promise<URL> {
    const page = await fetch(authorizeUrl);
    const html = await page.text();
    expect(page.status, html).toBe(200);
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
    if (!action) throw new Error(`no form on the consent page:\n${html}`);
    const form = new URLSearchParams();
    for (const [, name = "", value = ""] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      form.set(unescapeHtml(name), unescapeHtml(value));
    }
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(name, value);
    const response = await fetch(new URL(unescapeHtml(action), authorizeUrl), { method: "POST", body: form, redirect: "manual" });
    expect(response.status, await response.text()).toBe(302);
    return new URL(response.headers.get("location") ?? "");
  }

  /** The provider's redirect arriving at our callback with the browser's cookies. */
  function callback(provider: Provider, providerRedirect: URL, cookies: string) {
    // MQL5 returns to the login page, which hands code and state to the callback unchanged.
    const path = `/api/auth/callback/${provider}${providerRedirect.search}`;
    return t.app.inject({ method: "GET", url: path, headers: { cookie: cookies }, remoteAddress: nextIp() });
  }

  async function signInWith(provider: Provider, fields: Fields) {
    const { authorizeUrl, cookies } = await startSignIn(provider);
    const providerRedirect = await consent(authorizeUrl, fields);
    return { providerRedirect, response: await callback(provider, providerRedirect, cookies) };
  }

  async function usersWithEmail(email: string) {
    return t.database.db.select().from(users).where(eq(users.email, email));
  }

  const googleIdentity = (email: string, overrides: Fields = {}): Fields => ({
    email,
    name: "Google Learner",
    email_verified: "true",
    action: "approve",
    ...overrides,
  });

  const mql5Identity = (login: string, email: string): Fields => ({ login, email, action: "approve" });

  describe("Google", () => {
    it("a room pressing Sign in with Google from one address: every press starts a sign-in, 60 in 5 minutes, then a message about sign-ins", async () => {
      const room = nextIp();
      const max = LIBRARY_LIMITS["/sign-in/social"].max;
      for (let press = 1; press <= max; press++) await startSignIn("google", room);
      const limited = await t.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/social",
        headers: { origin: ORIGIN },
        payload: { provider: "google", callbackURL: "/", errorCallbackURL: ERROR_CALLBACK("google") },
        remoteAddress: room,
      });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual(limitAnswer(LIMIT_MESSAGES.signIns));
      expect(limited.json().error.message).not.toMatch(/password/i);
    });

    it("sends the browser to the provider with PKCE, a nonce and the profile and email scopes", async () => {
      const { authorizeUrl, cookies } = await startSignIn("google");
      expect(authorizeUrl.pathname).toBe("/dev/fakes/google/authorize");
      expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
        client_id: "trading-academy-google",
        redirect_uri: "http://localhost:3000/api/auth/callback/google",
        response_type: "code",
        code_challenge_method: "S256",
        state: expect.any(String),
        nonce: expect.any(String),
      });
      expect(authorizeUrl.searchParams.get("scope")?.split(" ").sort()).toEqual(["email", "openid", "profile"]);
      expect(cookies).toMatch(/ta\.state=/);
    });

    it("creates a verified free account and signs it in", async () => {
      const email = "new-googler@gmail.test";
      const { providerRedirect, response } = await signInWith("google", googleIdentity(email));
      expect(providerRedirect.origin + providerRedirect.pathname).toBe("http://localhost:3000/api/auth/callback/google");
      expect(providerRedirect.searchParams.get("code")).toBeTruthy();

      expect(response.statusCode, response.body).toBe(302);
      expect(response.headers.location).toBe("/");
      const session = sessionSetCookie(response);
      expect(session).toBeDefined();
      expect(await me(t, cookieHeader(response.headers["set-cookie"]))).toMatchObject({
        email,
        name: "Google Learner",
        emailVerified: true,
        provider: "google",
        plan: "legacyFree",
        accessLevel: "Free",
        tracks: ["beginner"],
        isAdmin: false,
      });

      const [user] = await usersWithEmail(email);
      expect(user).toMatchObject({ provider: "google", subscriptionPlan: "legacyFree" });
      expect(user?.lastActiveAt).not.toBeNull();
      const progress = await t.database.db.select().from(userProgress).where(eq(userProgress.userId, user?.id ?? ""));
      expect(progress).toEqual([expect.objectContaining({ programId: "beginner", data: {} })]);
      const linked = await t.database.db.select().from(accounts).where(eq(accounts.userId, user?.id ?? ""));
      expect(linked.map((a) => a.providerId)).toEqual(["google"]);
    });

    it("signs a returning Google user into the same account", async () => {
      const email = "returning-googler@gmail.test";
      const first = await signInWith("google", googleIdentity(email));
      expect(first.response.statusCode).toBe(302);
      const second = await signInWith("google", googleIdentity(email, { name: "Renamed At Google" }));
      expect(second.response.statusCode).toBe(302);
      expect(second.response.headers.location).toBe("/");
      expect(await usersWithEmail(email)).toHaveLength(1);
      expect(await me(t, cookieHeader(second.response.headers["set-cookie"]))).toMatchObject({ email, provider: "google" });
    });

    it("returns to the error page with access_denied when the person cancels", async () => {
      const { providerRedirect, response } = await signInWith("google", { action: "cancel" });
      expect(providerRedirect.searchParams.get("error")).toBe("access_denied");
      expect(response.statusCode).toBe(302);
      const location = new URL(String(response.headers.location), ORIGIN);
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("provider")).toBe("google");
      expect(location.searchParams.get("error")).toBe("access_denied");
      expect(sessionSetCookie(response)).toBeUndefined();
    });

    it("does not join a Google sign-in to an existing password account with the same email", async () => {
      const email = "has-password@gmail.test";
      await createVerifiedAccount(t, email, nextIp);
      const { response } = await signInWith("google", googleIdentity(email));

      expect(response.statusCode).toBe(302);
      const location = new URL(String(response.headers.location), ORIGIN);
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("provider")).toBe("google");
      expect(location.searchParams.get("error")).toBe("account_not_linked");
      expect(sessionSetCookie(response)).toBeUndefined();

      const rows = await usersWithEmail(email);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.provider).toBe("email");
      const google = await t.database.db
        .select()
        .from(accounts)
        .where(and(eq(accounts.userId, rows[0]?.id ?? ""), eq(accounts.providerId, "google")));
      expect(google).toEqual([]);
    });

    it("refuses an email Google has not verified, mails a link to verify it, and signs in once it is", async () => {
      const email = "unverified-googler@gmail.test";
      const expectRefused = (response: { statusCode: number; headers: Record<string, unknown> }) => {
        expect(response.statusCode).toBe(302);
        const location = new URL(String(response.headers.location), ORIGIN);
        expect(location.pathname).toBe("/login");
        expect(location.searchParams.get("provider")).toBe("google");
        expect(location.searchParams.get("error")).toBe("email_not_verified");
      };
      const first = await signInWith("google", googleIdentity(email, { email_verified: undefined }));
      expectRefused(first.response);
      expect(sessionSetCookie(first.response)).toBeUndefined();
      const [user] = await usersWithEmail(email);
      expect(user).toMatchObject({ emailVerified: false, provider: "google", subscriptionPlan: "legacyFree" });
      // The sign-up mails the first link, a later sign-in another.
      expect(await mailsTo(t, email)).toHaveLength(1);
      const again = await signInWith("google", googleIdentity(email, { email_verified: undefined }));
      expectRefused(again.response);
      expect(await mailsTo(t, email)).toHaveLength(2);

      const link = await linkInLastMail(t, email, "/verify-email");
      const verified = await t.app.inject({
        url: `/api/auth/verify-email?${new URLSearchParams({ token: link.searchParams.get("oobCode") ?? "" })}`,
        remoteAddress: nextIp(),
      });
      expect(verified.statusCode, verified.body).toBe(200);
      const signedIn = await signInWith("google", googleIdentity(email, { email_verified: undefined }));
      expect(signedIn.response.headers.location).toBe("/");
      expect(await me(t, cookieHeader(signedIn.response.headers["set-cookie"]))).toMatchObject({ email, emailVerified: true });
    });

    it("sends a return it cannot match to a sign-in, and its own error page, back to /login with the code", async () => {
      const stale = await t.app.inject({ url: "/api/auth/callback/google?state=from-yesterday&code=abc", remoteAddress: nextIp() });
      expect(stale.statusCode).toBe(302);
      const location = new URL(String(stale.headers.location), ORIGIN);
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("error")).toBe("state_mismatch");

      const errorPage = await t.app.inject({ url: "/api/auth/error?error=unable_to_get_user_info", remoteAddress: nextIp() });
      expect(errorPage.statusCode).toBe(302);
      expect(errorPage.headers.location).toBe(`${ORIGIN}/login?error=unable_to_get_user_info`);
    });

    it("refuses a second return of the same sign-in (the back button), without signing in", async () => {
      const email = "back-button@gmail.test";
      const { authorizeUrl, cookies } = await startSignIn("google");
      const providerRedirect = await consent(authorizeUrl, googleIdentity(email));
      expect((await callback("google", providerRedirect, cookies)).headers.location).toBe("/");
      const replay = await callback("google", providerRedirect, cookies);
      expect(replay.statusCode).toBe(302);
      const location = new URL(String(replay.headers.location), ORIGIN);
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("error")).toBe("state_mismatch");
      expect(sessionSetCookie(replay)).toBeUndefined();
    });

    it("refuses a callback without the state cookie from the same browser", async () => {
      const { authorizeUrl } = await startSignIn("google");
      const providerRedirect = await consent(authorizeUrl, googleIdentity("no-cookie@gmail.test"));
      const response = await callback("google", providerRedirect, "");
      expect(response.statusCode).toBe(302);
      const location = new URL(String(response.headers.location), ORIGIN);
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("error")).toBe("state_mismatch");
      expect(sessionSetCookie(response)).toBeUndefined();
      expect(await usersWithEmail("no-cookie@gmail.test")).toEqual([]);
    });
  });

  describe("MQL5", () => {
    it("sends the browser to MQL5 with the login page as the redirect URI", async () => {
      const { authorizeUrl } = await startSignIn("mql5");
      expect(authorizeUrl.pathname).toBe("/dev/fakes/mql5/en/oauth/login");
      expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
        client_id: "trading-academy-mql5",
        redirect_uri: "http://localhost:3000/login",
        response_type: "code",
        state: expect.any(String),
      });
    });

    it("creates an MQL5 account, and a returning MQL5 user keeps a paid plan", async () => {
      const email = "trader@mql5.test";
      const first = await signInWith("mql5", mql5Identity("mql5trader", email));
      expect(first.providerRedirect.origin + first.providerRedirect.pathname).toBe("http://localhost:3000/login");
      expect(first.response.statusCode, first.response.body).toBe(302);
      expect(first.response.headers.location).toBe("/");
      const cookie = cookieHeader(first.response.headers["set-cookie"]);
      expect(await me(t, cookie)).toMatchObject({
        email,
        name: "mql5trader",
        emailVerified: true,
        provider: "mql5",
        plan: "legacyFree",
      });
      const [user] = await usersWithEmail(email);
      const progress = await t.database.db.select().from(userProgress).where(eq(userProgress.userId, user?.id ?? ""));
      expect(progress).toEqual([expect.objectContaining({ programId: "beginner" })]);

      await givePlan(t, email, "intermediate");
      expect((await signOut(t, cookie)).statusCode).toBe(200);
      expect(await me(t, cookie)).toBeNull();

      const again = await signInWith("mql5", mql5Identity("mql5trader", email));
      expect(again.response.statusCode).toBe(302);
      expect(await me(t, cookieHeader(again.response.headers["set-cookie"]))).toMatchObject({
        id: user?.id,
        provider: "mql5",
        plan: "intermediate",
        tracks: ["beginner", "intermediate"],
      });
      expect(await usersWithEmail(email)).toHaveLength(1);
    });

    it("returns to the error page with access_denied when the person cancels", async () => {
      const { response } = await signInWith("mql5", { action: "cancel" });
      expect(response.statusCode).toBe(302);
      const location = new URL(String(response.headers.location), ORIGIN);
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("provider")).toBe("mql5");
      expect(location.searchParams.get("error")).toBe("access_denied");
      expect(sessionSetCookie(response)).toBeUndefined();
    });
  });

  it("reports both providers as configured in /api/site", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/site" });
    expect(response.json()).toMatchObject({ auth: { google: true, mql5: true } });
  });
});

describe("social sign-in when no provider is configured", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it("reports both providers as off in /api/site", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/site" });
    expect(response.json()).toMatchObject({ auth: { google: false, mql5: false } });
  });

  it.each(["google", "mql5"])("refuses to start a %s sign-in", async (provider) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/social",
      headers: { origin: ORIGIN },
      payload: { provider, callbackURL: "/", errorCallbackURL: "/login" },
      remoteAddress: nextIp(),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: "PROVIDER_NOT_FOUND" } });
  });
});
