// A stand-in for MQL5's OAuth 2.0 sign-in, for development and tests, on MQL5's own paths
// (/en/oauth/login, /api/oauth/access_token, /api/oauth/user_info). MQL5 documents no PKCE,
// nonce or scopes, so the stand-in ignores them; codes are still one-time and bound to the
// client and redirect URI.
import { createHash } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import {
  acceptFormBodies,
  consentHandlers,
  isFailure,
  isRedirectUri,
  OAuthGrants,
  redeemTokenRequest,
  sendOAuthError,
  sendTokenResponse,
  userinfoHandler,
  type BaseGrant,
  type FakeProviderOptions,
  type IdentityFields,
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

function identityFields(identity: Identity): IdentityFields {
  return {
    textFields: [
      { label: "MQL5 login", name: "login", type: "text", value: identity.login, autocomplete: "username" },
      { label: "Email", name: "email", type: "email", value: identity.email, autocomplete: "email" },
    ],
  };
}

export const mql5OAuthFake: FastifyPluginAsync<FakeProviderOptions> = async (app, options) => {
  const grants = new OAuthGrants<Mql5Grant>(options.now ?? Date.now);
  acceptFormBodies(app);

  const consent = consentHandlers({
    title: MQL5_PAGE_TITLE,
    action: `${app.prefix}/approve`,
    grants,
    authorizeRequestSchema,
    approveRequestSchema,
    defaultIdentity: MQL5_DEFAULT_IDENTITY,
    enteredIdentity: (form) => ({ login: form.login ?? "", email: form.email ?? "" }),
    identityFields,
    identitySchema,
    identityProblems: IDENTITY_PROBLEMS,
    grant: (request, { login, email }) => ({
      clientId: request.client_id,
      redirectUri: request.redirect_uri,
      user: { id: mql5UserId(login), login, email },
    }),
  });
  app.get("/en/oauth/login", consent.authorize);
  app.post("/approve", consent.approve);

  app.post("/api/oauth/access_token", async (request, reply) => {
    const redemption = redeemTokenRequest(grants, request.body, request.headers.authorization);
    if (isFailure(redemption)) return sendOAuthError(reply, redemption);
    return sendTokenResponse(reply, { access_token: redemption.issueAccessToken() });
  });

  app.get("/api/oauth/user_info", userinfoHandler(grants, (grant) => grant.user));
};
