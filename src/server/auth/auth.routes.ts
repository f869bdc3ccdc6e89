// Mounts Better Auth at /api/auth/*: Fastify's request becomes a Fetch Request and back, with
// the client address Fastify trusts, errors in our shape, and a per-account sign-in lockout.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { AUTH_MESSAGES } from "../../shared/contracts/accounts.ts";
import { sendError } from "../plugins/errors.ts";
import { CLIENT_IP_HEADER } from "./auth.ts";
import { authErrorMessage } from "./auth-errors.ts";
import { clearLoginFailures, isLockedOut, recordLoginFailure } from "./login-lockout.ts";

export function toWebHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  return headers;
}

function toWebRequest(request: FastifyRequest, appUrl: string): Request {
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== undefined;
  const headers = toWebHeaders(request);
  if (hasBody) headers.set("content-type", "application/json");
  return new Request(new URL(request.url, appUrl), {
    method: request.method,
    headers,
    body: hasBody ? JSON.stringify(request.body) : undefined,
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
    return sendError(reply, status, code ?? (status === 429 ? "TOO_MANY_REQUESTS" : "AUTH_ERROR"), authErrorMessage(path, status, code));
  }
  return reply.send(text === "" ? undefined : text);
}

function emailOf(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("email" in body)) return null;
  return typeof body.email === "string" ? body.email.trim().toLowerCase() : null;
}

export const authRoutes: FastifyPluginAsync = async (app) => {
  const forward = async (request: FastifyRequest) => app.auth.handler(toWebRequest(request, app.env.appUrl));

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

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    handler: async (request, reply) =>
      sendWebResponse(reply, await forward(request), request.url.split("?")[0] ?? ""),
  });
};
