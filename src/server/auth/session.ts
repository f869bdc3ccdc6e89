// Who is calling: the session comes from Better Auth, the entitlements from our users row, and
// the effective plan is decided here on the server, never taken from the browser.
import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { effectivePlan, type Plan } from "../../shared/plans.ts";
import { users } from "../db/schema.ts";
import { sendError } from "../plugins/errors.ts";
import { toWebHeaders } from "./auth.routes.ts";

export type CurrentUser = typeof users.$inferSelect & { plan: Plan };

declare module "fastify" {
  interface FastifyRequest {
    user: CurrentUser | null;
  }
}

export async function currentUser(request: FastifyRequest): Promise<CurrentUser | null> {
  const { auth, db } = request.server;
  const session = await auth.api.getSession({ headers: toWebHeaders(request) });
  if (!session) return null;
  const [user] = await db.select().from(users).where(eq(users.id, session.user.id));
  return user ? { ...user, plan: effectivePlan(user, new Date()) } : null;
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

/** Hook: an administrator (plan admin), decided on the server. */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
  await requireUser(request, reply);
  if (reply.sent) return;
  if (request.user?.plan !== "admin") return sendError(reply, 403, "FORBIDDEN", "Administrators only.");
}
