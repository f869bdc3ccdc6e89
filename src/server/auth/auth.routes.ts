// Mounts Better Auth at /api/auth/*: Fastify's request becomes a Fetch Request and back, with
// the client address Fastify trusts, errors in our shape, and a per-account sign-in lockout.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { AUTH_MESSAGES } from "../../shared/contracts/accounts.ts";
import { sendError } from "../plugins/errors.ts";
import { authErrorMessage } from "./auth-errors.ts";
import { clearLoginFailures, isLockedOut, recordLoginFailure } from "./login-lockout.ts";
import { toWebHeaders } from "./web-headers.ts";

function toWebRequest(request: FastifyRequest, appUrl: string, body: unknown): Request {
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && body !== undefined;
  const headers = toWebHeaders(request);
  if (hasBody) headers.set("content-type", "application/json");
  return new Request(new URL(request.url, appUrl), {
    method: request.method,
    headers,
    body: hasBody ? JSON.stringify(body) : undefined,
  });
}

async function sendWebResponse(reply: FastifyReply, response: Response, path: string) {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie" && name !== "content-length") reply.header(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header("set-cookie", cookies);

  const text = await response.text();
  if (response.status >= 400 && response.status < 600) {
    let code: string | undefined;
    try {
      const body: unknown = JSON.parse(text);
      if (typeof body === "object" && body !== null && "code" in body && typeof body.code === "string") {
        code = body.code;
      }
    } catch {
      // not JSON: fall back to the generic message
    }
    const status = response.status >= 500 ? 500 : response.status;
    // The library's own type (text/plain for a disabled path) would not fit our JSON error.
    reply.removeHeader("content-type");
    return sendError(reply, status, code ?? (status === 429 ? "TOO_MANY_REQUESTS" : "AUTH_ERROR"), authErrorMessage(path, status, code));
  }
  return reply.send(text === "" ? undefined : withoutTokens(text, response.headers.get("content-type")));
}

const TOKEN_KEYS = new Set(["token", "accessToken", "refreshToken", "idToken"]);

/**
 * The session lives in an HttpOnly cookie so that no script can read it, but the library also
 * writes the session token (and a provider's tokens) into some JSON answers: sign-in, get-session,
 * list-sessions. Nothing in the browser reads them there, so they are left out.
 */
function withoutTokens(text: string, contentType: string | null): string {
  if (!contentType?.startsWith("application/json")) return text;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(Object.entries(value).filter(([key]) => !TOKEN_KEYS.has(key)).map(([key, child]) => [key, strip(child)]));
  };
  try {
    return JSON.stringify(strip(JSON.parse(text)));
  } catch {
    return text;
  }
}

const MAX_NAME_LENGTH = 100;

/** No address is longer (RFC 5321), and login_failures' index could not hold a much longer one. */
const MAX_EMAIL_LENGTH = 254;

/** The account a sign-in is for, when it could be one: the key of the per-account lockout. */
function emailOf(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("email" in body) || typeof body.email !== "string") return null;
  const email = body.email.trim().toLowerCase();
  return email.length <= MAX_EMAIL_LENGTH ? email : null;
}

export const authRoutes: FastifyPluginAsync = async (app) => {
  const forward = async (request: FastifyRequest, body: unknown = request.body) =>
    app.auth.handler(toWebRequest(request, app.env.appUrl, body));

  app.post("/api/auth/sign-in/email", async (request, reply) => {
    const email = emailOf(request.body);
    const now = new Date();
    if (email && (await isLockedOut(app.db, email, now))) {
      return sendError(reply, 429, "TOO_MANY_REQUESTS", AUTH_MESSAGES.tooManyRequests);
    }
    const response = await forward(request);
    if (email && response.status === 401) await recordLoginFailure(app.db, email);
    if (email && response.ok) await clearLoginFailures(app.db, email);
    return sendWebResponse(reply, response, "/sign-in/email");
  });

  // The profile name is the only account field a user writes (docs/product.md, "Roles"). The auth
  // library would also take its `image`, and any field declared to it later: only the name goes
  // through. Its rules are the registration form's: text, at most 100 characters.
  app.post("/api/auth/update-user", async (request, reply) => {
    const body = request.body;
    const name: unknown = typeof body === "object" && body !== null && "name" in body ? body.name : undefined;
    if (name !== undefined && (typeof name !== "string" || name.length > MAX_NAME_LENGTH)) {
      return sendError(reply, 400, "VALIDATION", `Full name should be text of at most ${MAX_NAME_LENGTH} characters`);
    }
    return sendWebResponse(reply, await forward(request, { name }), "/update-user");
  });

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    handler: async (request, reply) =>
      sendWebResponse(reply, await forward(request), request.url.split("?")[0] ?? ""),
  });
};
