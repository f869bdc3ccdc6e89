import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { devFakesRoutes } from "./fakes.routes.ts";
import { MQL5_PAGE_TITLE, mql5OAuthFake } from "./mql5-oauth.ts";
import { CLOCK_START, compact, FORM_HEADERS, startFakeProvider, type Fields } from "./oauth-fake-testing.ts";

const CLIENT_ID = "trading-academy-mql5";
const CLIENT_SECRET = "dev-secret";
const REDIRECT_URI = "http://localhost:3000/api/auth/callback/mql5";
const STATE = "state-789";

function authorizeParams(overrides: Fields = {}): Record<string, string> {
  return compact({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: "code", state: STATE, ...overrides });
}

describe("MQL5 OAuth stand-in", () => {
  let app: FastifyInstance;
  let clock: number;

  beforeEach(async () => {
    clock = CLOCK_START;
    app = await startFakeProvider(mql5OAuthFake, "/dev/fakes/mql5", () => clock);
  });
  afterEach(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url, headers });
  const post = (url: string, form: Record<string, string>) =>
    app.inject({ method: "POST", url, headers: FORM_HEADERS, payload: new URLSearchParams(form).toString() });

  async function approve(fields: Fields = {}) {
    const response = await post(
      "/dev/fakes/mql5/approve",
      compact({ ...authorizeParams(), login: "mql5trader", email: "trader@mql5.test", action: "approve", ...fields }),
    );
    expect(response.statusCode).toBe(302);
    return new URL(String(response.headers.location));
  }

  async function codeFor(fields: Fields = {}) {
    return (await approve(fields)).searchParams.get("code") ?? "";
  }

  const exchange = (code: string, overrides: Fields = {}) =>
    post(
      "/dev/fakes/mql5/api/oauth/access_token",
      compact({
        grant_type: "authorization_code",
        code,
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uri: REDIRECT_URI,
        ...overrides,
      }),
    );

  async function userFor(fields: Fields) {
    const accessToken = (await exchange(await codeFor(fields))).json<{ access_token: string }>().access_token;
    return (await get("/dev/fakes/mql5/api/oauth/user_info", { authorization: `Bearer ${accessToken}` })).json<{
      id: number;
    }>();
  }

  it("walks the whole sign-in: login page, code, access token, user info", async () => {
    const page = await get(`/dev/fakes/mql5/en/oauth/login?${new URLSearchParams(authorizeParams())}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<title>${MQL5_PAGE_TITLE}</title>`);
    expect(page.body).toContain('<form method="post" action="/dev/fakes/mql5/approve">');
    expect(page.body).toContain(`<input type="hidden" name="state" value="${STATE}">`);
    expect(page.body).toMatch(/<label for="field-login">MQL5 login<\/label>\s*<input id="field-login" name="login" type="text" value="mql5trader"/);
    expect(page.body).toMatch(/<label for="field-email">Email<\/label>\s*<input id="field-email" name="email" type="email" value="trader@mql5.test"/);
    expect(page.body).toContain('<button type="submit" name="action" value="approve">Continue</button>');
    expect(page.body).toContain('name="action" value="cancel" formnovalidate>Cancel</button>');
    expect(page.body).not.toContain("<script");

    const callback = await approve();
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("state")).toBe(STATE);

    const token = await exchange(callback.searchParams.get("code") ?? "");
    expect(token.statusCode).toBe(200);
    const { access_token: accessToken } = token.json<{ access_token: string }>();
    expect(accessToken).not.toBe("");

    const user = await get("/dev/fakes/mql5/api/oauth/user_info", { authorization: `Bearer ${accessToken}` });
    expect(user.statusCode).toBe(200);
    expect(user.json()).toEqual({ id: expect.any(Number), login: "mql5trader", email: "trader@mql5.test" });
  });

  it("keeps the same numeric id for a login across sign-ins", async () => {
    const first = await userFor({ login: "mql5trader" });
    expect(Number.isSafeInteger(first.id)).toBe(true);
    expect((await userFor({ login: "mql5trader", email: "changed@mql5.test" })).id).toBe(first.id);
    expect((await userFor({ login: "another" })).id).not.toBe(first.id);
  });

  it("escapes every echoed value on the login page", async () => {
    const query = new URLSearchParams(authorizeParams({ state: `"><script>alert(1)</script>` }));
    const page = await get(`/dev/fakes/mql5/en/oauth/login?${query}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain("<script>");
    expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it.each([
    ["client_id is missing", { client_id: undefined }],
    ["redirect_uri is missing", { redirect_uri: undefined }],
    ["state is missing", { state: undefined }],
    ["response_type is token", { response_type: "token" }],
  ])("rejects a login request when %s", async (_case, overrides) => {
    const page = await get(`/dev/fakes/mql5/en/oauth/login?${new URLSearchParams(authorizeParams(overrides))}`);
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain("Sign-in request rejected");
  });

  it("sends the person back with access_denied when they cancel", async () => {
    const callback = await approve({ action: "cancel", login: undefined, email: undefined });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(STATE);
    expect(callback.searchParams.has("code")).toBe(false);
  });

  it("shows the form again, with the problem, when the login is empty", async () => {
    const response = await post("/dev/fakes/mql5/approve", {
      ...authorizeParams(),
      login: " ",
      email: "trader@mql5.test",
      action: "approve",
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('<p role="alert">Enter an MQL5 login without spaces.</p>');
  });

  it("refuses a reused code and revokes the token it already issued", async () => {
    const code = await codeFor();
    const accessToken = (await exchange(code)).json<{ access_token: string }>().access_token;
    const second = await exchange(code);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({ error: "invalid_grant" });
    const user = await get("/dev/fakes/mql5/api/oauth/user_info", { authorization: `Bearer ${accessToken}` });
    expect(user.statusCode).toBe(401);
  });

  it("refuses a redirect_uri other than the one the code was issued for", async () => {
    const response = await exchange(await codeFor(), { redirect_uri: "http://localhost:3000/elsewhere" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a code after five minutes", async () => {
    const code = await codeFor();
    clock += 5 * 60 * 1000;
    const response = await exchange(code);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a code presented by another client, or without a secret", async () => {
    const otherClient = await exchange(await codeFor(), { client_id: "someone-else" });
    expect(otherClient.statusCode).toBe(401);
    expect(otherClient.json()).toMatchObject({ error: "invalid_client" });
    const noSecret = await exchange(await codeFor(), { client_secret: undefined });
    expect(noSecret.statusCode).toBe(401);
    expect(noSecret.json()).toMatchObject({ error: "invalid_client" });
  });

  it("answers unsupported_grant_type for any other grant", async () => {
    const response = await exchange(await codeFor(), { grant_type: "client_credentials" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("answers 401 for a missing or unknown bearer token", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer not-a-token" }];
    for (const headers of attempts) {
      const response = await get("/dev/fakes/mql5/api/oauth/user_info", headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: "invalid_token" });
    }
  });
});

describe("dev fakes wiring", () => {
  it("serves the MQL5 stand-in under /dev/fakes/mql5", async () => {
    const app = Fastify();
    await app.register(devFakesRoutes);
    const query = new URLSearchParams(authorizeParams());
    const response = await app.inject({ method: "GET", url: `/dev/fakes/mql5/en/oauth/login?${query}` });
    expect(response.statusCode).toBe(200);
    await app.close();
  });
});
