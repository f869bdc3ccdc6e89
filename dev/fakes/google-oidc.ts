// A stand-in for Google's OpenID Connect provider, for development and tests: discovery,
// authorization code with PKCE S256, RS256-signed ID tokens, userinfo and JWKS, with the checks
// Google applies (one-time codes, redirect URI binding, PKCE, client authentication).
import { createHash } from "node:crypto";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { z } from "zod";
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
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
  type OAuthFailure,
} from "./oauth-fake-kit.ts";

export const GOOGLE_PAGE_TITLE = "Sign in with Google (development stand-in)";
export const GOOGLE_DEFAULT_IDENTITY = { email: "learner@gmail.test", name: "Google Learner", emailVerified: true };
const GRANTED_SCOPE = "openid email profile";

// An S256 challenge is a base64url SHA-256: 43 characters. Verifiers follow RFC 7636 section 4.1.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

const authorizeFields = {
  client_id: z.string().min(1),
  redirect_uri: z.string().refine(isRedirectUri),
  response_type: z.literal("code"),
  scope: z.string().min(1),
  state: z.string().min(1),
  nonce: z.string().min(1).optional(),
  code_challenge: z.string().regex(S256_CHALLENGE).optional(),
  code_challenge_method: z.literal("S256").optional(),
};

// Google would accept "plain"; our clients must use S256, so the stand-in refuses anything else.
function requireS256(request: { code_challenge?: string; code_challenge_method?: string }, ctx: z.RefinementCtx) {
  if (request.code_challenge !== undefined && request.code_challenge_method !== "S256") {
    ctx.addIssue({ code: "custom", path: ["code_challenge_method"], message: "Only S256 is supported." });
  }
}

const authorizeRequestSchema = z.object(authorizeFields).superRefine(requireS256);
const approveRequestSchema = z
  .object({ ...authorizeFields, action: z.enum(["approve", "cancel"]) })
  .superRefine(requireS256);

const identitySchema = z.object({
  email: z.string().trim().pipe(z.email()),
  name: z.string().trim().min(1).max(100),
  // An unticked checkbox is simply absent from the form.
  email_verified: z
    .literal("true")
    .optional()
    .transform((value) => value === "true"),
});

const IDENTITY_PROBLEMS: Record<string, string> = {
  email: "Enter a valid email address.",
  name: "Enter a name.",
};

type GoogleProfile = { sub: string; email: string; email_verified: boolean; name: string };
type GoogleGrant = BaseGrant & { nonce: string | null; codeChallenge: string | null; profile: GoogleProfile };

/** Google's `sub` never changes for an account; here an account is its email, in any case. */
export function googleSubject(email: string): string {
  return createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 21);
}

type Identity = { email: string; name: string; emailVerified: boolean };

function identityFields(identity: Identity): IdentityFields {
  return {
    textFields: [
      { label: "Email", name: "email", type: "email", value: identity.email, autocomplete: "email" },
      { label: "Name", name: "name", type: "text", value: identity.name, autocomplete: "name" },
    ],
    checkboxes: [{ label: "Email verified", name: "email_verified", checked: identity.emailVerified }],
  };
}

function pkceFailure(challenge: string | null, verifier: string | undefined): OAuthFailure | null {
  const invalid = (description: string): OAuthFailure => ({ status: 400, error: "invalid_grant", description });
  // A verifier without a challenge is a PKCE downgrade attempt (RFC 9700 section 2.1.1).
  if (challenge === null) return verifier === undefined ? null : invalid("No code_challenge was sent for this code.");
  if (verifier === undefined || !CODE_VERIFIER.test(verifier)) return invalid("Missing or malformed code_verifier.");
  const computed = createHash("sha256").update(verifier).digest("base64url");
  return computed === challenge ? null : invalid("code_verifier does not match the code_challenge.");
}

async function createSigningKey() {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const jwk: JWK = { ...publicJwk, kid, alg: "RS256", use: "sig" };
  return { privateKey, kid, jwks: { keys: [jwk] } };
}
type SigningKey = Awaited<ReturnType<typeof createSigningKey>>;

async function signIdToken(key: SigningKey, issuer: string, grant: GoogleGrant, nowMs: number): Promise<string> {
  const { sub, ...claims } = grant.profile;
  const issuedAt = Math.floor(nowMs / 1000);
  return new SignJWT({ ...claims, azp: grant.clientId, ...(grant.nonce === null ? {} : { nonce: grant.nonce }) })
    .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" })
    .setIssuer(issuer)
    .setAudience(grant.clientId)
    .setSubject(sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_LIFETIME_SECONDS)
    .sign(key.privateKey);
}

export const googleOidcFake: FastifyPluginAsync<FakeProviderOptions> = async (app, options) => {
  const now = options.now ?? Date.now;
  const grants = new OAuthGrants<GoogleGrant>(now);
  const signingKey = await createSigningKey();
  acceptFormBodies(app);

  // The issuer follows the Host the client used, so the ID token's `iss` matches the discovery
  // document it fetched, whichever port or hostname the app runs on.
  const issuerFor = (request: FastifyRequest) => `http://${request.host}${app.prefix}`;

  app.get("/.well-known/openid-configuration", async (request) => {
    const issuer = issuerFor(request);
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "email", "profile"],
      grant_types_supported: ["authorization_code"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
      claims_supported: ["aud", "email", "email_verified", "exp", "iat", "iss", "name", "nonce", "sub"],
    };
  });

  const consent = consentHandlers({
    title: GOOGLE_PAGE_TITLE,
    action: `${app.prefix}/approve`,
    grants,
    authorizeRequestSchema,
    approveRequestSchema,
    defaultIdentity: GOOGLE_DEFAULT_IDENTITY,
    enteredIdentity: (form) => ({
      email: form.email ?? "",
      name: form.name ?? "",
      emailVerified: form.email_verified === "true",
    }),
    identityFields,
    identitySchema,
    identityProblems: IDENTITY_PROBLEMS,
    grant: (request, { email, name, email_verified }) => ({
      clientId: request.client_id,
      redirectUri: request.redirect_uri,
      nonce: request.nonce ?? null,
      codeChallenge: request.code_challenge ?? null,
      profile: { sub: googleSubject(email), email, email_verified, name },
    }),
    codeParams: { scope: GRANTED_SCOPE },
  });
  app.get("/authorize", consent.authorize);
  app.post("/approve", consent.approve);

  app.post("/token", async (request, reply) => {
    const redemption = redeemTokenRequest(grants, request.body, request.headers.authorization);
    if (isFailure(redemption)) return sendOAuthError(reply, redemption);
    const pkce = pkceFailure(redemption.grant.codeChallenge, redemption.form.code_verifier);
    if (pkce) return sendOAuthError(reply, pkce);
    return sendTokenResponse(reply, {
      access_token: redemption.issueAccessToken(),
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
      scope: GRANTED_SCOPE,
      id_token: await signIdToken(signingKey, issuerFor(request), redemption.grant, now()),
    });
  });

  app.get("/userinfo", userinfoHandler(grants, (grant) => grant.profile));

  app.get("/jwks", async () => signingKey.jwks);
};
