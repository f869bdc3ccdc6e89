import { createHash, randomBytes } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { devFakesRoutes } from "./fakes.routes.ts";
import { GOOGLE_PAGE_TITLE, googleOidcFake } from "./google-oidc.ts";
import { CLOCK_START, compact, FORM_HEADERS, startFakeProvider, type Fields } from "./oauth-fake-testing.ts";

const HOST = "localhost:3000";
const ISSUER = `http://${HOST}/dev/fakes/google`;
const CLIENT_ID = "trading-academy-web";
const CLIENT_SECRET = "dev-secret";
const REDIRECT_URI = "http://localhost:3000/api/auth/callback/google";

function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

type Flow = { verifier: string; challenge: string; state: string; nonce: string; redirectUri: string };

function newFlow(overrides: Partial<Flow> = {}): Flow {
  return { ...pkcePair(), state: "state-123", nonce: "nonce-456", redirectUri: REDIRECT_URI, ...overrides };
}

function authorizeParams(flow: Flow, overrides: Fields = {}): Record<string, string> {
  return compact({
    client_id: CLIENT_ID,
    redirect_uri: flow.redirectUri,
    response_type: "code",
    scope: "openid email profile",
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: flow.challenge,
    code_challenge_method: "S256",
    ...overrides,
  });
}

const authorizeQuery = (flow: Flow, overrides: Fields = {}) => new URLSearchParams(authorizeParams(flow, overrides)).toString();

describe("Google OIDC stand-in", () => {
  let app: FastifyInstance;
  let clock: number;

  beforeEach(async () => {
    clock = CLOCK_START;
    app = await startFakeProvider(googleOidcFake, "/dev/fakes/google", () => clock);
  });
  afterEach(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: "GET", url, headers: { host: HOST, ...headers } });
  const post = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({ method: "POST", url, headers: { host: HOST, ...FORM_HEADERS, ...headers }, payload: new URLSearchParams(form).toString() });

  /** Approves the consent form as a person would, returning the redirect's query. */
  async function approve(flow: Flow, fields: Fields = {}) {
    const response = await post(
      "/dev/fakes/google/approve",
      compact({
        ...authorizeParams(flow),
        email: "learner@gmail.test",
        name: "Google Learner",
        email_verified: "true",
        action: "approve",
        ...fields,
      }),
    );
    expect(response.statusCode).toBe(302);
    return new URL(String(response.headers.location));
  }

  async function codeFor(flow: Flow, fields: Fields = {}) {
    return (await approve(flow, fields)).searchParams.get("code") ?? "";
  }

  const exchange = (code: string, flow: Flow, overrides: Fields = {}, headers: Record<string, string> = {}) =>
    post(
      "/dev/fakes/google/token",
      compact({
        grant_type: "authorization_code",
        code,
        redirect_uri: flow.redirectUri,
        code_verifier: flow.verifier,
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        ...overrides,
      }),
      headers,
    );

  /** Verifies as a relying party would: signature against the JWKS, issuer, audience, expiry. */
  async function verifyIdToken(idToken: string) {
    const jwks = (await get("/dev/fakes/google/jwks")).json<JSONWebKeySet>();
    const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
      issuer: ISSUER,
      audience: CLIENT_ID,
      algorithms: ["RS256"],
      currentDate: new Date(clock),
    });
    return payload;
  }

  async function idTokenClaims(flow: Flow, fields: Fields = {}) {
    const token = await exchange(await codeFor(flow, fields), flow);
    return verifyIdToken(token.json<{ id_token: string }>().id_token);
  }

  it("publishes a discovery document whose endpoints sit under the issuer", async () => {
    const response = await get("/dev/fakes/google/.well-known/openid-configuration");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      userinfo_endpoint: `${ISSUER}/userinfo`,
      jwks_uri: `${ISSUER}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "email", "profile"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    });
  });

  it("walks the whole sign-in: consent page, code, verified ID token, userinfo", async () => {
    const flow = newFlow();
    const page = await get(`/dev/fakes/google/authorize?${authorizeQuery(flow)}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain(`<title>${GOOGLE_PAGE_TITLE}</title>`);
    expect(page.body).toContain('<form method="post" action="/dev/fakes/google/approve">');
    expect(page.body).toContain(`<input type="hidden" name="code_challenge" value="${flow.challenge}">`);
    expect(page.body).toContain('<input type="hidden" name="nonce" value="nonce-456">');
    expect(page.body).toMatch(/<label for="field-email">Email<\/label>\s*<input id="field-email" name="email" type="email" value="learner@gmail.test"/);
    expect(page.body).toMatch(/<label for="field-name">Name<\/label>\s*<input id="field-name" name="name" type="text" value="Google Learner"/);
    expect(page.body).toMatch(/<input id="field-email_verified" name="email_verified" type="checkbox" value="true" checked>\s*<label for="field-email_verified"[^>]*>Email verified<\/label>/);
    expect(page.body).toContain('<button type="submit" name="action" value="approve">Continue</button>');
    expect(page.body).toContain('name="action" value="cancel" formnovalidate>Cancel</button>');
    expect(page.body).not.toContain("<script");

    const callback = await approve(flow);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("state")).toBe(flow.state);
    const code = callback.searchParams.get("code") ?? "";
    expect(code).not.toBe("");

    const token = await exchange(code, flow);
    expect(token.statusCode).toBe(200);
    expect(token.headers["cache-control"]).toBe("no-store");
    const body = token.json<{ access_token: string; id_token: string }>();
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "openid email profile" });

    const claims = await verifyIdToken(body.id_token);
    expect(claims).toMatchObject({
      nonce: flow.nonce,
      email: "learner@gmail.test",
      email_verified: true,
      name: "Google Learner",
    });
    expect(claims.sub).toMatch(/^[0-9a-f]{21}$/);
    expect(claims.exp).toBe(Math.floor(clock / 1000) + 3600);

    const userinfo = await get("/dev/fakes/google/userinfo", { authorization: `Bearer ${body.access_token}` });
    expect(userinfo.statusCode).toBe(200);
    expect(userinfo.json()).toEqual({
      sub: claims.sub,
      email: "learner@gmail.test",
      email_verified: true,
      name: "Google Learner",
    });
  });

  it("accepts client credentials as HTTP Basic, form-encoded as RFC 6749 asks", async () => {
    const flow = newFlow();
    const basic = Buffer.from(`${CLIENT_ID}:${encodeURIComponent("secret with spaces")}`).toString("base64");
    const response = await exchange(
      await codeFor(flow),
      flow,
      { client_id: undefined, client_secret: undefined },
      { authorization: `Basic ${basic}` },
    );
    expect(response.statusCode).toBe(200);
  });

  it("refuses malformed Basic credentials, and a secret sent both ways", async () => {
    const flow = newFlow();
    const malformed = await exchange(await codeFor(flow), flow, { client_secret: undefined }, { authorization: "Basic !!!" });
    expect(malformed.statusCode).toBe(401);
    expect(malformed.json()).toMatchObject({ error: "invalid_client" });

    const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64");
    const twice = await exchange(await codeFor(flow), flow, {}, { authorization: `Basic ${basic}` });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ error: "invalid_request" });
  });

  it("refuses a token request that repeats a parameter", async () => {
    const flow = newFlow();
    const code = await codeFor(flow);
    const form = new URLSearchParams(compact({ grant_type: "authorization_code", code, redirect_uri: flow.redirectUri }));
    form.append("code", "another-code");
    const response = await app.inject({
      method: "POST",
      url: "/dev/fakes/google/token",
      headers: { host: HOST, ...FORM_HEADERS },
      payload: form.toString(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_request" });
  });

  it("keeps the same subject for an email across sign-ins, whatever its case", async () => {
    const first = await idTokenClaims(newFlow(), { email: "Learner@Gmail.test" });
    const again = await idTokenClaims(newFlow(), { email: "learner@gmail.test" });
    const other = await idTokenClaims(newFlow(), { email: "someone.else@gmail.test" });
    expect(again.sub).toBe(first.sub);
    expect(other.sub).not.toBe(first.sub);
  });

  it("reports an unverified email when the box is unticked", async () => {
    const claims = await idTokenClaims(newFlow(), { email_verified: undefined });
    expect(claims.email_verified).toBe(false);
  });

  it("leaves out the nonce claim when the request had none, and keeps the redirect URI's own query", async () => {
    const flow = newFlow({ redirectUri: `${REDIRECT_URI}?tenant=academy` });
    const callback = await approve(flow, { nonce: undefined });
    expect(callback.searchParams.get("tenant")).toBe("academy");
    const token = await exchange(callback.searchParams.get("code") ?? "", flow);
    const claims = await verifyIdToken(token.json<{ id_token: string }>().id_token);
    expect(claims).not.toHaveProperty("nonce");
  });

  it("escapes every echoed value on the consent page", async () => {
    const flow = newFlow({ state: `"><script>alert(1)</script>` });
    const page = await get(`/dev/fakes/google/authorize?${authorizeQuery(flow)}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain("<script>");
    expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it.each([
    ["client_id is missing", { client_id: undefined }],
    ["redirect_uri is missing", { redirect_uri: undefined }],
    ["redirect_uri is not absolute", { redirect_uri: "/callback" }],
    ["state is missing", { state: undefined }],
    ["response_type is token", { response_type: "token" }],
    ["the challenge method is plain", { code_challenge_method: "plain" }],
    ["a challenge comes without a method", { code_challenge_method: undefined }],
  ])("rejects an authorization request when %s", async (_case, overrides) => {
    const page = await get(`/dev/fakes/google/authorize?${authorizeQuery(newFlow(), overrides)}`);
    expect(page.statusCode).toBe(400);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("Sign-in request rejected");
  });

  it("sends the person back with access_denied when they cancel", async () => {
    const flow = newFlow();
    const callback = await approve(flow, { action: "cancel", email: undefined, name: undefined });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(flow.state);
    expect(callback.searchParams.has("code")).toBe(false);
  });

  it("shows the form again, with the problem, when the email is not valid", async () => {
    const response = await post("/dev/fakes/google/approve", {
      ...authorizeParams(newFlow()),
      email: "not-an-email",
      name: "Google Learner",
      action: "approve",
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(`<title>${GOOGLE_PAGE_TITLE}</title>`);
    expect(response.body).toContain('<p role="alert">Enter a valid email address.</p>');
    expect(response.body).toContain('value="not-an-email"');
  });

  it("refuses a code_verifier that does not match the challenge", async () => {
    const flow = newFlow();
    const response = await exchange(await codeFor(flow), flow, { code_verifier: pkcePair().verifier });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a token request without the code_verifier", async () => {
    const flow = newFlow();
    const response = await exchange(await codeFor(flow), flow, { code_verifier: undefined });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a code_verifier when the authorization request had no challenge", async () => {
    const flow = newFlow();
    const code = await codeFor(flow, { code_challenge: undefined, code_challenge_method: undefined });
    const response = await exchange(code, flow);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a reused code and revokes the tokens it already issued", async () => {
    const flow = newFlow();
    const code = await codeFor(flow);
    const first = await exchange(code, flow);
    expect(first.statusCode).toBe(200);
    const accessToken = first.json<{ access_token: string }>().access_token;

    const second = await exchange(code, flow);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({ error: "invalid_grant" });
    const userinfo = await get("/dev/fakes/google/userinfo", { authorization: `Bearer ${accessToken}` });
    expect(userinfo.statusCode).toBe(401);
  });

  it("refuses a redirect_uri other than the one the code was issued for", async () => {
    const flow = newFlow();
    const response = await exchange(await codeFor(flow), flow, { redirect_uri: "http://localhost:3000/elsewhere" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a code after five minutes", async () => {
    const flow = newFlow();
    const code = await codeFor(flow);
    clock += 5 * 60 * 1000;
    const response = await exchange(code, flow);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a code presented by another client, or without a secret", async () => {
    const flow = newFlow();
    const otherClient = await exchange(await codeFor(flow), flow, { client_id: "someone-else" });
    expect(otherClient.statusCode).toBe(401);
    expect(otherClient.json()).toMatchObject({ error: "invalid_client" });

    const noSecret = await exchange(await codeFor(flow), flow, { client_secret: undefined });
    expect(noSecret.statusCode).toBe(401);
    expect(noSecret.json()).toMatchObject({ error: "invalid_client" });
  });

  it("answers unsupported_grant_type for any other grant", async () => {
    const flow = newFlow();
    const response = await exchange(await codeFor(flow), flow, { grant_type: "refresh_token" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("answers invalid_token for a missing, unknown or expired bearer token", async () => {
    const flow = newFlow();
    const accessToken = (await exchange(await codeFor(flow), flow)).json<{ access_token: string }>().access_token;
    for (const authorization of [undefined, "Bearer not-a-token", `Basic ${accessToken}`]) {
      const response = await get("/dev/fakes/google/userinfo", authorization ? { authorization } : {});
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: "invalid_token" });
    }
    clock += 3600 * 1000;
    const expired = await get("/dev/fakes/google/userinfo", { authorization: `Bearer ${accessToken}` });
    expect(expired.statusCode).toBe(401);
  });
});

describe("dev fakes wiring", () => {
  it("serves the Google stand-in under /dev/fakes/google", async () => {
    const app = Fastify();
    await app.register(devFakesRoutes);
    const response = await app.inject({
      method: "GET",
      url: "/dev/fakes/google/.well-known/openid-configuration",
      headers: { host: "localhost:4173" },
    });
    expect(response.json()).toMatchObject({ issuer: "http://localhost:4173/dev/fakes/google" });
    await app.close();
  });
});
