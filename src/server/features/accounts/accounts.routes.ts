import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import * as z from "zod/mini";
import {
  ACCOUNT_MESSAGES,
  accountSessionsResponseSchema,
  changeEmailRequestSchema,
} from "../../../shared/contracts/account-settings.ts";
import {
  AUTH_MESSAGES,
  forgotPasswordRequestSchema,
  LIMIT_MESSAGES,
  messageResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
} from "../../../shared/contracts/accounts.ts";
import { meResponseSchema } from "../../../shared/contracts/session.ts";
import { currentUser, endedSession, requireUser, signedInUser, signedSessionToken } from "../../auth/session.ts";
import { toWebHeaders } from "../../auth/web-headers.ts";
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

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/api/me", { schema: { response: { 200: meResponseSchema } } }, async (request, reply) => {
    const user = await currentUser(request);
    reply.header("cache-control", "no-store");
    if (user) return { user: toMe(user) };
    return (await endedSession(request, reply)) ? { user: null, signedOutElsewhere: true } : { user: null };
  });

  app.post(
    "/api/accounts/register",
    {
      schema: { body: registerRequestSchema, response: { 201: registerResponseSchema } },
      config: routeLimit(ACCOUNT_ROUTE_LIMITS.register, LIMIT_MESSAGES.signUps),
    },
    async (request, reply) => {
      // The form's email is the account in question, never the session of whoever is signed in:
      // with a session, the library would mail (or refuse to mail) that session's user instead.
      const headers = toWebHeaders(request);
      headers.delete("cookie");
      const result = await register({ db: app.db, auth: app.auth }, request.body, headers);
      return reply.code(201).send(result);
    },
  );

  app.post(
    "/api/accounts/forgot-password",
    {
      schema: { body: forgotPasswordRequestSchema, response: { 200: messageResponseSchema } },
      config: routeLimit(ACCOUNT_ROUTE_LIMITS.forgotPassword, LIMIT_MESSAGES.resetRequests),
    },
    async (request) => {
      const deps = { db: app.db, auth: app.auth, appUrl: app.env.appUrl };
      await requestPasswordReset(deps, request.body.email, toWebHeaders(request));
      return { message: AUTH_MESSAGES.resetEmailSent };
    },
  );

  /** The token of the session the request is signed in with, to tell "this device" from the others. */
  const sessionToken = async (request: FastifyRequest) => {
    const { authCookies, secret } = await app.auth.$context;
    return signedSessionToken(request.headers.cookie, authCookies.sessionToken.name, secret);
  };

  // The account page (docs/accounts.md).
  await app.register(async (scope) => {
    const account = scope.withTypeProvider<ZodTypeProvider>();
    account.addHook("onRequest", requireUser);
    account.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", "no-store");
    });

    account.get("/api/accounts/sessions", { schema: { response: { 200: accountSessionsResponseSchema } } }, async (request) => ({
      sessions: await listAccountSessions(app.db, signedInUser(request).id, await sessionToken(request), new Date()),
    }));

    account.delete(
      "/api/accounts/sessions/:id",
      { schema: { params: z.object({ id: z.string() }), response: { 200: messageResponseSchema } } },
      async (request) => {
        await revokeAccountSession(
          { db: app.db, auth: app.auth },
          {
            userId: signedInUser(request).id,
            sessionId: request.params.id,
            currentToken: await sessionToken(request),
            headers: toWebHeaders(request),
          },
        );
        return { message: ACCOUNT_MESSAGES.sessionSignedOut };
      },
    );

    account.post(
      "/api/accounts/change-email",
      {
        schema: { body: changeEmailRequestSchema, response: { 200: messageResponseSchema } },
        config: routeLimit(ACCOUNT_ROUTE_LIMITS.changeEmail, LIMIT_MESSAGES.requests),
      },
      async (request) =>
        requestEmailChange(
          { db: app.db, auth: app.auth },
          { userId: signedInUser(request).id, newEmail: request.body.newEmail, headers: toWebHeaders(request) },
        ),
    );
  });
};
