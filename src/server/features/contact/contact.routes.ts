import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { CONTACT_ENDPOINTS, CONTACT_MESSAGES } from "../../../shared/contracts/contact.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import { submitContactMessage } from "./contact.service.ts";

export const contactRoutes = ({ db, env, jobs }: Pick<FeatureDeps, "db" | "env" | "jobs">): FastifyPluginAsyncZod => async (app) => {
  route(
    app,
    CONTACT_ENDPOINTS.send,
    { config: { rateLimit: { max: 5, timeWindow: "10 minutes" } }, bodyLimit: 16 * 1024 },
    async (request) => {
      await submitContactMessage(db, request.body, {
        forward: env.contactWebhookUrl !== null,
      });
      jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
      return { ok: true as const, message: CONTACT_MESSAGES.sent };
    },
  );
};
