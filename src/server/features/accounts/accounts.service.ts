// Registration and password reset requests: what Better Auth does not decide on its own
// (the spec's answers for an email that is already registered, and a failed verification mail).
import { APIError } from "better-auth/api";
import { and, count, eq, gt, like, sql } from "drizzle-orm";
import { AUTH_MESSAGES, type RegisterResponse } from "../../../shared/contracts/accounts.ts";
import { accessLevelLabel, tracksForPlan, type Plan } from "../../../shared/plans.ts";
import { ACCOUNT_MAIL_WINDOW_MS, MAILS_PER_ACCOUNT } from "../../auth/account-mail-limit.ts";
import { resetMailSent, verificationMailOutcome, type Auth } from "../../auth/auth.ts";
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

/** The account had its share of mails lately: the answer of the per-address limit, in its words. */
function tooManyMails() {
  return new HttpError(429, "FST_ERR_RATE_LIMIT_EXCEEDED", "Too many requests. Please try again later.");
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
    if (outcome === "limited") throw tooManyMails();
    if (outcome === "failed") throw new HttpError(502, "MAIL_FAILED", AUTH_MESSAGES.verificationMailFailed);
    return { status: "verification-resent", message: AUTH_MESSAGES.verificationResent };
  }

  try {
    await deps.auth.api.signUpEmail({
      body: { name: input.fullName, email: input.email, password: input.password },
      headers,
    });
  } catch (error) {
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

/** Reset links the auth library issued for this user in the window (each is a verification row until used). */
async function recentResetLinks(db: Db, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ links: count() })
    .from(verifications)
    .where(
      and(
        like(verifications.identifier, "reset-password:%"),
        eq(verifications.value, userId),
        gt(verifications.createdAt, new Date(now.getTime() - ACCOUNT_MAIL_WINDOW_MS)),
      ),
    );
  return row?.links ?? 0;
}

export async function requestPasswordReset(
  deps: { db: Db; auth: Auth; appUrl: string },
  email: string,
  headers: Headers,
): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw new HttpError(404, "USER_NOT_FOUND", AUTH_MESSAGES.forgotNoUser);
  if ((await recentResetLinks(deps.db, user.id, new Date())) >= MAILS_PER_ACCOUNT) throw tooManyMails();
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
