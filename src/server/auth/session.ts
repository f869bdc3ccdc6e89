// Who is calling: the session comes from Better Auth's session table, the entitlements from our
// users row, and the effective plan is decided here on the server, never taken from the browser.
import { createHmac, timingSafeEqual } from "node:crypto";
import { parseCookie, stringifySetCookie } from "cookie";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ANSWER_FOR } from "../../shared/offline.ts";
import { effectivePlan, type Plan } from "../../shared/plans.ts";
import type { Db } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";
import { PerUserCache, type UserChanges } from "../db/user-changes.ts";
import { sendError } from "../plugins/errors.ts";
import type { Auth } from "./auth.ts";
import { toWebHeaders } from "./web-headers.ts";

export type CurrentUser = typeof users.$inferSelect & { plan: Plan };

/** A session as the one-query read finds it: its user's row and when it expires. */
export type SessionEntry = { user: typeof users.$inferSelect; expiresAt: Date };

declare module "fastify" {
  interface FastifyRequest {
    user: CurrentUser | null;
  }
  interface FastifyContextConfig {
    /**
     * The route changes only its caller's learning, and forgets what it changed itself, after a
     * write it made (a video already watched writes nothing, and forgets nothing).
     */
    forgetsItsOwnChanges?: true;
  }
}


/** The signed session cookie's value (`token.signature`), or null when the request has none. */
function sessionCookieValue(cookieHeader: string | undefined, cookieName: string): string | null {
  if (!cookieHeader) return null;
  return parseCookie(cookieHeader)[cookieName] || null;
}

/**
 * The session token of a signed cookie value, or null when its signature is wrong. The auth
 * library signs the cookie as `token.base64(HMAC-SHA256(secret, token))`; this checks it
 * synchronously, off the thread pool that password hashing keeps busy during a burst of sign-ins.
 */
function verifiedSessionToken(value: string, secret: string): string | null {
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
}

/** The session token from the signed session cookie, or null when it is missing or its signature is wrong. */
export function signedSessionToken(cookieHeader: string | undefined, cookieName: string, secret: string): string | null {
  const value = sessionCookieValue(cookieHeader, cookieName);
  return value ? verifiedSessionToken(value, secret) : null;
}

function sessionUserQuery(db: Db) {
  return db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.token, sql.placeholder("token")))
    .prepare("current_session_user");
}

/**
 * The session-and-user query, built once per database (docs/performance.md, "Where the time
 * goes"): building it was a tenth of a signed-in read; on PostgreSQL it is a named prepared
 * statement, parsed once per connection.
 */
const preparedSessionUser = new WeakMap<Db, ReturnType<typeof sessionUserQuery>>();

function sessionUser(db: Db) {
  let query = preparedSessionUser.get(db);
  if (!query) {
    query = sessionUserQuery(db);
    preparedSessionUser.set(db, query);
  }
  return query;
}

/**
 * The user requireUser (or requireAdmin) let through. For the handlers of a plugin that runs one
 * of them on every request: without it, the route was registered outside that plugin.
 */
export function signedInUser(request: FastifyRequest): CurrentUser {
  if (!request.user) throw new Error(`requireUser must run before ${request.method} ${request.routeOptions.url ?? request.url}`);
  return request.user;
}

/** Where every admin console route lives; the guard tests read each route under it from the router. */
export const ADMIN_PREFIX = "/api/admin";

/** Who is calling, and the guards built on it, made once in app.ts (src/server/feature.ts). */
export type Sessions = ReturnType<typeof createSessions>;

export function createSessions({ auth, db, userChanges }: { auth: Auth; db: Db; userChanges: UserChanges }) {
  /** Sessions by their signed cookie value, forgotten when their user's account or sessions change (docs/performance.md, "Caching signed-in reads"). */
  const cache = new PerUserCache<SessionEntry>(userChanges, { scope: "account", maxEntries: 20_000, maxAgeMs: 5 * 60_000 });

  /** The library's answer, for what the one-query read leaves to it: refreshing and removing sessions. */
  async function currentUserFromAuthLibrary(request: FastifyRequest): Promise<CurrentUser | null> {
    const session = await auth.api.getSession({ headers: toWebHeaders(request) });
    if (!session) return null;
    const [user] = await db.select().from(users).where(eq(users.id, session.user.id));
    return user ? { ...user, plan: effectivePlan(user, new Date()) } : null;
  }

  /**
   * The signed-in user, read with the session in one query. A session that has expired, or is old
   * enough to be extended (once a day), goes through the auth library, which removes or extends it.
   */
  async function currentUser(request: FastifyRequest): Promise<CurrentUser | null> {
    const { authCookies, secret, sessionConfig } = await auth.$context;
    const signed = sessionCookieValue(request.headers.cookie, authCookies.sessionToken.name);
    if (!signed) return null;
    // Kept by the signed value: an entry is stored only once its signature has been checked, so a
    // value found needs no second check (docs/performance.md, "The session cookie checked once").
    let row = cache.get(signed);
    if (!row) {
      const token = verifiedSessionToken(signed, secret);
      if (!token) return null;
      const stamp = cache.stamp();
      [row] = await sessionUser(db).execute({ token });
      if (!row) return null;
      cache.set(signed, row.user.id, row, stamp);
    }
    const now = Date.now();
    const extendFrom = row.expiresAt.getTime() - (sessionConfig.expiresIn - sessionConfig.updateAge) * 1000;
    if (row.expiresAt.getTime() <= now || extendFrom <= now) return currentUserFromAuthLibrary(request);
    return { ...row.user, plan: effectivePlan(row.user, new Date(now)) };
  }

  /**
   * Whether the request carries a session cookie we signed whose session is gone: this device was
   * signed out from another one (docs/accounts.md, "Signed out elsewhere"). The cookie is cleared,
   * so this is said once. An expired session is not gone yet here: the library removes it.
   */
  async function endedSession(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const { authCookies, secret } = await auth.$context;
    const { name, attributes } = authCookies.sessionToken;
    const signed = sessionCookieValue(request.headers.cookie, name);
    const token = signed ? verifiedSessionToken(signed, secret) : null;
    if (!token) return false;
    const [session] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.token, token));
    if (session) return false;
    // Cleared as the library sets it: the same name, path and domain.
    const { path, domain, httpOnly, secure } = attributes;
    reply.header("set-cookie", stringifySetCookie({ name, value: "", maxAge: 0, path, domain, httpOnly, secure, sameSite: "lax" }));
    return true;
  }

  /** Hook: a signed-in user with a verified email, else 401 or 403. Sets request.user. */
  async function requireUser(request: FastifyRequest, reply: FastifyReply) {
    const user = await currentUser(request);
    if (!user) return sendError(reply, 401, "UNAUTHENTICATED", "Please log in to continue.");
    if (!user.emailVerified) {
      return sendError(reply, 403, "EMAIL_NOT_VERIFIED", "Please verify your email to continue.");
    }
    request.user = user;
    // Whose answer this is: the service worker shows a kept read to no one else (docs/product.md, "Offline").
    if (request.method === "GET") reply.header(ANSWER_FOR, user.id);
  }

  /** Hook: an administrator (plan admin), decided on the server. */
  async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
    await requireUser(request, reply);
    if (reply.sent) return;
    if (request.user?.plan !== "admin") return sendError(reply, 403, "FORBIDDEN", "Administrators only.");
  }

  /**
   * A feature's admin console routes (under ADMIN_PREFIX), behind the one guard: the admin plan,
   * decided on the server for each request, and never kept by a browser or proxy. Sub-plugins
   * inherit the hooks, so a route added to `routes` cannot forget them.
   */
  function adminOnly(routes: FastifyPluginAsyncZod): FastifyPluginAsyncZod {
    return async (app) => {
      app.addHook("onRequest", requireAdmin);
      app.addHook("onSend", async (_request, reply) => {
        reply.header("cache-control", "no-store");
      });
      await app.register(routes);
    };
  }

  /** The user id of the session a request carries, when this instance has it in memory. */
  async function sessionUserIdFromCookie(request: FastifyRequest): Promise<string | null> {
    if (!request.headers.cookie || cache.size === 0) return null;
    const { authCookies } = await auth.$context;
    const signed = sessionCookieValue(request.headers.cookie, authCookies.sessionToken.name);
    return signed ? (cache.get(signed)?.user.id ?? null) : null;
  }

  /**
   * A change made by a request is forgotten on this instance before the answer leaves, so the
   * caller's next request sees it; other instances hear of it from the database a moment later
   * (docs/performance.md, "Caching signed-in reads"). A learner changes only their own data (a
   * route marked `forgetsItsOwnChanges` forgets it itself); an administrator may change anyone's,
   * so everything is forgotten. A request the app did not sign in
   * (the auth library's own: sign-out, password change) forgets the session it carried.
   */
  function registerOwnChangesForgotten(app: FastifyInstance): void {
    app.addHook("onSend", async (request) => {
      if (request.method === "GET" || request.method === "HEAD") return;
      if (request.routeOptions.config.forgetsItsOwnChanges) return;
      const userId = request.user?.id ?? (await sessionUserIdFromCookie(request));
      if (!userId) return;
      if (request.user?.plan === "admin") return userChanges.changed(null);
      userChanges.changed({ scope: "learning", userId });
      userChanges.changed({ scope: "account", userId });
    });
  }

  return { cache, currentUser, endedSession, requireUser, requireAdmin, adminOnly, registerOwnChangesForgotten };
}
