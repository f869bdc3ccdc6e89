// What the fake identity providers share: form bodies, client authentication, one-time codes,
// bearer tokens, the consent page and the routes around it. The checks mirror RFC 6749 so a
// client that passes against the fakes does not first meet them against the real provider.
import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";

export const CODE_LIFETIME_MS = 5 * 60 * 1000;
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unsupported_grant_type"
  | "invalid_token";

export type OAuthFailure = { status: 400 | 401; error: OAuthErrorCode; description: string };

export type FakeProviderOptions = {
  /** Milliseconds since the epoch; tests pass their own clock to expire codes and tokens. */
  now?: () => number;
};

export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

// ---------------------------------------------------------------------------------------------
// Requests

const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

/** Parses form bodies for this plugin's routes only; the rest of the app stays JSON-only. */
export function acceptFormBodies(app: FastifyInstance) {
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: "string" }, (_request, body, done) => {
    done(null, new URLSearchParams(body.toString()));
  });
}

/**
 * The form fields, or null when the body was not a form or repeats a field: RFC 6749 section 3
 * forbids repeated parameters, and taking the first or last would hide a client bug.
 */
export function readForm(body: unknown): Record<string, string> | null {
  if (!(body instanceof URLSearchParams)) return null;
  const fields: Record<string, string> = {};
  for (const [key, value] of body) {
    if (Object.hasOwn(fields, key)) return null;
    fields[key] = value;
  }
  return fields;
}

/** Names the first offending parameter, without echoing its value. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const name = issue?.path.join(".") || "request";
  return `Missing or invalid parameter: ${name}.`;
}

/** An absolute http(s) URL without a fragment (RFC 6749 section 3.1.2). */
export function isRedirectUri(value: string): boolean {
  if (!URL.canParse(value) || value.includes("#")) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
}

/** Adds parameters to the client's redirect URI, keeping any query it already has. */
export function redirectUriWith(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}

// ---------------------------------------------------------------------------------------------
// Client authentication (RFC 6749 section 2.3.1)

export type ClientCredentials = { clientId: string; clientSecret: string };

/** RFC 6749 form-encodes the id and secret before base64, so "+" and "%20" both mean a space. */
function formDecode(value: string): string {
  return new URLSearchParams(`v=${value}`).get("v") ?? "";
}

function basicCredentials(authorization: string): ClientCredentials | null {
  const match = /^Basic +(\S+)$/i.exec(authorization);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const separator = decoded.indexOf(":");
  if (separator <= 0) return null;
  const clientId = formDecode(decoded.slice(0, separator));
  const clientSecret = formDecode(decoded.slice(separator + 1));
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

/**
 * The client's id and secret from HTTP Basic or from the body (client_secret_basic or
 * client_secret_post). The fakes know no registered secrets, so any non-empty secret passes,
 * but a missing one fails as it would against the real provider.
 */
export function authenticateClient(
  authorization: string | undefined,
  form: Record<string, string>,
): ClientCredentials | OAuthFailure {
  if (authorization !== undefined) {
    const basic = basicCredentials(authorization);
    if (!basic) return { status: 401, error: "invalid_client", description: "Malformed Basic credentials." };
    // One authentication method per request (RFC 6749 section 2.3).
    if (form.client_secret !== undefined) {
      return { status: 400, error: "invalid_request", description: "Send the client secret once." };
    }
    if (form.client_id !== undefined && form.client_id !== basic.clientId) {
      return { status: 401, error: "invalid_client", description: "client_id differs from the Basic credentials." };
    }
    return basic;
  }
  const clientId = form.client_id ?? "";
  const clientSecret = form.client_secret ?? "";
  if (!clientId || !clientSecret) {
    return { status: 401, error: "invalid_client", description: "Client authentication failed." };
  }
  return { clientId, clientSecret };
}

export function isFailure<T extends object>(value: T | OAuthFailure): value is OAuthFailure {
  return "error" in value && "status" in value;
}

// ---------------------------------------------------------------------------------------------
// Responses

/** Token responses must not be cached (RFC 6749 section 5.1). */
export function sendTokenResponse(reply: FastifyReply, body: Record<string, unknown>) {
  return reply.header("cache-control", "no-store").header("pragma", "no-cache").send(body);
}

export function sendOAuthError(reply: FastifyReply, failure: OAuthFailure) {
  if (failure.status === 401) {
    const scheme = failure.error === "invalid_token" ? `Bearer error="invalid_token"` : "Basic";
    reply.header("www-authenticate", scheme);
  }
  return sendTokenResponse(reply.code(failure.status), {
    error: failure.error,
    error_description: failure.description,
  });
}

/** The access token from `Authorization: Bearer ...`, or null. */
export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer +(\S+)$/i.exec(authorization ?? "");
  return match?.[1] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Codes and access tokens

export type BaseGrant = { clientId: string; redirectUri: string };

type IssuedCode<G> = { grant: G; expiresAt: number; redeemed: boolean; accessTokens: string[] };

export type Redemption<G> = { grant: G; issueAccessToken: () => string };

/**
 * One-time authorization codes and the access tokens issued for them, in memory per plugin
 * instance. A code presented twice revokes what it already issued (RFC 6749 section 4.1.2),
 * because a second presentation means the code leaked.
 */
export class OAuthGrants<G extends BaseGrant> {
  readonly #codes = new Map<string, IssuedCode<G>>();
  readonly #accessTokens = new Map<string, { grant: G; expiresAt: number }>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  issueCode(grant: G): string {
    this.#forgetExpired();
    const code = randomToken();
    this.#codes.set(code, { grant, expiresAt: this.#now() + CODE_LIFETIME_MS, redeemed: false, accessTokens: [] });
    return code;
  }

  /** Consumes the code on any presentation, then checks it was issued to this client and URI. */
  redeemCode(code: string, client: ClientCredentials, redirectUri: string | undefined): Redemption<G> | OAuthFailure {
    const issued = this.#codes.get(code);
    if (!issued || issued.expiresAt <= this.#now()) {
      return { status: 400, error: "invalid_grant", description: "The code is unknown or has expired." };
    }
    if (issued.redeemed) {
      for (const token of issued.accessTokens) this.#accessTokens.delete(token);
      return { status: 400, error: "invalid_grant", description: "The code has already been used." };
    }
    issued.redeemed = true;
    if (client.clientId !== issued.grant.clientId) {
      return { status: 401, error: "invalid_client", description: "The code was issued to another client." };
    }
    if (redirectUri !== issued.grant.redirectUri) {
      return { status: 400, error: "invalid_grant", description: "redirect_uri differs from the authorization request." };
    }
    return { grant: issued.grant, issueAccessToken: () => this.#issueAccessToken(issued) };
  }

  /** The grant behind a live access token, or null. */
  grantFor(accessToken: string): G | null {
    const entry = this.#accessTokens.get(accessToken);
    return entry && entry.expiresAt > this.#now() ? entry.grant : null;
  }

  #issueAccessToken(issued: IssuedCode<G>): string {
    const token = randomToken();
    const expiresAt = this.#now() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000;
    this.#accessTokens.set(token, { grant: issued.grant, expiresAt });
    issued.accessTokens.push(token);
    return token;
  }

  // A long-running dev server would otherwise keep every code and token it ever issued.
  #forgetExpired() {
    const now = this.#now();
    for (const [code, issued] of this.#codes) if (issued.expiresAt <= now) this.#codes.delete(code);
    for (const [token, entry] of this.#accessTokens) if (entry.expiresAt <= now) this.#accessTokens.delete(token);
  }
}

export type TokenRequest<G> = Redemption<G> & { form: Record<string, string> };

/**
 * The checks every authorization-code token request goes through, in the order a real server
 * applies them: a well-formed form, the grant type, the client, then the code itself.
 */
export function redeemTokenRequest<G extends BaseGrant>(
  grants: OAuthGrants<G>,
  body: unknown,
  authorization: string | undefined,
): TokenRequest<G> | OAuthFailure {
  const form = readForm(body);
  if (!form) {
    return { status: 400, error: "invalid_request", description: "Send a form body with each parameter once." };
  }
  if (!form.grant_type) return { status: 400, error: "invalid_request", description: "Missing parameter: grant_type." };
  if (form.grant_type !== "authorization_code") {
    return { status: 400, error: "unsupported_grant_type", description: "Only authorization_code is supported." };
  }
  const client = authenticateClient(authorization, form);
  if (isFailure(client)) return client;
  if (!form.code) return { status: 400, error: "invalid_request", description: "Missing parameter: code." };
  const redemption = grants.redeemCode(form.code, client, form.redirect_uri);
  if (isFailure(redemption)) return redemption;
  return { ...redemption, form };
}

// ---------------------------------------------------------------------------------------------
// Pages

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

// Inline styles only: the app's Content-Security-Policy allows them but forbids inline scripts.
const PAGE_STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f4f6fa;color:#111}
main{max-width:26rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002}
h1{font-size:1.25rem;margin-top:0}label{display:block;margin-top:1rem;font-weight:600}
input[type=email],input[type=text]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #667;border-radius:6px}
.check{display:flex;gap:.5rem;align-items:center;font-weight:600;margin-top:1rem}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #0b1f3a;cursor:pointer}
button[value=approve]{background:#0b1f3a;color:#fff}[role=alert]{color:#a00;font-weight:600}
:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export type TextField = { label: string; name: string; type: "email" | "text"; value: string; autocomplete: string };
export type CheckboxField = { label: string; name: string; checked: boolean };

export type ConsentPage = {
  title: string;
  action: string;
  /** The authorization request, carried through the form so /approve can check it again. */
  hidden: Record<string, string | undefined>;
  textFields: TextField[];
  checkboxes?: CheckboxField[];
  /** Shown above the fields when the previous submission was not valid. */
  problem?: string;
};

function textFieldHtml(field: TextField): string {
  const id = `field-${field.name}`;
  return `<label for="${id}">${escapeHtml(field.label)}</label>
<input id="${id}" name="${escapeHtml(field.name)}" type="${field.type}" value="${escapeHtml(field.value)}" autocomplete="${field.autocomplete}" required>`;
}

function checkboxHtml(field: CheckboxField): string {
  const id = `field-${field.name}`;
  return `<div class="check"><input id="${id}" name="${escapeHtml(field.name)}" type="checkbox" value="true"${field.checked ? " checked" : ""}>
<label for="${id}" style="margin:0">${escapeHtml(field.label)}</label></div>`;
}

/** The stand-in's sign-in screen: editable identity fields, then Continue or Cancel. */
export function consentPageHtml(options: ConsentPage): string {
  const hidden = Object.entries(options.hidden)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`);
  const problem = options.problem ? `<p role="alert">${escapeHtml(options.problem)}</p>` : "";
  return page(
    options.title,
    `<h1>${escapeHtml(options.title)}</h1>
<p>No real account is used: enter the identity this sign-in should return.</p>
${problem}
<form method="post" action="${escapeHtml(options.action)}">
${hidden.join("\n")}
${options.textFields.map(textFieldHtml).join("\n")}
${(options.checkboxes ?? []).map(checkboxHtml).join("\n")}
<div class="actions">
<button type="submit" name="action" value="approve">Continue</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</div>
</form>`,
  );
}

export function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(html);
}

/**
 * A bad authorization request is shown to the person, never redirected: the redirect URI
 * itself may be the bad part (RFC 6749 section 4.1.2.1).
 */
export function sendRejectedRequest(reply: FastifyReply, message: string) {
  const title = "Sign-in request rejected";
  return sendHtml(reply, 400, page(title, `<h1>${title}</h1>\n<p>${escapeHtml(message)}</p>`));
}

// ---------------------------------------------------------------------------------------------
// Routes

/** What the consent page's form posts back: the authorization request, and the button pressed. */
export type ApproveForm = Record<string, string | undefined> & {
  action: "approve" | "cancel";
  client_id: string;
  redirect_uri: string;
  state: string;
};

/** The identity fields on a consent page. */
export type IdentityFields = Pick<ConsentPage, "textFields" | "checkboxes">;

/**
 * One provider's sign-in page. `A` is its approve form, `E` the identity the page shows (the
 * default, or what the person entered), `I` the identity once accepted, `G` the grant it makes.
 */
export type ConsentFlow<A extends ApproveForm, E, I, G extends BaseGrant> = {
  title: string;
  /** Where the consent form posts (the provider's /approve route). */
  action: string;
  grants: OAuthGrants<G>;
  authorizeRequestSchema: z.ZodType<Omit<A, "action">>;
  /** Checks the hidden fields that came back from the browser as strictly as the first request. */
  approveRequestSchema: z.ZodType<A>;
  defaultIdentity: E;
  /** The identity as the person entered it, to show the page again. */
  enteredIdentity(form: Record<string, string>): E;
  identityFields(identity: E): IdentityFields;
  identitySchema: z.ZodType<I>;
  /** What to say, per form field, when that field is refused. */
  identityProblems: Record<string, string>;
  grant(request: Omit<A, "action">, identity: I): G;
  /** Sent back next to the code and state (Google's granted scope). */
  codeParams?: Record<string, string>;
};

/**
 * The handlers for a provider's sign-in page (`authorize`) and for its form (`approve`): the
 * person cancels, corrects a refused identity, or leaves with a one-time code.
 */
export function consentHandlers<A extends ApproveForm, E, I, G extends BaseGrant>(flow: ConsentFlow<A, E, I, G>) {
  const consentPage = (request: Omit<A, "action">, identity: E, problem?: string) =>
    consentPageHtml({ title: flow.title, action: flow.action, hidden: request, ...flow.identityFields(identity), problem });

  return {
    async authorize(request: FastifyRequest, reply: FastifyReply) {
      const parsed = flow.authorizeRequestSchema.safeParse(request.query);
      if (!parsed.success) return sendRejectedRequest(reply, describeIssue(parsed.error));
      return sendHtml(reply, 200, consentPage(parsed.data, flow.defaultIdentity));
    },

    async approve(request: FastifyRequest, reply: FastifyReply) {
      const form = readForm(request.body);
      if (!form) return sendRejectedRequest(reply, "Send the sign-in form with each field once.");
      const parsed = flow.approveRequestSchema.safeParse(form);
      if (!parsed.success) return sendRejectedRequest(reply, describeIssue(parsed.error));
      const { action, ...authorizeRequest } = parsed.data;
      const { redirect_uri: redirectUri, state } = parsed.data;
      if (action === "cancel") return reply.redirect(redirectUriWith(redirectUri, { error: "access_denied", state }), 302);

      const identity = flow.identitySchema.safeParse(form);
      if (!identity.success) {
        const field = String(identity.error.issues[0]?.path[0] ?? "");
        const problem = flow.identityProblems[field] ?? "Check the fields and try again.";
        return sendHtml(reply, 400, consentPage(authorizeRequest, flow.enteredIdentity(form), problem));
      }
      const code = flow.grants.issueCode(flow.grant(authorizeRequest, identity.data));
      return reply.redirect(redirectUriWith(redirectUri, { code, state, ...flow.codeParams }), 302);
    },
  };
}

/** Answers a user info request with what `describe` tells of the grant behind the bearer token. */
export function userinfoHandler<G extends BaseGrant>(grants: OAuthGrants<G>, describe: (grant: G) => object) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request.headers.authorization);
    const grant = token === null ? null : grants.grantFor(token);
    if (!grant) {
      return sendOAuthError(reply, { status: 401, error: "invalid_token", description: "Send a valid access token." });
    }
    return describe(grant);
  };
}
