import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  CONTACT_MESSAGES,
  contactRequestSchema,
  contactResponseSchema,
} from "../../../shared/contracts/contact.ts";
import { submitContactMessage } from "./contact.service.ts";

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/contact",
    {
      schema: { body: contactRequestSchema, response: { 201: contactResponseSchema } },
      config: { rateLimit: { max: 5, timeWindow: "10 minutes" } },
      bodyLimit: 16 * 1024,
    },
    async (request, reply) => {
      await submitContactMessage(app.db, request.body, {
        forward: app.env.contactWebhookUrl !== null,
      });
      app.jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
      return reply.code(201).send({ ok: true, message: CONTACT_MESSAGES.sent });
    },
  );
};
