// Mounts Better Auth at /api/auth/*: Fastify's request becomes a Fetch Request and back, with
// the client address Fastify trusts and errors in our shape. Only the library's own paths, spelled
// exactly as it routes them, reach it: any other spelling is a 404 here, since the library would
// read it normalised (docs/product.md, "Limits"). The lockout and the other checks on its endpoints
// run inside the library (auth-hooks.ts), whatever the path. The per-address limits are counted
// here, as a request is handed to the library, and given back when the library refuses it
// unread (docs/product.md, "Timings and limits").
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { sendError, sendNoRoute } from "../plugins/errors.ts";
import type { Auth } from "./auth.ts";
import { authErrorMessage, limitResponse, type LibraryError } from "./auth-errors.ts";
import { claimLibraryRequest, libraryLimitMessage, releaseLibraryRequest } from "./auth-limits.ts";
import { toWebHeaders } from "./web-headers.ts";

const BASE_PATH = "/api/auth";

function toWebRequest(request: FastifyRequest, url: URL, body: unknown): Request {
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && body !== undefined;
  const headers = toWebHeaders(request);
  if (hasBody) headers.set("content-type", "application/json");
  return new Request(url, {
    method: request.method,
    headers,
    body: hasBody ? JSON.stringify(body) : undefined,
  });
}

/** The code, message and wait of a library error answer. */
function libraryError(text: string, headers: Headers): LibraryError {
  const error: LibraryError = {};
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === "object" && body !== null) {
      if ("code" in body && typeof body.code === "string") error.code = body.code;
      if ("message" in body && typeof body.message === "string") error.message = body.message;
    }
  } catch {
    // not JSON: fall back to the generic message
  }
  const wait = Number(headers.get("retry-after"));
  if (Number.isFinite(wait) && wait > 0) error.retryAfterSeconds = wait;
  return error;
}

/**
 * The library's codes for a request refused before it acted on anything: a body that fails its
 * validation, or an origin it does not trust. Such a request does not count against a limit.
 */
const REFUSED_UNREAD = new Set([
  "VALIDATION_ERROR",
  "INVALID_EMAIL",
  "PASSWORD_TOO_SHORT",
  "PASSWORD_TOO_LONG",
  "INVALID_ORIGIN",
  "MISSING_OR_NULL_ORIGIN",
]);

async function refusedUnread(response: Response): Promise<boolean> {
  if (response.status !== 400 && response.status !== 403) return false;
  const { code } = libraryError(await response.clone().text(), response.headers);
  return code !== undefined && REFUSED_UNREAD.has(code);
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
    const error = libraryError(text, response.headers);
    const status = response.status >= 500 ? 500 : response.status;
    // The library's own type (text/plain for a disabled path) would not fit our JSON error.
    reply.removeHeader("content-type");
    if (status === 429 && error.retryAfterSeconds) reply.header("retry-after", String(error.retryAfterSeconds));
    const code = error.code ?? "AUTH_ERROR";
    return sendError(reply, status, code, authErrorMessage(path, error));
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

/** A library path as its router matches it: literal segments, and `:name` for any one segment. */
type LibraryRoute = { method: string; segments: string[] };

/** The library's endpoints a client may call: what its router serves, less its disabled paths. */
function libraryRoutes(auth: Auth): LibraryRoute[] {
  const disabled = new Set(auth.options.disabledPaths ?? []);
  const routes: LibraryRoute[] = [];
  for (const endpoint of Object.values(auth.api)) {
    const { path, options } = endpoint as unknown as {
      path?: string;
      options?: { method?: string | string[]; metadata?: { SERVER_ONLY?: boolean } };
    };
    if (!path || !options?.method || options.metadata?.SERVER_ONLY || disabled.has(path)) continue;
    for (const method of [options.method].flat()) routes.push({ method, segments: path.split("/").slice(1) });
  }
  return routes;
}

/**
 * A parameter's value: no dot segment (`.`, `..`) in any spelling the URL parser would resolve,
 * so the path the library reads is the path given.
 */
const PARAMETER = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

/** The library path (`/sign-in/email`) of `url` when it is exactly one of `routes`; else null. */
function canonicalLibraryPath(routes: LibraryRoute[], method: string, url: string): string | null {
  const pathname = url.split("?")[0] ?? "";
  if (!pathname.startsWith(`${BASE_PATH}/`)) return null;
  const path = pathname.slice(BASE_PATH.length);
  const segments = path.split("/").slice(1);
  const matches = (route: LibraryRoute) =>
    route.method === method &&
    route.segments.length === segments.length &&
    route.segments.every((expected, i) => {
      const given = segments[i] ?? "";
      return expected.startsWith(":") ? PARAMETER.test(given) : given === expected;
    });
  return routes.some(matches) ? path : null;
}

export const authRoutes: FastifyPluginAsync = async (app) => {
  const routes = libraryRoutes(app.auth);
  /** Hands the request to the library at `path` (one of its own), with the query it came with. */
  const forward = async (request: FastifyRequest, reply: FastifyReply, path: string, body: unknown) => {
    const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
    const url = new URL(`${BASE_PATH}${path}${query}`, app.env.appUrl);
    const wait = await claimLibraryRequest(app.db, path, request.ip, Date.now());
    if (wait !== null) return sendWebResponse(reply, limitResponse(wait, (ms) => libraryLimitMessage(path, ms)), path);
    const response = await app.auth.handler(toWebRequest(request, url, body));
    if (await refusedUnread(response)) await releaseLibraryRequest(app.db, path, request.ip, Date.now());
    return sendWebResponse(reply, response, path);
  };

  // Only the name goes through to the library, which refuses anything else (auth-hooks.ts); it is
  // trimmed, as registration trims it.
  app.post("/api/auth/update-user", async (request, reply) => {
    const body = request.body;
    const name: unknown = typeof body === "object" && body !== null && "name" in body ? body.name : undefined;
    return forward(request, reply, "/update-user", name === undefined ? {} : { name: typeof name === "string" ? name.trim() : name });
  });

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    handler: async (request, reply) => {
      const path = canonicalLibraryPath(routes, request.method, request.url);
      return path === null ? sendNoRoute(request, reply) : forward(request, reply, path, request.body);
    },
  });
};
