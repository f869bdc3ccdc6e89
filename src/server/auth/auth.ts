// Accounts through Better Auth: email and password with verification and reset, Google (OIDC)
// and MQL5 (OAuth 2.0) through its generic OAuth plugin. Sessions live in the database.
import { AsyncLocalStorage } from "node:async_hooks";
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { createEmailVerificationToken } from "better-auth/api";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth, type GenericOAuthConfig } from "better-auth/plugins/generic-oauth";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { decodeJwt } from "jose";
import { RECENT_SIGN_IN_MINUTES } from "../../shared/contracts/account-settings.ts";
import { MIN_PASSWORD_LENGTH } from "../../shared/contracts/accounts.ts";
import type { Provider } from "../../shared/plans.ts";
import type { Db } from "../db/client.ts";
import { accounts, rateLimits, sessions, users, verifications } from "../db/schema.ts";
import type { Env } from "../env.ts";
import type { Mailer } from "../emails/outbox.ts";
import { fetchMql5User } from "../integrations/mql5.ts";
import { claimVerificationMail } from "./account-mail-limit.ts";
import { authHooks } from "./auth-hooks.ts";
import { emailChangeEmail, passwordResetEmail, verificationEmail } from "./auth-emails.ts";
import { queueEmailChangeNotice } from "./email-change-notice.ts";
import { createPasswordHashing, type Hashing } from "./password-hashing.ts";
import { CLIENT_IP_HEADER } from "./web-headers.ts";
import { loggedAuthMessage, loggedError } from "../plugins/logger.ts";

/**
 * Told of every new account once its rows are committed: what a feature starts for a new user
 * (learning's starter progress) is its own business, not the auth library's.
 */
export type UserCreatedListener = (user: { id: string }) => Promise<void>;

/**
 * Deletes an account, once the library has checked the password (or the recent sign-in) on its
 * delete endpoint: what is kept and what goes is the accounts feature's business, in one
 * transaction of its own (docs/accounts.md, "Deleting an account"). It removes the users row itself,
 * so the library's own delete that follows finds nothing left; it refuses by throwing an APIError.
 */
export type AccountDeleter = (user: { id: string }) => Promise<void>;

// Better Auth logs and swallows an error from sendResetPassword, so the request that asked for
// the mail learns of a failure through this store instead.
const resetMailOutcome = new AsyncLocalStorage<{ failed: boolean }>();

/** Runs `task` (which asks Better Auth for a reset mail); false when the mail could not be sent. */
export async function resetMailSent(task: () => Promise<unknown>): Promise<boolean> {
  const outcome = { failed: false };
  await resetMailOutcome.run(outcome, task);
  return !outcome.failed;
}

// Verification mails are limited per account where every path meets: the library's callback. A
// refused mail is not an error there, so that the library's own endpoint answers as it does for an
// unknown address; a caller that may tell the user learns of it through this store.
const verificationMailStore = new AsyncLocalStorage<{ limited: boolean }>();

/** Runs `task` (which asks Better Auth for a verification mail) and says what became of the mail. */
export async function verificationMailOutcome(task: () => Promise<unknown>): Promise<"sent" | "limited" | "failed"> {
  const outcome = { limited: false };
  try {
    await verificationMailStore.run(outcome, task);
  } catch {
    return "failed";
  }
  return outcome.limited ? "limited" : "sent";
}

const PROVIDER_BY_ACCOUNT: Record<string, Provider> = {
  credential: "email",
  google: "google",
  mql5: "mql5",
};

function mql5Config(env: NonNullable<Env["mql5"]>, appUrl: string): GenericOAuthConfig {
  return {
    providerId: "mql5",
    name: "MQL5",
    clientId: env.clientId,
    clientSecret: env.clientSecret,
    authorizationUrl: env.authorizeUrl,
    tokenUrl: env.tokenUrl,
    authentication: "post",
    pkce: false, // not documented by MQL5
    // MQL5's registered redirect URI is the login page, which hands the code to the callback.
    redirectURI: `${appUrl}/login`,
    // MQL5 confirms an account's email before it can be used; should it ever answer otherwise, we
    // verify the address first, as for Google.
    requireEmailVerification: true,
    // A token answer without an access token names no one.
    getUserInfo: async (tokens) => (tokens.accessToken ? fetchMql5User(env.userInfoUrl, tokens.accessToken) : null),
  };
}

function googleConfig(env: NonNullable<Env["google"]>): GenericOAuthConfig {
  return {
    providerId: "google",
    name: "Google",
    clientId: env.clientId,
    clientSecret: env.clientSecret,
    discoveryUrl: env.discoveryUrl,
    // ID tokens are verified against the provider's keys, with issuer, audience, expiry and nonce.
    requireIdTokenVerification: true,
    pkce: true,
    scopes: ["openid", "email", "profile"],
    // An address Google has not verified is verified by us before it signs in (docs/product.md,
    // "Accounts"): the library then refuses the sign-in with email_not_verified, and mails a link.
    requireEmailVerification: true,
  };
}

/**
 * What the auth configuration needs from the server. `passwordHashing` is the auth library's scrypt
 * a few at a time unless given (the API tests give a cheaper scrypt: src/server/testing/light-scrypt.ts).
 */
type AuthDeps = { env: Env; db: Db; mailer: Mailer; log: FastifyBaseLogger; passwordHashing?: Hashing };

/** The sign-in providers of the generic OAuth plugin: Google and MQL5, each when it is configured. */
function oauthProviders(env: Env): GenericOAuthConfig[] {
  return [...(env.google ? [googleConfig(env.google)] : []), ...(env.mql5 ? [mql5Config(env.mql5, env.appUrl)] : [])];
}

/** Email and password accounts: verified before they sign in, reset by a mailed link. */
function emailAndPasswordOptions({ env, mailer, passwordHashing }: Pick<AuthDeps, "env" | "mailer" | "passwordHashing">) {
  return {
    enabled: true,
    password: passwordHashing ?? createPasswordHashing(),
    requireEmailVerification: true,
    autoSignIn: false,
    minPasswordLength: MIN_PASSWORD_LENGTH,
    maxPasswordLength: 128,
    resetPasswordTokenExpiresIn: 60 * 60,
    revokeSessionsOnPasswordReset: true,
    async sendResetPassword({ user, token }) {
      const url = `${env.appUrl}/reset-password?${new URLSearchParams({ token })}`;
      try {
        await mailer.send(passwordResetEmail({ to: user.email, name: user.name, url }));
      } catch (error) {
        const outcome = resetMailOutcome.getStore();
        if (outcome) outcome.failed = true;
        throw error;
      }
    },
  } satisfies BetterAuthOptions["emailAndPassword"];
}

/**
 * Verification mails. Every path that sends one meets in sendVerificationEmail, so the limit of an
 * account's share per window is checked there (docs/decisions/007-verification-mail-limit.md).
 */
function emailVerificationOptions({ env, db, mailer, log }: AuthDeps) {
  return {
    // The register endpoint sends the first mail itself, so that it can tell when it failed.
    sendOnSignUp: false,
    sendOnSignIn: true,
    autoSignInAfterVerification: false,
    expiresIn: 24 * 60 * 60,
    async sendVerificationEmail({ user, token }) {
      if (!(await claimVerificationMail(db, user.id, Date.now()))) {
        const outcome = verificationMailStore.getStore();
        if (outcome) outcome.limited = true;
        log.warn({ userId: user.id }, "verification mail not sent: the account had its share in this window");
        return;
      }
      const url = `${env.appUrl}/verify-email?${new URLSearchParams({ oobCode: token })}`;
      // A token naming an address to change to is an email change: the mail goes to that new
      // address (the library hands it in as the user's email), and says what it is for.
      const emailChange = typeof decodeJwt(token).updateTo === "string";
      const mail = emailChange ? emailChangeEmail : verificationEmail;
      await mailer.send(mail({ to: user.email, name: user.name, url }));
    },
    // Called once a link is verified, an email change's included: its old address is told. The
    // email has changed already, so a notice that cannot be queued is logged, not answered as an error.
    async afterEmailVerification(user, request) {
      await queueEmailChangeNotice(db, request, user).catch((error: unknown) =>
        log.error({ err: error, userId: user.id }, "notice of an email change not queued"),
      );
    },
  } satisfies BetterAuthOptions["emailVerification"];
}

type UserCreated = NonNullable<NonNullable<NonNullable<BetterAuthOptions["databaseHooks"]>["user"]>["create"]>["after"];
type NewUser = Parameters<NonNullable<UserCreated>>[0];
/** The endpoint that created the user, as the library hands it to the hook; null outside one. */
type HookContext = Parameters<NonNullable<UserCreated>>[1];

/**
 * The first verification mail of an account that Google (or MQL5) created with an email it has
 * not verified: the library refuses that sign-in (requireEmailVerification) and mails a link on
 * each later one (sendOnSignIn), but on sign-up only where sendOnSignUp says, which is off because
 * the register endpoint mails its own. Through the one sender, so the account's mail limit holds.
 */
async function mailFirstVerificationLink(user: NewUser, ctx: HookContext, log: FastifyBaseLogger) {
  if (user.emailVerified || !ctx?.path.startsWith("/callback/")) return;
  const { secret, options } = ctx.context;
  const send = options.emailVerification?.sendVerificationEmail;
  if (!send) return;
  try {
    const token = await createEmailVerificationToken(secret, user.email, undefined, options.emailVerification?.expiresIn, {
      userId: user.id,
    });
    // The sender makes the link from the token (the library's own link is not used).
    await send({ user, token, url: "" }, ctx.request);
  } catch (error) {
    // The next sign-in with the provider mails another.
    log.error({ err: error, userId: user.id }, "first verification mail of a provider sign-up not sent");
  }
}

/** What follows a new user, account or session row: the listeners, the provider, last activity. */
function databaseHooks(db: Db, onUserCreated: readonly UserCreatedListener[], log: FastifyBaseLogger) {
  return {
    user: {
      create: {
        // Runs after the user and account rows are committed together.
        async after(user, ctx) {
          for (const listener of onUserCreated) await listener({ id: user.id });
          await mailFirstVerificationLink(user, ctx, log);
        },
      },
    },
    account: {
      create: {
        async after(account) {
          const provider = PROVIDER_BY_ACCOUNT[account.providerId];
          if (!provider) return;
          await db
            .update(users)
            .set({ provider })
            .where(and(eq(users.id, account.userId), isNull(users.provider)));
        },
      },
    },
    session: {
      create: {
        async after(session) {
          await db.update(users).set({ lastActiveAt: session.createdAt }).where(eq(users.id, session.userId));
        },
      },
    },
  } satisfies BetterAuthOptions["databaseHooks"];
}

export function createAuth(
  options: AuthDeps & {
    /** Run in order, once the new user's rows are committed. */
    onUserCreated?: UserCreatedListener[];
    /** Without it, accounts cannot be deleted (the library's endpoint answers 404). */
    deleteAccount?: AccountDeleter;
  },
) {
  const { env, db, log, onUserCreated = [], deleteAccount } = options;
  const providers = oauthProviders(env);
  const auth = betterAuth({
    appName: "Trading Academy",
    baseURL: env.appUrl,
    basePath: "/api/auth",
    secret: env.authSecret,
    trustedOrigins: [env.appUrl],
    // Every failed provider return (a stale or mismatched state, the library's own error page)
    // comes back to the login page, which says what happened in words (docs/product.md, "Accounts").
    // Any other failure than its own refusals is thrown to the server's error handling: the
    // database unreachable is a 503 there, and nothing of the query is logged
    // (docs/operations.md, "Database outage"), where the library would answer 500 and log it all.
    onAPIError: { errorURL: `${env.appUrl}/login`, throw: true },
    // Reset links are requested through POST /api/accounts/forgot-password, which limits them per
    // account too; the library's own endpoint would bypass that limit.
    // Deleting an account is confirmed by the password or a recent sign-in, never by a mailed
    // link, so the link's endpoint is not served.
    // New accounts are made through POST /api/accounts/register, which hashes the password before
    // the library's transaction opens (withPasswordHashedAhead); the library's own endpoint would
    // hash inside it, holding a pooled connection while it waits for the hasher.
    disabledPaths: ["/request-password-reset", "/delete-user/callback", "/sign-up/email"],
    database: drizzleAdapter(db, {
      provider: "pg",
      transaction: true,
      schema: { user: users, session: sessions, account: accounts, verification: verifications, rateLimit: rateLimits },
    }),
    emailAndPassword: emailAndPasswordOptions(options),
    emailVerification: emailVerificationOptions(options),
    // The lockout, the sign-up limit and the profile-name rule, on every path into the library.
    hooks: authHooks(db),
    account: {
      // An email that already has an account is not silently joined to a new sign-in method.
      accountLinking: { enabled: false },
    },
    user: {
      // A new address takes effect once the link mailed to it is opened (docs/accounts.md).
      changeEmail: { enabled: true },
      deleteUser: {
        enabled: deleteAccount !== undefined,
        beforeDelete: async (user) => deleteAccount?.(user),
      },
    },
    session: {
      expiresIn: 30 * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
      // A session this young counts as a recent sign-in: what confirms deleting an account
      // without a password (docs/accounts.md, "Deleting an account").
      freshAge: RECENT_SIGN_IN_MINUTES * 60,
    },
    // The library would count a request on arrival, before reading its body: our /api/auth mount
    // counts the same limits once the body is read (auth-limits.ts; docs/product.md, "Timings and limits").
    rateLimit: { enabled: false },
    advanced: {
      // The library turns these checks off by itself when NODE_ENV is "test" or TEST is set:
      // callback and redirect URLs must stay on APP_URL, and a request carrying the session cookie
      // must come from APP_URL's origin, in every environment (and so in the tests too).
      disableOriginCheck: false,
      disableCSRFCheck: false,
      cookiePrefix: "ta",
      // Production cookies are always Secure: TLS ends at the proxy in front, whatever APP_URL says.
      useSecureCookies: env.isProduction || env.appUrl.startsWith("https://"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    databaseHooks: databaseHooks(db, onUserCreated, log),
    plugins: providers.length > 0 ? [genericOAuth({ config: providers })] : [],
    logger: {
      log(level, message, ...args) {
        // Never what a caller sent, nor a failed query's parameters (docs/operations.md, "Logs").
        log[level]({ args: args.map(loggedError) }, `auth: ${loggedAuthMessage(message)}`);
      },
    },
  });
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
