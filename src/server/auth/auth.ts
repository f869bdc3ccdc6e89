// Accounts through Better Auth: email and password with verification and reset, Google (OIDC)
// and MQL5 (OAuth 2.0) through its generic OAuth plugin. Sessions live in the database.
import { AsyncLocalStorage } from "node:async_hooks";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth, type GenericOAuthConfig } from "better-auth/plugins/generic-oauth";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { MIN_PASSWORD_LENGTH } from "../../shared/contracts/accounts.ts";
import type { Provider } from "../../shared/plans.ts";
import type { Db } from "../db/client.ts";
import {
  accounts,
  programs,
  rateLimits,
  sessions,
  userProgress,
  users,
  verifications,
} from "../db/schema.ts";
import type { Env } from "../env.ts";
import { passwordResetEmail, verificationEmail } from "../features/accounts/account-emails.ts";
import type { Mailer } from "../integrations/mail.ts";

/** The header the app sets to the client address Fastify computed; a client's own value is dropped. */
export const CLIENT_IP_HEADER = "x-client-ip";

// Better Auth logs and swallows an error from sendResetPassword, so the request that asked for
// the mail learns of a failure through this store instead.
const resetMailOutcome = new AsyncLocalStorage<{ failed: boolean }>();

/** Runs `task` (which asks Better Auth for a reset mail); false when the mail could not be sent. */
export async function resetMailSent(task: () => Promise<unknown>): Promise<boolean> {
  const outcome = { failed: false };
  await resetMailOutcome.run(outcome, task);
  return !outcome.failed;
}

const PROVIDER_BY_ACCOUNT: Record<string, Provider> = {
  credential: "email",
  google: "google",
  mql5: "mql5",
};

/** The beginner progress entry every account starts with (SPEC section 3). */
async function createStarterProgress(db: Db, userId: string) {
  const [beginner] = await db.select({ id: programs.id }).from(programs).where(eq(programs.id, "beginner"));
  if (!beginner) return; // an administrator removed the Beginner program
  await db.insert(userProgress).values({ userId, programId: beginner.id, data: {} }).onConflictDoNothing();
}

async function withOneRetry(task: () => Promise<void>) {
  try {
    await task();
  } catch {
    await task();
  }
}

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
    async getUserInfo(tokens) {
      const response = await fetch(env.userInfoUrl, {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) return null;
      const profile: unknown = await response.json();
      if (typeof profile !== "object" || profile === null) return null;
      const { id, login, email } = profile as Record<string, unknown>;
      if ((typeof id !== "string" && typeof id !== "number") || typeof email !== "string") return null;
      // MQL5 confirms an account's email before it can be used.
      return { id: String(id), email, name: typeof login === "string" ? login : email, emailVerified: true };
    },
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

export function createAuth(options: { env: Env; db: Db; mailer: Mailer; log: FastifyBaseLogger }) {
  const { env, db, mailer, log } = options;
  const oauthProviders = [
    ...(env.google ? [googleConfig(env.google)] : []),
    ...(env.mql5 ? [mql5Config(env.mql5, env.appUrl)] : []),
  ];

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
    emailAndPassword: {
      enabled: true,
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
    },
    emailVerification: {
      // The register endpoint sends the first mail itself, so that it can tell when it failed.
      sendOnSignUp: false,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      async sendVerificationEmail({ user, token }) {
        const url = `${env.appUrl}/verify-email?${new URLSearchParams({ oobCode: token })}`;
        await mailer.send(verificationEmail({ to: user.email, name: user.name, url }));
      },
    },
    account: {
      // An email that already has an account is not silently joined to a new sign-in method.
      accountLinking: { enabled: false },
    },
    session: {
      expiresIn: 30 * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 60, max: 10 },
        "/sign-up/email": { window: 60, max: 5 },
        "/send-verification-email": { window: 60, max: 3 },
        "/request-password-reset": { window: 60, max: 3 },
        "/reset-password": { window: 60, max: 5 },
      },
    },
    advanced: {
      // The library turns these checks off by itself when NODE_ENV is "test" or TEST is set:
      // callback and redirect URLs must stay on APP_URL, and a request carrying the session cookie
      // must come from APP_URL's origin, in every environment (and so in the tests too).
      disableOriginCheck: false,
      disableCSRFCheck: false,
      cookiePrefix: "ta",
      useSecureCookies: env.appUrl.startsWith("https://"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    databaseHooks: {
      user: {
        create: {
          // Runs after the user and account rows are committed together.
          async after(user) {
            await withOneRetry(() => createStarterProgress(db, user.id));
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
    },
    plugins: oauthProviders.length > 0 ? [genericOAuth({ config: oauthProviders })] : [],
    logger: {
      log(level, message, ...args) {
        log[level]({ args }, `auth: ${message}`);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
