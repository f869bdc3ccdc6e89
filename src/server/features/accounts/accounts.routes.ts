import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  AUTH_MESSAGES,
  forgotPasswordRequestSchema,
  messageResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
} from "../../../shared/contracts/accounts.ts";
import { meResponseSchema } from "../../../shared/contracts/session.ts";
import { currentUser } from "../../auth/session.ts";
import { toWebHeaders } from "../../auth/web-headers.ts";
import { register, requestPasswordReset, toMe } from "./accounts.service.ts";

const accountRateLimit = { rateLimit: { max: 5, timeWindow: "1 minute" } };

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/api/me", { schema: { response: { 200: meResponseSchema } } }, async (request, reply) => {
    const user = await currentUser(request);
    reply.header("cache-control", "no-store");
    return { user: user ? toMe(user) : null };
  });

  app.post(
    "/api/accounts/register",
    {
      schema: { body: registerRequestSchema, response: { 201: registerResponseSchema } },
      config: accountRateLimit,
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
      config: accountRateLimit,
    },
    async (request) => {
      const deps = { db: app.db, auth: app.auth, appUrl: app.env.appUrl };
      await requestPasswordReset(deps, request.body.email, toWebHeaders(request));
      return { message: AUTH_MESSAGES.resetEmailSent };
    },
  );
};
