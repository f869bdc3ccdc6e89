// Accounts through Better Auth: email and password with verification and reset, Google (OIDC)
// and MQL5 (OAuth 2.0) through its generic OAuth plugin. Sessions live in the database.
import { AsyncLocalStorage } from "node:async_hooks";
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth, type GenericOAuthConfig } from "better-auth/plugins/generic-oauth";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { MIN_PASSWORD_LENGTH } from "../../shared/contracts/accounts.ts";
import type { Provider } from "../../shared/plans.ts";
import type { Db } from "../db/client.ts";
import { accounts, rateLimits, sessions, users, verifications } from "../db/schema.ts";
import type { Env } from "../env.ts";
import type { Mailer } from "../integrations/mail.ts";
import { fetchMql5User } from "../integrations/mql5.ts";
import { claimVerificationMail } from "./account-mail-limit.ts";
import { authHooks } from "./auth-hooks.ts";
import { DEFAULT_LIBRARY_LIMIT, LIBRARY_LIMITS } from "./auth-limits.ts";
import { passwordResetEmail, verificationEmail } from "./auth-emails.ts";
import { createPasswordHashing } from "./password-hashing.ts";
import { CLIENT_IP_HEADER } from "./web-headers.ts";

/**
 * Told of every new account once its rows are committed: what a feature starts for a new user
 * (learning's starter progress) is its own business, not the auth library's.
 */
export type UserCreatedListener = (user: { id: string }) => Promise<void>;

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
  };
}

/** What the auth configuration needs from the server. */
type AuthDeps = { env: Env; db: Db; mailer: Mailer; log: FastifyBaseLogger };

/** The sign-in providers of the generic OAuth plugin: Google and MQL5, each when it is configured. */
function oauthProviders(env: Env): GenericOAuthConfig[] {
  return [...(env.google ? [googleConfig(env.google)] : []), ...(env.mql5 ? [mql5Config(env.mql5, env.appUrl)] : [])];
}

/** Email and password accounts: verified before they sign in, reset by a mailed link. */
function emailAndPasswordOptions({ env, mailer }: Pick<AuthDeps, "env" | "mailer">) {
  return {
    enabled: true,
    password: createPasswordHashing(),
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
      await mailer.send(verificationEmail({ to: user.email, name: user.name, url }));
    },
  } satisfies BetterAuthOptions["emailVerification"];
}

/** What follows a new user, account or session row: the listeners, the provider, last activity. */
function databaseHooks(db: Db, onUserCreated: readonly UserCreatedListener[]) {
  return {
    user: {
      create: {
        // Runs after the user and account rows are committed together.
        async after(user) {
          for (const listener of onUserCreated) await listener({ id: user.id });
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

/**
 * Per-address limits on /api/auth/* (auth-limits.ts), counted in the database so that N instances
 * allow what one allows (docs/operations.md). Built anew for each instance, as every other option is.
 */
function rateLimitOptions() {
  return {
    enabled: true,
    storage: "database",
    ...DEFAULT_LIBRARY_LIMIT,
    customRules: Object.fromEntries(Object.entries(LIBRARY_LIMITS).map(([path, rule]) => [path, { ...rule }])),
  } satisfies BetterAuthOptions["rateLimit"];
}

export function createAuth(
  options: AuthDeps & {
    /** Run in order, once the new user's rows are committed. */
    onUserCreated?: UserCreatedListener[];
  },
) {
  const { env, db, log, onUserCreated = [] } = options;
  const providers = oauthProviders(env);
  return betterAuth({
    appName: "Trading Academy",
    baseURL: env.appUrl,
    basePath: "/api/auth",
    secret: env.authSecret,
    trustedOrigins: [env.appUrl],
    // Reset links are requested through POST /api/accounts/forgot-password, which limits them per
    // account too; the library's own endpoint would bypass that limit.
    disabledPaths: ["/request-password-reset"],
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
    session: {
      expiresIn: 30 * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
    },
    rateLimit: rateLimitOptions(),
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
    databaseHooks: databaseHooks(db, onUserCreated),
    plugins: providers.length > 0 ? [genericOAuth({ config: providers })] : [],
    logger: {
      log(level, message, ...args) {
        log[level]({ args }, `auth: ${message}`);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
