// A stand-in for MQL5's OAuth 2.0 sign-in, for development and tests, on MQL5's own paths
// (/en/oauth/login, /api/oauth/access_token, /api/oauth/user_info). MQL5 documents no PKCE,
// nonce or scopes, so the stand-in ignores them; codes are still one-time and bound to the
// client and redirect URI.
import { createHash } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import {
  acceptFormBodies,
  bearerToken,
  consentPageHtml,
  describeIssue,
  isFailure,
  isRedirectUri,
  OAuthGrants,
  readForm,
  redeemTokenRequest,
  redirectUriWith,
  sendHtml,
  sendOAuthError,
  sendRejectedRequest,
  sendTokenResponse,
  type BaseGrant,
  type FakeProviderOptions,
} from "./oauth-fake-kit.ts";

export const MQL5_PAGE_TITLE = "Sign in with MQL5 (development stand-in)";
export const MQL5_DEFAULT_IDENTITY = { login: "mql5trader", email: "trader@mql5.test" };

const authorizeFields = {
  client_id: z.string().min(1),
  redirect_uri: z.string().refine(isRedirectUri),
  response_type: z.literal("code"),
  state: z.string().min(1),
};
const authorizeRequestSchema = z.object(authorizeFields);
const approveRequestSchema = z.object({ ...authorizeFields, action: z.enum(["approve", "cancel"]) });
type AuthorizeRequest = z.infer<typeof authorizeRequestSchema>;

const identitySchema = z.object({
  login: z.string().trim().regex(/^\S{1,64}$/),
  email: z.string().trim().pipe(z.email()),
});

const IDENTITY_PROBLEMS: Record<string, string> = {
  login: "Enter an MQL5 login without spaces.",
  email: "Enter a valid email address.",
};

type Mql5User = { id: number; login: string; email: string };
type Mql5Grant = BaseGrant & { user: Mql5User };

/** MQL5 user ids are numbers that never change for an account; here an account is its login. */
export function mql5UserId(login: string): number {
  // 48 bits stay within Number.MAX_SAFE_INTEGER, so the id survives JSON in any client.
  return Number.parseInt(createHash("sha256").update(login.toLowerCase()).digest("hex").slice(0, 12), 16);
}

type Identity = { login: string; email: string };

function consentPage(prefix: string, request: AuthorizeRequest, identity: Identity, problem?: string): string {
  return consentPageHtml({
    title: MQL5_PAGE_TITLE,
    action: `${prefix}/approve`,
    hidden: request,
    textFields: [
      { label: "MQL5 login", name: "login", type: "text", value: identity.login, autocomplete: "username" },
      { label: "Email", name: "email", type: "email", value: identity.email, autocomplete: "email" },
    ],
    problem,
  });
}

export const mql5OAuthFake: FastifyPluginAsync<FakeProviderOptions> = async (app, options) => {
  const grants = new OAuthGrants<Mql5Grant>(options.now ?? Date.now);
  acceptFormBodies(app);

  app.get("/en/oauth/login", async (request, reply) => {
    const parsed = authorizeRequestSchema.safeParse(request.query);
    if (!parsed.success) return sendRejectedRequest(reply, describeIssue(parsed.error));
    return sendHtml(reply, 200, consentPage(app.prefix, parsed.data, MQL5_DEFAULT_IDENTITY));
  });

  app.post("/approve", async (request, reply) => {
    const form = readForm(request.body);
    if (!form) return sendRejectedRequest(reply, "Send the sign-in form with each field once.");
    // The hidden fields came back from the browser: check them as strictly as the login page did.
    const parsed = approveRequestSchema.safeParse(form);
    if (!parsed.success) return sendRejectedRequest(reply, describeIssue(parsed.error));
    const { action, ...authorizeRequest } = parsed.data;
    const { redirect_uri: redirectUri, state } = authorizeRequest;
    if (action === "cancel") return reply.redirect(redirectUriWith(redirectUri, { error: "access_denied", state }), 302);

    const identity = identitySchema.safeParse(form);
    if (!identity.success) {
      const field = String(identity.error.issues[0]?.path[0] ?? "");
      const entered = { login: form.login ?? "", email: form.email ?? "" };
      const problem = IDENTITY_PROBLEMS[field] ?? "Check the fields and try again.";
      return sendHtml(reply, 400, consentPage(app.prefix, authorizeRequest, entered, problem));
    }
    const { login, email } = identity.data;
    const code = grants.issueCode({
      clientId: authorizeRequest.client_id,
      redirectUri,
      user: { id: mql5UserId(login), login, email },
    });
    return reply.redirect(redirectUriWith(redirectUri, { code, state }), 302);
  });

  app.post("/api/oauth/access_token", async (request, reply) => {
    const redemption = redeemTokenRequest(grants, request.body, request.headers.authorization);
    if (isFailure(redemption)) return sendOAuthError(reply, redemption);
    return sendTokenResponse(reply, { access_token: redemption.issueAccessToken() });
  });

  app.get("/api/oauth/user_info", async (request, reply) => {
    const token = bearerToken(request.headers.authorization);
    const grant = token === null ? null : grants.grantFor(token);
    if (!grant) {
      return sendOAuthError(reply, { status: 401, error: "invalid_token", description: "Send a valid access token." });
    }
    return grant.user;
  });
};
