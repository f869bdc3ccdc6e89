// The account page's server side (docs/accounts.md): the signed-in devices, signing one out, and
// asking for an email change. Name, password, the other devices and deletion go straight to the
// auth library's endpoints (/api/auth/*), whose checks are in auth/auth-hooks.ts.
import { APIError } from "better-auth/api";
import { and, desc, eq, gt } from "drizzle-orm";
import { ACCOUNT_MESSAGES, type AccountSession } from "../../../shared/contracts/account-settings.ts";
import { LIMIT_MESSAGES } from "../../../shared/contracts/accounts.ts";
import { ACCOUNT_MAIL_WINDOW_MS, verificationMailWait } from "../../auth/account-mail-limit.ts";
import { verificationMailOutcome, type Auth } from "../../auth/auth.ts";
import { authErrorMessage } from "../../auth/auth-errors.ts";
import type { Db } from "../../db/client.ts";
import { sessions } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** "Chrome on Windows" from a browser's user agent: what a person recognises their device by. */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}

/** The account's signed-in devices, the one in use first, then the most recently active. */
export async function listAccountSessions(db: Db, userId: string, currentToken: string | null, now: Date): Promise<AccountSession[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.updatedAt));
  return rows
    .map((row) => ({
      id: row.id,
      device: describeUserAgent(row.userAgent),
      ipAddress: row.ipAddress || null,
      signedInAt: row.createdAt.toISOString(),
      lastActiveAt: row.updatedAt.toISOString(),
      current: row.token === currentToken,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Signs one of the account's other devices out, through the auth library. */
export async function revokeAccountSession(
  deps: { db: Db; auth: Auth },
  input: { userId: string; sessionId: string; currentToken: string | null; headers: Headers },
): Promise<void> {
  const [session] = await deps.db
    .select({ token: sessions.token })
    .from(sessions)
    .where(and(eq(sessions.id, input.sessionId), eq(sessions.userId, input.userId)));
  if (!session) throw new HttpError(404, "SESSION_NOT_FOUND", ACCOUNT_MESSAGES.sessionNotFound);
  if (session.token === input.currentToken) throw new HttpError(400, "CURRENT_SESSION", ACCOUNT_MESSAGES.currentSession);
  await deps.auth.api.revokeSession({ body: { token: session.token }, headers: input.headers });
}

/**
 * Asks the auth library to mail a link to the new address; the email changes once it is opened
 * (docs/accounts.md, "Changing your email"). The mail counts towards the account's verification
 * mails (docs/decisions/007-verification-mail-limit.md), and a refused one is said so.
 */
export async function requestEmailChange(
  deps: { db: Db; auth: Auth },
  input: { userId: string; newEmail: string; headers: Headers },
): Promise<{ message: string }> {
  let refused: APIError | null = null;
  const outcome = await verificationMailOutcome(async () => {
    try {
      await deps.auth.api.changeEmail({ body: { newEmail: input.newEmail }, headers: input.headers });
    } catch (error) {
      // Our checks in the library (a taken or unchanged address) refuse; anything else failed.
      if (!(error instanceof APIError) || error.statusCode >= 500) throw error;
      refused = error;
    }
  });
  if (refused) {
    const { statusCode, body } = refused as APIError;
    throw new HttpError(statusCode, body?.code ?? "INVALID", authErrorMessage("/change-email", { code: body?.code, message: body?.message }));
  }
  if (outcome === "limited") {
    const wait = await verificationMailWait(deps.db, input.userId, Date.now());
    throw new HttpError(429, "TOO_MANY_REQUESTS", LIMIT_MESSAGES.verificationEmails(wait ?? ACCOUNT_MAIL_WINDOW_MS));
  }
  if (outcome === "failed") throw new HttpError(502, "MAIL_FAILED", ACCOUNT_MESSAGES.emailChangeMailFailed);
  return { message: ACCOUNT_MESSAGES.emailChangeSent(input.newEmail) };
}
