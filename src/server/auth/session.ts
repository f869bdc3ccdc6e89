// Who is calling: the session comes from Better Auth's session table, the entitlements from our
// users row, and the effective plan is decided here on the server, never taken from the browser.
import { createHmac, timingSafeEqual } from "node:crypto";
import { parseCookie } from "cookie";
import { eq, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { effectivePlan, type Plan } from "../../shared/plans.ts";
import type { Db } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";
import { sendError } from "../plugins/errors.ts";
import { toWebHeaders } from "./web-headers.ts";

export type CurrentUser = typeof users.$inferSelect & { plan: Plan };

declare module "fastify" {
  interface FastifyRequest {
    user: CurrentUser | null;
  }
}

/**
 * The session token from the signed session cookie, or null when it is missing or its signature
 * is wrong. The auth library signs the cookie as `token.base64(HMAC-SHA256(secret, token))`; this
 * checks it synchronously, off the thread pool that password hashing keeps busy during a burst of
 * sign-ins.
 */
export function signedSessionToken(cookieHeader: string | undefined, cookieName: string, secret: string): string | null {
  if (!cookieHeader) return null;
  const value = parseCookie(cookieHeader)[cookieName];
  const dot = value?.lastIndexOf(".") ?? -1;
  if (!value || dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
}

/** The library's answer, for what the one-query read leaves to it: refreshing and removing sessions. */
async function currentUserFromAuthLibrary(request: FastifyRequest): Promise<CurrentUser | null> {
  const { auth, db } = request.server;
  const session = await auth.api.getSession({ headers: toWebHeaders(request) });
  if (!session) return null;
  const [user] = await db.select().from(users).where(eq(users.id, session.user.id));
  return user ? { ...user, plan: effectivePlan(user, new Date()) } : null;
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
 * The signed-in user, read with the session in one query. A session that has expired, or is old
 * enough to be extended (once a day), goes through the auth library, which removes or extends it.
 */
export async function currentUser(request: FastifyRequest): Promise<CurrentUser | null> {
  const { auth, db } = request.server;
  const { authCookies, secret, sessionConfig } = await auth.$context;
  const token = signedSessionToken(request.headers.cookie, authCookies.sessionToken.name, secret);
  if (!token) return null;
  const [row] = await sessionUser(db).execute({ token });
  if (!row) return null;
  const now = Date.now();
  const extendFrom = row.expiresAt.getTime() - (sessionConfig.expiresIn - sessionConfig.updateAge) * 1000;
  if (row.expiresAt.getTime() <= now || extendFrom <= now) return currentUserFromAuthLibrary(request);
  return { ...row.user, plan: effectivePlan(row.user, new Date(now)) };
}

/** Hook: a signed-in user with a verified email, else 401 or 403. Sets request.user. */
export async function requireUser(request: FastifyRequest, reply: FastifyReply) {
  const user = await currentUser(request);
  if (!user) return sendError(reply, 401, "UNAUTHENTICATED", "Please log in to continue.");
  if (!user.emailVerified) {
    return sendError(reply, 403, "EMAIL_NOT_VERIFIED", "Please verify your email to continue.");
  }
  request.user = user;
}

/**
 * The user requireUser (or requireAdmin) let through. For the handlers of a plugin that runs one
 * of them on every request: without it, the route was registered outside that plugin.
 */
export function signedInUser(request: FastifyRequest): CurrentUser {
  if (!request.user) throw new Error(`requireUser must run before ${request.method} ${request.routeOptions.url ?? request.url}`);
  return request.user;
}

/** Hook: an administrator (plan admin), decided on the server. */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
  await requireUser(request, reply);
  if (reply.sent) return;
  if (request.user?.plan !== "admin") return sendError(reply, 403, "FORBIDDEN", "Administrators only.");
}
