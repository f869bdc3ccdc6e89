// Mounts Better Auth at /api/auth/*: Fastify's request becomes a Fetch Request and back, with
// the client address Fastify trusts and errors in our shape. Only the library's own paths, spelled
// exactly as it routes them, reach it: any other spelling is a 404 here, since the library would
// read it normalised (docs/product.md, "Limits"). The lockout and the other checks on its endpoints
// run inside the library (auth-hooks.ts), whatever the path. Its limits are counted here, as a
// request is handed to the library, and given back when the library refuses it unread
// (docs/product.md, "Timings and limits"): per address, unless another site made the request, and
// per link or device, whatever made it.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { FeatureDeps } from "../feature.ts";
import { sendError, sendNoRoute } from "../plugins/errors.ts";
import { fromAnotherSite } from "../plugins/same-origin.ts";
import type { Auth } from "./auth.ts";
import { authErrorMessage, limitResponse, type LibraryError } from "./auth-errors.ts";
import { claimLibraryRequest, libraryLimitMessage, releaseLibraryRequest, type LibraryCaller } from "./auth-limits.ts";
import { signedSessionToken } from "./session.ts";
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

/** A request's library endpoint: its route (`/reset-password/:token`) and the values of its parameters. */
type LibraryMatch = { path: string; route: string; params: Record<string, string> };

/** The library endpoint of `url` when its path is exactly one of `routes`; else null. */
function matchLibraryRoute(routes: LibraryRoute[], method: string, url: string): LibraryMatch | null {
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
  const route = routes.find(matches);
  if (!route) return null;
  const params = Object.fromEntries(
    route.segments.flatMap((segment, i) => (segment.startsWith(":") ? [[segment.slice(1), segments[i] ?? ""]] : [])),
  );
  return { path, route: `/${route.segments.join("/")}`, params };
}

/**
 * Where the library's endpoints that act on a link's token find it: a verification link, a reset
 * link, a provider's return to us (Google's or MQL5's, its `state`). Each such request is counted
 * against its token too, from wherever it comes (docs/product.md, "When a request counts against a
 * limit").
 */
const LINK_TOKENS: Record<string, (match: LibraryMatch, query: URLSearchParams, body: unknown) => string | undefined> = {
  "/verify-email": (_match, query) => onlyValue(query, "token"),
  "/reset-password/:token": (match) => match.params.token,
  // The new password, posted with the reset link's token.
  "/reset-password": (_match, _query, body) => stringIn(body, "token"),
  "/callback/:id": (_match, query) => onlyValue(query, "state"),
};

function stringIn(body: unknown, key: string): string | undefined {
  if (typeof body !== "object" || body === null || !(key in body)) return undefined;
  const value: unknown = (body as Record<string, unknown>)[key];
  return typeof value === "string" ? value : undefined;
}

/** A parameter given once, as the library reads it (given twice, the library refuses it unread). */
function onlyValue(query: URLSearchParams, key: string): string | undefined {
  const values = query.getAll(key);
  return values.length === 1 ? values[0] : undefined;
}

export const authRoutes = ({ auth, db, env }: Pick<FeatureDeps, "auth" | "db" | "env">): FastifyPluginAsync => async (app) => {
  const routes = libraryRoutes(auth);
  const appOrigin = new URL(env.appUrl).origin;
  const { authCookies, secret } = await auth.$context;

  /**
   * What the request is counted against: its address, unless another site made it; and the token
   * of the link it opens or, without one, the session it is signed in with.
   */
  const callerOf = (request: FastifyRequest, match: LibraryMatch, url: URL, body: unknown): LibraryCaller => {
    const address = fromAnotherSite(request.headers, appOrigin) ? null : request.ip;
    const link = LINK_TOKENS[match.route]?.(match, url.searchParams, body);
    if (link) return { address, guarded: { kind: "link", token: link } };
    const session = signedSessionToken(request.headers.cookie, authCookies.sessionToken.name, secret);
    return { address, guarded: session === null ? null : { kind: "device", token: session } };
  };

  /** Hands the request to the library at its endpoint, with the query it came with. */
  const forward = async (request: FastifyRequest, reply: FastifyReply, match: LibraryMatch, body: unknown) => {
    const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
    const url = new URL(`${BASE_PATH}${match.path}${query}`, env.appUrl);
    const caller = callerOf(request, match, url, body);
    const refusal = await claimLibraryRequest(db, match.route, caller, Date.now());
    if (refusal !== null) {
      return sendWebResponse(reply, limitResponse(refusal.ms, () => libraryLimitMessage(match.route, refusal)), match.route);
    }
    const response = await auth.handler(toWebRequest(request, url, body));
    if (await refusedUnread(response)) await releaseLibraryRequest(db, match.route, caller, Date.now());
    return sendWebResponse(reply, response, match.route);
  };

  // Only the name goes through to the library, which refuses anything else (auth-hooks.ts); it is
  // trimmed, as registration trims it.
  app.post("/api/auth/update-user", async (request, reply) => {
    const body = request.body;
    const name: unknown = typeof body === "object" && body !== null && "name" in body ? body.name : undefined;
    const match = { path: "/update-user", route: "/update-user", params: {} };
    return forward(request, reply, match, name === undefined ? {} : { name: typeof name === "string" ? name.trim() : name });
  });

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    handler: async (request, reply) => {
      const match = matchLibraryRoute(routes, request.method, request.url);
      return match === null ? sendNoRoute(request, reply) : forward(request, reply, match, request.body);
    },
  });
};
