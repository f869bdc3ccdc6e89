// The table of contents of the server: every plugin and feature, registered by hand.
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance } from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { devFakesRoutes } from "../../dev/fakes/fakes.routes.ts";
import type { Database, Db } from "./db/client.ts";
import type { Env } from "./env.ts";
import { catalogRoutes } from "./features/catalog/catalog.routes.ts";
import { CONTACT_FORWARD_JOB } from "./features/contact/contact.service.ts";
import { contactRoutes } from "./features/contact/contact.routes.ts";
import { healthRoutes } from "./features/health/health.routes.ts";
import { siteRoutes } from "./features/site/site.routes.ts";
import { forwardContactMessage, type ContactMessage } from "./integrations/contact-webhook.ts";
import { createJobRunner, type JobHandlers, type JobRunner } from "./jobs/queue.ts";
import { registerErrorHandling } from "./plugins/errors.ts";
import { registerSecurityHeaders } from "./plugins/security.ts";
import { registerSpa } from "./plugins/spa.ts";

declare module "fastify" {
  interface FastifyInstance {
    env: Env;
    db: Db;
    jobs: JobRunner;
  }
}

export type AppOptions = {
  env: Env;
  database: Database;
  /** Serve the built browser app from dist/web (off in API tests). */
  serveWeb?: boolean;
  logger?: boolean;
};

export const BODY_LIMIT_BYTES = 64 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: env.logLevel,
            redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
          },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: env.isProduction,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // JSON only: a text/plain body (a cross-site "simple" request) is answered 415.
  app.removeContentTypeParser("text/plain");

  const jobHandlers: JobHandlers = {
    [CONTACT_FORWARD_JOB]: async (payload) => {
      if (!env.contactWebhookUrl) return;
      await forwardContactMessage(env.contactWebhookUrl, payload as ContactMessage);
    },
  };
  app.decorate("env", env);
  app.decorate("db", database.db);
  app.decorate("jobs", createJobRunner({ db: database.db, handlers: jobHandlers, log: app.log }));

  await registerSecurityHeaders(app, env);
  await app.register(rateLimit, { global: false });

  await app.register(healthRoutes);
  await app.register(siteRoutes);
  await app.register(catalogRoutes);
  await app.register(contactRoutes);
  if (!env.isProduction) await app.register(devFakesRoutes);

  await registerSpa(app, { serveWeb: options.serveWeb ?? true });

  app.addHook("onClose", async () => {
    await app.jobs.stop();
  });
  return app;
}
