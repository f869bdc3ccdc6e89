// Registration and password reset requests: what Better Auth does not decide on its own
// (the spec's answers for an email that is already registered, and a failed verification mail).
import { APIError } from "better-auth/api";
import { and, count, eq, gt, like, min, sql } from "drizzle-orm";
import { AUTH_MESSAGES, LIMIT_MESSAGES, type RegisterResponse } from "../../../shared/contracts/accounts.ts";
import { accessLevelLabel, tracksForPlan, type Plan } from "../../../shared/plans.ts";
import { ACCOUNT_MAIL_WINDOW_MS, MAILS_PER_ACCOUNT, verificationMailWait } from "../../auth/account-mail-limit.ts";
import { resetMailSent, verificationMailOutcome, type Auth } from "../../auth/auth.ts";
import { withPasswordHashedAhead } from "../../auth/password-hashing.ts";
import type { CurrentUser } from "../../auth/session.ts";
import type { Db } from "../../db/client.ts";
import { users, verifications } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";

async function findUserByEmail(db: Db, email: string) {
  const [user] = await db
    .select({ id: users.id, emailVerified: users.emailVerified })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return user ?? null;
}

/** The account had its share of mails lately (docs/product.md, "Limits"): what, and for how long. */
function tooManyMails(message: (ms: number) => string, retryAfterMs: number) {
  return new HttpError(429, "TOO_MANY_REQUESTS", message(retryAfterMs));
}

/** Asks for the verification mail: sent, refused by the per-account limit, or failed. */
function sendVerification(auth: Auth, email: string, headers: Headers) {
  return verificationMailOutcome(() => auth.api.sendVerificationEmail({ body: { email }, headers }));
}

export async function register(
  deps: { db: Db; auth: Auth },
  input: { fullName: string; email: string; password: string },
  headers: Headers,
): Promise<RegisterResponse> {
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing?.emailVerified) throw new HttpError(409, "ALREADY_VERIFIED", AUTH_MESSAGES.alreadyVerified);
  if (existing) {
    // This answer already tells whether the email is registered (docs/product.md, "Accounts"), so
    // saying that its mails are used up tells nothing more.
    const outcome = await sendVerification(deps.auth, input.email, headers);
    if (outcome === "limited") {
      const wait = await verificationMailWait(deps.db, existing.id, Date.now());
      throw tooManyMails(LIMIT_MESSAGES.verificationEmails, wait ?? ACCOUNT_MAIL_WINDOW_MS);
    }
    if (outcome === "failed") throw new HttpError(502, "MAIL_FAILED", AUTH_MESSAGES.verificationMailFailed);
    return { status: "verification-resent", message: AUTH_MESSAGES.verificationResent };
  }

  try {
    const { password } = await deps.auth.$context;
    await withPasswordHashedAhead(password.hash, input.password, () =>
      deps.auth.api.signUpEmail({
        body: { name: input.fullName, email: input.email, password: input.password },
        headers,
      }),
    );
  } catch (error) {
    // The per-address limit on new accounts (auth/auth-limits.ts) says what and for how long.
    if (error instanceof APIError && error.statusCode === 429) {
      throw new HttpError(429, "TOO_MANY_REQUESTS", error.message);
    }
    if (error instanceof APIError && error.body?.code?.startsWith("USER_ALREADY_EXISTS")) {
      throw new HttpError(409, "EMAIL_IN_USE", AUTH_MESSAGES.emailInUse);
    }
    if (error instanceof APIError && error.statusCode < 500) {
      throw new HttpError(400, error.body?.code ?? "INVALID", AUTH_MESSAGES.authFailed);
    }
    throw new HttpError(500, "REGISTRATION_FAILED", AUTH_MESSAGES.registrationFailed);
  }

  // A new account has had no mail yet, so only a failure stops this one.
  if ((await sendVerification(deps.auth, input.email, headers)) !== "sent") {
    return { status: "created-mail-failed", message: AUTH_MESSAGES.verificationMailFailed };
  }
  return { status: "created", message: AUTH_MESSAGES.registrationSuccess };
}

/**
 * When the auth library issued this user their share of reset links in the window (each is a
 * verification row until used), the milliseconds until the oldest of them leaves it; else null.
 */
async function resetLinkWait(db: Db, userId: string, now: Date): Promise<number | null> {
  const [row] = await db
    .select({ links: count(), oldest: min(verifications.createdAt) })
    .from(verifications)
    .where(
      and(
        like(verifications.identifier, "reset-password:%"),
        eq(verifications.value, userId),
        gt(verifications.createdAt, new Date(now.getTime() - ACCOUNT_MAIL_WINDOW_MS)),
      ),
    );
  if (!row?.oldest || row.links < MAILS_PER_ACCOUNT) return null;
  return row.oldest.getTime() + ACCOUNT_MAIL_WINDOW_MS - now.getTime();
}

export async function requestPasswordReset(
  deps: { db: Db; auth: Auth; appUrl: string },
  email: string,
  headers: Headers,
): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw new HttpError(404, "USER_NOT_FOUND", AUTH_MESSAGES.forgotNoUser);
  const wait = await resetLinkWait(deps.db, user.id, new Date());
  if (wait !== null) throw tooManyMails(LIMIT_MESSAGES.resetEmails, wait);
  const sent = await resetMailSent(() =>
    deps.auth.api.requestPasswordReset({ body: { email, redirectTo: `${deps.appUrl}/reset-password` }, headers }),
  );
  if (!sent) throw new HttpError(502, "MAIL_FAILED", AUTH_MESSAGES.unexpected);
}

export function toMe(user: CurrentUser) {
  const plan: Plan = user.plan;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerified,
    provider: user.provider,
    plan,
    accessLevel: accessLevelLabel(plan),
    tracks: [...tracksForPlan(plan)],
    isAdmin: plan === "admin",
    subscriptionEnd: user.subscriptionEnd?.toISOString() ?? null,
  };
}
