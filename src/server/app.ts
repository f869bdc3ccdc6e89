// The table of contents of the server: every plugin and feature, registered by hand.
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { devFakesRoutes } from "../../dev/fakes/fakes.routes.ts";
import type { Database, Db } from "./db/client.ts";
import type { Env } from "./env.ts";
import { createAuth, type Auth } from "./auth/auth.ts";
import { operatorRoutes } from "./cli/operator.routes.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { accountsRoutes } from "./features/accounts/accounts.routes.ts";
import { adminRoutes } from "./features/admin/admin.routes.ts";
import { devMailRoutes } from "./features/dev-mail/dev-mail.routes.ts";
import { createMailer, type Mailer } from "./integrations/mail.ts";
import { databaseRateLimitStore } from "./plugins/rate-limit-store.ts";
import { catalogRoutes } from "./features/catalog/catalog.routes.ts";
import { createCatalogCache, type CatalogCache } from "./features/catalog/catalog.service.ts";
import { CONTACT_FORWARD_JOB } from "./features/contact/contact.service.ts";
import { contactRoutes } from "./features/contact/contact.routes.ts";
import { learningRoutes } from "./features/learning/learning.routes.ts";
import { exchangeRateFake } from "../../dev/fakes/exchange-rate.ts";
import { createBillingJobHandlers } from "./features/billing/billing-emails.ts";
import { billingRoutes } from "./features/billing/billing.routes.ts";
import { EXPIRY_REMINDER_JOB, RECEIPT_JOB } from "./features/billing/billing.service.ts";
import { createPaystackClient } from "./integrations/paystack.ts";
import { healthRoutes } from "./features/health/health.routes.ts";
import { siteRoutes } from "./features/site/site.routes.ts";
import { forwardContactMessage, type ContactMessage } from "./integrations/contact-webhook.ts";
import { createJobRunner, type JobHandlers, type JobRunner } from "./jobs/queue.ts";
import { registerErrorHandling } from "./plugins/errors.ts";
import { registerInputGuard } from "./plugins/input-guard.ts";
import { registerSecurityHeaders } from "./plugins/security.ts";
import { registerSpa } from "./plugins/spa.ts";

declare module "fastify" {
  interface FastifyInstance {
    env: Env;
    db: Db;
    jobs: JobRunner;
    auth: Auth;
    mailer: Mailer;
    catalog: CatalogCache;
  }
}

export type AppOptions = {
  env: Env;
  database: Database;
  /** Serve the built browser app from dist/web (off in API tests). */
  serveWeb?: boolean;
  logger?: boolean;
  /** When set, the CLI may send operator commands to this server with the token. */
  operatorToken?: string;
  /** Called for every route as it is registered (tests enumerate the router with it). */
  onRoute?: (route: RouteOptions) => void;
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
    // Which proxies may say who the client is (TRUST_PROXY; in production by default those on the
    // private network, such as the load balancer). Never every hop (true): a client could write
    // its own address into X-Forwarded-For, and get a fresh allowance of every per-address limit.
    trustProxy: env.trustProxy,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  if (options.onRoute) app.addHook("onRoute", options.onRoute);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerInputGuard(app);
  // JSON only: a text/plain body (a cross-site "simple" request) is answered 415.
  app.removeContentTypeParser("text/plain");

  const mailer = createMailer({ env, db: database.db, log: app.log });
  const billingEmails = createBillingJobHandlers({ db: database.db, mailer, appUrl: env.appUrl });
  const jobHandlers: JobHandlers = {
    [CONTACT_FORWARD_JOB]: async (payload) => {
      if (!env.contactWebhookUrl) return;
      await forwardContactMessage(env.contactWebhookUrl, payload as ContactMessage);
    },
    [RECEIPT_JOB]: billingEmails.receipt,
    [EXPIRY_REMINDER_JOB]: billingEmails.expiryReminder,
  };
  app.decorate("env", env);
  app.decorate("db", database.db);
  app.decorate("jobs", createJobRunner({ db: database.db, handlers: jobHandlers, log: app.log }));
  app.decorate("mailer", mailer);
  app.decorate("catalog", createCatalogCache(database.db));
  app.decorate("auth", createAuth({ env, db: database.db, mailer, log: app.log }));
  app.decorateRequest("user", null);

  registerSecurityHeaders(app, env);
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(database.db) });

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(accountsRoutes);
  await app.register(siteRoutes);
  await app.register(catalogRoutes);
  await app.register(contactRoutes);
  await app.register(learningRoutes);
  const paystack =
    env.paystack.mode === "disabled"
      ? null
      : createPaystackClient({ apiUrl: env.paystack.apiUrl, secretKey: env.paystack.secretKey });
  await app.register(billingRoutes({ db: database.db, env, log: app.log, paystack }));
  await app.register(adminRoutes);
  if (options.operatorToken) await app.register(operatorRoutes(options.operatorToken));
  if (!env.isProduction) {
    await app.register(
      devFakesRoutes,
      env.paystack.mode === "simulator"
        ? { paystack: { secretKey: env.paystack.secretKey, webhookUrl: `${env.appUrl}/api/paystack/webhook` } }
        : {},
    );
    await app.register(exchangeRateFake, { prefix: "/dev/fakes/exchange-rate" });
    await app.register(devMailRoutes);
  }

  await registerSpa(app, { serveWeb: options.serveWeb ?? true });

  app.addHook("onClose", async () => {
    await app.jobs.stop();
    mailer.close();
  });
  return app;
}
