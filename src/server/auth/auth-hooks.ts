// Our checks on the auth library's endpoints, run by the library itself before and after the
// endpoint. `ctx.path` is the endpoint the library routed to, never the path a client spelled: a
// request meets these checks whatever its spelling (`/api/auth/./sign-in/email` and the like,
// docs/product.md, "Limits"), and so does a call through `auth.api`.
import { createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { decodeJwt, jwtVerify } from "jose";
import { ACCOUNT_MESSAGES } from "../../shared/contracts/account-settings.ts";
import { AUTH_MESSAGES, LIMIT_MESSAGES } from "../../shared/contracts/accounts.ts";
import type { Db } from "../db/client.ts";
import { accounts, users } from "../db/schema.ts";
import { verificationMailWait } from "./account-mail-limit.ts";
import { limitRefusal, limitResponse, validationRefusal } from "./auth-errors.ts";
import { claimSignUp } from "./auth-limits.ts";
import {
  claimPasswordCheck,
  clearLoginFailures,
  lockoutEmail,
  recordLoginFailure,
  releasePasswordCheck,
} from "./login-lockout.ts";
import { CLIENT_IP_HEADER } from "./web-headers.ts";

const MAX_NAME_LENGTH = 100;

/**
 * The profile name is the only account field a user writes (docs/product.md, "Roles"). The library
 * would also take its `image`, and any field declared to it later: anything but the name is
 * refused. The name's rules are the registration form's: text, at most 100 characters.
 */
function checkProfileFields(body: unknown): void {
  if (typeof body !== "object" || body === null) return;
  if (Object.keys(body).some((key) => key !== "name")) throw validationRefusal(AUTH_MESSAGES.profileNameOnly);
  const name: unknown = "name" in body ? body.name : undefined;
  if (name !== undefined && (typeof name !== "string" || name.length > MAX_NAME_LENGTH)) {
    throw validationRefusal(AUTH_MESSAGES.profileNameInvalid);
  }
  if (typeof name === "string" && name.trim() === "") throw validationRefusal(ACCOUNT_MESSAGES.nameRequired);
}

/** The account's id when this email has one (any case). */
async function userIdByEmail(db: Db, email: string): Promise<string | null> {
  const [user] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`);
  return user?.id ?? null;
}

/** What a hook is handed: the endpoint's context, as the library's session reader takes it. */
type HookContext = Parameters<typeof getSessionFromCtx>[0];

/** The string `key` of a request body, a query or a token's payload; null when there is none. */
function stringIn(record: unknown, key: string): string | null {
  if (typeof record !== "object" || record === null || !(key in record)) return null;
  const value: unknown = (record as Record<string, unknown>)[key];
  return typeof value === "string" ? value : null;
}

const emailIn = (record: unknown, key: string) => stringIn(record, key)?.trim().toLowerCase() || null;

/**
 * An email change names an address of its own, free (docs/accounts.md, "Changing your email"):
 * the library would answer a taken one as if it had mailed a link, and change nothing; ours says
 * so, as registration does. The address a link changes to is checked again when it is opened.
 */
async function checkNewEmail(db: Db, ctx: HookContext): Promise<void> {
  const newEmail = emailIn(ctx.body, "newEmail");
  if (!newEmail) return;
  const session = await getSessionFromCtx(ctx);
  if (session && session.user.email.toLowerCase() === newEmail) throw validationRefusal(ACCOUNT_MESSAGES.emailUnchanged);
  if (await userIdByEmail(db, newEmail)) throw validationRefusal(ACCOUNT_MESSAGES.emailInUse);
}

/** The link of an email change, opened once the new address has been taken by another account. */
async function checkChangedEmailStillFree(db: Db, token: string | null): Promise<void> {
  if (!token) return;
  let payload: unknown;
  try {
    payload = decodeJwt(token);
  } catch {
    return; // not a token at all: the library refuses it
  }
  const updateTo = emailIn(payload, "updateTo");
  if (updateTo && (await userIdByEmail(db, updateTo))) throw validationRefusal(ACCOUNT_MESSAGES.emailInUse);
}

/**
 * A verification link opened again once its email is verified (a second device, a reused link):
 * the library would answer as it did the first time; ours says so, for the page to say it
 * (docs/accounts.md, "Verification links"). Only for a token the library would take: signed
 * with our secret, unexpired, naming this account.
 */
async function alreadyVerifiedAnswer(db: Db, ctx: HookContext, token: string | null) {
  if (!token) return;
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(ctx.context.secret), { algorithms: ["HS256"] }));
  } catch {
    return; // the library refuses it, in its own words
  }
  const email = emailIn(payload, "email");
  if (!email || stringIn(payload, "updateTo")) return;
  const [user] = await db.select({ id: users.id, emailVerified: users.emailVerified }).from(users).where(sql`lower(${users.email}) = ${email}`);
  const boundTo = stringIn(payload, "userId");
  if (!user?.emailVerified || (boundTo && boundTo !== user.id)) return;
  return ctx.json({ status: true, user: null, alreadyVerified: true });
}

/**
 * Deleting an account that has a password asks for it (docs/accounts.md, "Deleting an account"):
 * without one, the library would settle for a recent sign-in, which is the confirmation only of
 * an account that signs in with Google or MQL5.
 */
async function requirePasswordToDelete(db: Db, ctx: HookContext): Promise<void> {
  if (stringIn(ctx.body, "password")) return;
  const session = await getSessionFromCtx(ctx);
  if (!session) return; // the library answers 401
  const [credential] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, session.user.id), eq(accounts.providerId, "credential"), isNotNull(accounts.password)));
  if (credential) throw validationRefusal(ACCOUNT_MESSAGES.deletePasswordRequired);
}

/**
 * Signing in with an unverified email asks for a mail, and the library answers 403 ("we sent you a
 * new link") whether or not it went out. Once a mail of this account was refused in the current
 * window, the answer is 429 instead, saying so (docs/decisions/007-verification-mail-limit.md):
 * the password was right, so it reveals nothing the 403 does not.
 */
async function verificationMailRefusal(db: Db, email: string, returned: unknown): Promise<Response | undefined> {
  if (!isAPIError(returned) || returned.body?.code !== "EMAIL_NOT_VERIFIED") return;
  const userId = await userIdByEmail(db, email);
  const wait = userId ? await verificationMailWait(db, userId, Date.now()) : null;
  return wait === null ? undefined : limitResponse(wait, LIMIT_MESSAGES.verificationEmails);
}

/** Settles the lockout's claim once the password was checked (or not). */
async function settlePasswordCheck(db: Db, email: string, returned: unknown): Promise<void> {
  if (!isAPIError(returned)) return clearLoginFailures(db, email);
  // 401 is the library's answer to a wrong password (or an unknown email, which counts the same).
  if (returned.statusCode === 401) return recordLoginFailure(db, email);
  return releasePasswordCheck(db, email, Date.now());
}

export function authHooks(db: Db) {
  return {
    before: createAuthMiddleware(async (ctx) => {
      if (ctx.path === "/sign-in/email") {
        const email = lockoutEmail(ctx.body);
        const wait = email ? await claimPasswordCheck(db, email, Date.now()) : null;
        if (wait !== null) throw limitRefusal(wait, LIMIT_MESSAGES.lockedOut);
      } else if (ctx.path === "/sign-up/email") {
        const wait = await claimSignUp(db, ctx.headers?.get(CLIENT_IP_HEADER) ?? "unknown", Date.now());
        if (wait !== null) throw limitRefusal(wait, LIMIT_MESSAGES.signUps);
      } else if (ctx.path === "/update-user") {
        checkProfileFields(ctx.body);
      } else if (ctx.path === "/change-email") {
        await checkNewEmail(db, ctx);
      } else if (ctx.path === "/verify-email") {
        const token = stringIn(ctx.query, "token");
        await checkChangedEmailStillFree(db, token);
        return alreadyVerifiedAnswer(db, ctx, token);
      } else if (ctx.path === "/delete-user") {
        await requirePasswordToDelete(db, ctx);
      }
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== "/sign-in/email") return;
      const email = lockoutEmail(ctx.body);
      if (!email) return;
      const returned = ctx.context.returned;
      await settlePasswordCheck(db, email, returned);
      return verificationMailRefusal(db, email, returned);
    }),
  };
}
