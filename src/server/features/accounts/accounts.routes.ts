import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { ACCOUNT_MESSAGES, ACCOUNT_SETTINGS_ENDPOINTS } from "../../../shared/contracts/account-settings.ts";
import { ACCOUNTS_ENDPOINTS, AUTH_MESSAGES, LIMIT_MESSAGES } from "../../../shared/contracts/accounts.ts";
import { SESSION_ENDPOINTS } from "../../../shared/contracts/session.ts";
import { ANSWER_FOR } from "../../../shared/offline.ts";
import { signedInUser, signedSessionToken } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { toWebHeaders } from "../../auth/web-headers.ts";
import { route } from "../../plugins/endpoints.ts";
import { HttpError } from "../../plugins/errors.ts";
import { listAccountSessions, requestEmailChange, revokeAccountSession } from "./account-settings.service.ts";
import { register, requestPasswordReset, toMe } from "./accounts.service.ts";

/**
 * Per-address limits on our account routes (docs/product.md, "Limits"), counted in dozens: a seminar
 * room on one Wi-Fi registers together. New accounts are also limited per address where every path
 * that creates one meets (auth/auth-limits.ts), and mails per account.
 */
export const ACCOUNT_ROUTE_LIMITS = {
  register: { max: 100, timeWindow: 10 * 60_000 },
  forgotPassword: { max: 30, timeWindow: 10 * 60_000 },
  // As the auth library's own limit on changing an email (auth/auth-limits.ts).
  changeEmail: { max: 10, timeWindow: 10 * 60_000 },
} as const;

/** A route's limit, answering with its own message and the wait. */
function routeLimit(limit: { max: number; timeWindow: number }, message: (ms: number) => string) {
  return {
    rateLimit: {
      ...limit,
      errorResponseBuilder: (_request: unknown, context: { ttl: number }) =>
        new HttpError(429, "TOO_MANY_REQUESTS", message(context.ttl)),
    },
  };
}

export const accountsRoutes = (deps: FeatureDeps): FastifyPluginAsyncZod => async (app) => {
  const { auth, db, env, sessions: { currentUser, endedSession, requireUser } } = deps;
  route(app, SESSION_ENDPOINTS.me, {}, async (request, reply) => {
    const user = await currentUser(request);
    reply.header("cache-control", "no-store");
    // Whose session this is: the service worker keeps no other user's answers (docs/product.md, "Offline").
    if (user) {
      reply.header(ANSWER_FOR, user.id);
      return { user: toMe(user) };
    }
    return (await endedSession(request, reply)) ? { user: null, signedOutElsewhere: true } : { user: null };
  });

  route(app, ACCOUNTS_ENDPOINTS.register, { config: routeLimit(ACCOUNT_ROUTE_LIMITS.register, LIMIT_MESSAGES.signUps) }, async (request) => {
    // The form's email is the account in question, never the session of whoever is signed in:
    // with a session, the library would mail (or refuse to mail) that session's user instead.
    const headers = toWebHeaders(request);
    headers.delete("cookie");
    return register({ db, auth }, request.body, headers);
  });

  route(
    app,
    ACCOUNTS_ENDPOINTS.forgotPassword,
    { config: routeLimit(ACCOUNT_ROUTE_LIMITS.forgotPassword, LIMIT_MESSAGES.resetRequests) },
    async (request) => {
      const deps = { db, auth, appUrl: env.appUrl };
      await requestPasswordReset(deps, request.body.email, toWebHeaders(request));
      return { message: AUTH_MESSAGES.resetEmailSent };
    },
  );

  /** The token of the session the request is signed in with, to tell "this device" from the others. */
  const sessionToken = async (request: FastifyRequest) => {
    const { authCookies, secret } = await auth.$context;
    return signedSessionToken(request.headers.cookie, authCookies.sessionToken.name, secret);
  };

  // The account page (docs/accounts.md).
  await app.register(async (scope) => {
    const account = scope.withTypeProvider<ZodTypeProvider>();
    account.addHook("onRequest", requireUser);
    account.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", "no-store");
    });

    route(account, ACCOUNT_SETTINGS_ENDPOINTS.sessions, {}, async (request) => ({
      sessions: await listAccountSessions(db, signedInUser(request).id, await sessionToken(request), new Date()),
    }));

    route(account, ACCOUNT_SETTINGS_ENDPOINTS.revokeSession, {}, async (request) => {
      await revokeAccountSession(
        { db, auth },
        {
          userId: signedInUser(request).id,
          sessionId: request.params.id,
          currentToken: await sessionToken(request),
          headers: toWebHeaders(request),
        },
      );
      return { message: ACCOUNT_MESSAGES.sessionSignedOut };
    });

    route(
      account,
      ACCOUNT_SETTINGS_ENDPOINTS.changeEmail,
      { config: routeLimit(ACCOUNT_ROUTE_LIMITS.changeEmail, LIMIT_MESSAGES.requests) },
      async (request) =>
        requestEmailChange(
          { db, auth },
          { userId: signedInUser(request).id, newEmail: request.body.newEmail, headers: toWebHeaders(request) },
        ),
    );
  });
};
