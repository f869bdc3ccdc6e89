// The table of contents of the server: every plugin and feature, registered by hand.
import rateLimit from "@fastify/rate-limit";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Database, Db } from "./db/client.ts";
import { createOutageWatch, type OutageWatch } from "./db/outage.ts";
import type { Env } from "./env.ts";
import { createAuth, type Auth } from "./auth/auth.ts";
import { operatorRoutes } from "./cli/operator.routes.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { accountsRoutes } from "./features/accounts/accounts.routes.ts";
import { ACCOUNT_DELETED_JOB, createAccountJobHandlers, deleteAccount } from "./features/accounts/account-deletion.ts";
import { adminRoutes } from "./features/admin/admin.routes.ts";
import { createAnnouncementSender } from "./features/announcements/announcements-sender.ts";
import { ANNOUNCEMENT_JOB } from "./features/announcements/announcements.service.ts";
import { announcementRoutes, ONE_CLICK_UNSUBSCRIBE_PATH } from "./features/announcements/announcements.routes.ts";
import { ADMIT_ALL_JOB, COHORT_WELCOME_JOB, createCohortJobHandlers } from "./features/cohorts/cohort-admissions.ts";
import { createMailer, type Mailer } from "./integrations/mail.ts";
import { databaseRateLimitStore } from "./plugins/rate-limit-store.ts";
import { catalogRoutes } from "./features/catalog/catalog.routes.ts";
import { createCatalogCache, type CatalogCache } from "./features/catalog/catalog.service.ts";
import { followCatalogChanges } from "./features/catalog/catalog-changes.ts";
import { createStandingCache } from "./features/learning/completion.ts";
import { createAnswerRecorder } from "./features/learning/quiz-answers.ts";
import { followUserChanges } from "./db/user-changes.ts";
import { EMAIL_CHANGED_JOB, emailChangedJobHandler } from "./auth/email-change-notice.ts";
import { createSessionCache, registerOwnChangesForgotten } from "./auth/session.ts";
import type { ChannelListener } from "./db/listener.ts";
import { CONTACT_FORWARD_JOB } from "./features/contact/contact.service.ts";
import { contactRoutes } from "./features/contact/contact.routes.ts";
import { learningRoutes } from "./features/learning/learning.routes.ts";
import {
  CERTIFICATE_JOB,
  OWED_CERTIFICATES_JOB,
  certificatePageExists,
  createCertificateJobHandler,
  createOwedCertificatesJobHandler,
} from "./features/learning/certificates.ts";
import { certificateRoutes } from "./features/learning/certificates.routes.ts";
import { MENTORSHIP_JOB } from "./features/support/mentorship.service.ts";
import { LESSON_ANSWER_JOB } from "./features/support/questions.service.ts";
import { createSupportJobHandlers } from "./features/support/support-emails.ts";
import { supportRoutes } from "./features/support/support.routes.ts";
import { startProgress } from "./features/learning/progress.ts";
import { createBillingJobHandlers } from "./features/billing/billing-emails.ts";
import { billingRoutes } from "./features/billing/billing.routes.ts";
import { AUTO_RENEW_JOB, AUTO_RENEWAL_FAILED_JOB, runAutoRenewalJob } from "./features/billing/billing-auto-renewal.ts";
import { RECEIPT_JOB } from "./features/billing/billing-crediting.ts";
import { EXPIRY_REMINDER_JOB } from "./features/billing/billing-expiry.ts";
import { REFUND_JOB } from "./features/billing/billing-refunds.ts";
import { RECONCILE_JOB, reconcilePayments } from "./features/billing/billing-reconciliation.ts";
import { sweepRefunds } from "./features/billing/billing-refund-sweep.ts";
import { paystackClientFor } from "./integrations/paystack.ts";
import { healthRoutes } from "./features/health/health.routes.ts";
import { siteRoutes } from "./features/site/site.routes.ts";
import { forwardContactMessage, type ContactMessage } from "./integrations/contact-webhook.ts";
import { createJobRunner, pendingJobCounts, type JobHandlers, type JobRunner } from "./jobs/queue.ts";
import { createScheduler, type Scheduler } from "./jobs/scheduler.ts";
import { SCHEDULES } from "./schedules.ts";
import { createMetrics } from "./metrics/metrics.ts";
import { createSmsSender } from "./integrations/sms.ts";
import { createSmsJobHandler } from "./features/sms/sms.service.ts";
import { SMS_JOB } from "./features/sms/sms-events.ts";
import { smsRoutes } from "./features/sms/sms.routes.ts";
import { registerMetrics } from "./metrics/metrics.routes.ts";
import { frameworkErrorAnswer, registerClosingAnswer, registerErrorHandling } from "./plugins/errors.ts";
import { registerInputGuard } from "./plugins/input-guard.ts";
import { loggerOptions, OneLinePerRequest, type LogDestination } from "./plugins/logger.ts";
import { answerHeaders, registerAnswerHeaders, requestIdFor } from "./plugins/request-id.ts";
import { registerSameOriginCheck } from "./plugins/same-origin.ts";
import { trackHandlersInFlight } from "./plugins/handlers-in-flight.ts";
import { securityHeaders } from "./plugins/security.ts";
import { registerSpa } from "./plugins/spa.ts";
import { databaseAttachmentStore } from "./storage/attachment-store.ts";
import { s3AttachmentStore } from "./storage/s3-attachment-store.ts";

declare module "fastify" {
  interface FastifyInstance {
    env: Env;
    db: Db;
    jobs: JobRunner;
    scheduler: Scheduler;
    auth: Auth;
    mailer: Mailer;
    catalog: CatalogCache;
    databaseOutage: OutageWatch;
  }
}

export type AppOptions = {
  env: Env;
  database: Database;
  /** Serve the built browser app from dist/web (off in API tests). */
  serveWeb?: boolean;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: LogDestination;
  /** When set, the CLI may send operator commands to this server with the token. */
  operatorToken?: string;
  /** Called for every route as it is registered (tests enumerate the router with it). */
  onRoute?: (route: RouteOptions) => void;
  /** The development entry's stand-ins and mailbox (dev/development.ts); never in production. */
  developmentTools?: DevelopmentTools;
};

export type DevelopmentTools = (app: FastifyInstance) => Promise<void>;

export const BODY_LIMIT_BYTES = 64 * 1024;

/** How long a shutdown waits for handlers still running, inside its 9 s (start.ts). */
const HANDLERS_SETTLE_MS = 5_000;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  const setAnswerHeaders = answerHeaders(securityHeaders(env));
  const app = Fastify({
    logger: options.logger === false ? false : await loggerOptions(env, options.logDestination),
    // Every log line of a request and every error answer carry its id (docs/operations.md).
    genReqId: requestIdFor,
    logController: new OneLinePerRequest({ requestIdLogLabel: "requestId" }),
    frameworkErrors: frameworkErrorAnswer(setAnswerHeaders),
    bodyLimit: BODY_LIMIT_BYTES,
    // Which proxies may say who the client is (TRUST_PROXY; in production by default those on the
    // private network, such as the load balancer). Never every hop (true): a client could write
    // its own address into X-Forwarded-For, and get a fresh allowance of every per-address limit.
    trustProxy: env.trustProxy,
    // Answered by registerClosingAnswer instead, with the request id.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  if (options.onRoute) app.addHook("onRoute", options.onRoute);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerAnswerHeaders(app, setAnswerHeaders);
  registerClosingAnswer(app);
  const databaseOutage = createOutageWatch({ probe: () => database.db.execute(sql`select 1`), log: app.log });
  app.decorate("databaseOutage", databaseOutage);
  database.onIdleConnectionLost((error) => databaseOutage.idleConnectionLost(error));
  registerErrorHandling(app, databaseOutage);
  registerSameOriginCheck(app, {
    appUrl: env.appUrl,
    // Each with an authentication of its own: the webhook's signature, the operator's token, the
    // signed token a mail program posts to unsubscribe its reader from announcements.
    exempt: ["/api/paystack/webhook", "/api/operator/", ONE_CLICK_UNSUBSCRIBE_PATH],
    // The development stand-ins, which this server and its tests also call directly.
    serverToServer: ["/dev/fakes/"],
  });
  registerInputGuard(app);
  // JSON only: a text/plain body (a cross-site "simple" request) is answered 415.
  app.removeContentTypeParser("text/plain");

  const mailer = createMailer({ env, db: database.db, log: app.log });
  const billingEmails = createBillingJobHandlers({ db: database.db, mailer, appUrl: env.appUrl, business: env.business });
  const accountEmails = createAccountJobHandlers({ mailer, appUrl: env.appUrl });
  const supportEmails = createSupportJobHandlers({ db: database.db, mailer, appUrl: env.appUrl });
  const cohortJobs = createCohortJobHandlers({ db: database.db, mailer, appUrl: env.appUrl });
  const paystack = paystackClientFor(env.paystack);
  // Reconciliation counts on /metrics; the metrics are made below, once every job kind is known.
  const paymentServices = () => ({ paystack, metrics, log: app.log });
  const jobHandlers: JobHandlers = {
    [CONTACT_FORWARD_JOB]: async (payload) => {
      if (!env.contactWebhookUrl) return;
      await forwardContactMessage(env.contactWebhookUrl, payload as ContactMessage);
    },
    [RECEIPT_JOB]: billingEmails.receipt,
    [EXPIRY_REMINDER_JOB]: billingEmails.expiryReminder,
    [REFUND_JOB]: billingEmails.refund,
    [AUTO_RENEWAL_FAILED_JOB]: billingEmails.autoRenewalFailed,
    // Claimed by the auto-renewal schedule (schedules.ts); Paystack is asked outside it.
    [AUTO_RENEW_JOB]: async (payload) => {
      await runAutoRenewalJob({ db: database.db, env, ...paymentServices() }, payload, new Date());
    },
    [CERTIFICATE_JOB]: createCertificateJobHandler({ db: database.db, mailer, appUrl: env.appUrl }),
    [OWED_CERTIFICATES_JOB]: createOwedCertificatesJobHandler({ db: database.db }),
    [ACCOUNT_DELETED_JOB]: accountEmails.deleted,
    [EMAIL_CHANGED_JOB]: emailChangedJobHandler({ mailer, appUrl: env.appUrl }),
    [LESSON_ANSWER_JOB]: supportEmails.lessonAnswer,
    [MENTORSHIP_JOB]: supportEmails.mentorship,
    [ANNOUNCEMENT_JOB]: createAnnouncementSender({
      db: database.db,
      mailer,
      appUrl: env.appUrl,
      secret: env.authSecret,
      mailsPerMinute: env.mail.announcementsPerMinute,
    }),
    [ADMIT_ALL_JOB]: cohortJobs.admitAll,
    [COHORT_WELCOME_JOB]: cohortJobs.welcome,
    // SMS through Hubtel, or the development mailbox (docs/integrations.md, "Hubtel SMS").
    [SMS_JOB]: createSmsJobHandler({
      db: database.db,
      sender: createSmsSender({ env, db: database.db, log: app.log }),
      secret: env.authSecret,
      metrics: () => metrics,
    }),
    // Queued by the payment-reconciliation schedule (schedules.ts); Paystack is asked outside it.
    [RECONCILE_JOB]: async () => {
      const services = { db: database.db, ...paymentServices() };
      await reconcilePayments(services, new Date());
      await sweepRefunds(services, new Date());
    },
  };
  const metrics = createMetrics({
    poolUse: database.poolUse,
    pendingJobs: () => pendingJobCounts(database.db),
    jobKinds: Object.keys(jobHandlers),
  });
  app.decorate("env", env);
  app.decorate("db", database.db);
  app.decorate("jobs", createJobRunner({ db: database.db, handlers: jobHandlers, log: app.log, metrics, outage: databaseOutage }));
  app.decorate("mailer", mailer);
  app.decorate("scheduler", createScheduler({ db: database.db, log: app.log, schedules: SCHEDULES, outage: databaseOutage }));
  app.decorate("catalog", createCatalogCache(database.db));
  // Signed-in reads from memory, forgotten on every change (docs/performance.md, "Caching
  // signed-in reads"); the feed starts listening when the app is ready.
  const userChanges = followUserChanges({ database, log: app.log, enabled: env.signedInCache });
  app.decorate("userChanges", userChanges);
  app.decorate("sessionCache", createSessionCache(userChanges));
  app.decorate("standingCache", createStandingCache(userChanges));
  app.decorate("quizAnswers", createAnswerRecorder(database));
  app.decorate("attachments", env.s3 ? s3AttachmentStore(env.s3, app.log) : databaseAttachmentStore());
  registerOwnChangesForgotten(app);
  app.decorate(
    "auth",
    createAuth({
      env,
      db: database.db,
      mailer,
      log: app.log,
      // Every account starts with the Beginner program's progress entry (docs/data.md, "Learning").
      onUserCreated: [(user) => startProgress(database.db, user.id)],
      // What a deletion keeps, anonymised, and removes (docs/accounts.md, "Deleting an account").
      deleteAccount: (user) => deleteAccount(database.db, user.id, new Date()),
    }),
  );
  app.decorateRequest("user", null);

  const handlers = trackHandlersInFlight(app);
  registerMetrics(app, metrics, env.metricsToken);
  // A request counts against a route's per-address limit only once it could do something
  // (docs/product.md, "Timings and limits"): counted before its handler, so after the content type
  // (415), the same-origin check and the input guard (preValidation) and the route's schema (400).
  // Counted on arrival, a page on another site could spend everyone's allowance behind an address.
  await app.register(rateLimit, { global: false, hook: "preHandler", store: databaseRateLimitStore(database.db) });

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(accountsRoutes);
  await app.register(siteRoutes);
  await app.register(catalogRoutes);
  await app.register(contactRoutes);
  await app.register(learningRoutes);
  await app.register(certificateRoutes);
  await app.register(supportRoutes);
  await app.register(billingRoutes({ db: database.db, env, log: app.log, paystack, metrics }));
  await app.register(adminRoutes);
  await app.register(smsRoutes);
  await app.register(announcementRoutes);
  if (options.operatorToken) await app.register(operatorRoutes(options.operatorToken, database.dumpDataDir, paymentServices()));
  if (options.developmentTools && !env.isProduction) await options.developmentTools(app);

  await registerSpa(app, {
    serveWeb: options.serveWeb ?? true,
    // An unknown certificate number is a page that does not exist (docs/product.md, "Completion and certificates").
    pageExists: (pathname) => certificatePageExists(database.db, pathname),
  });

  // Several instances on one PostgreSQL: an admin change on any of them clears every cache. The
  // listening connection opens when the app is ready, after start-up has waited for the database.
  let catalogChanges: ChannelListener | null = null;
  app.addHook("onReady", async () => userChanges.start());
  const { database: location } = env;
  if (location.kind === "postgres") {
    app.addHook("onReady", async () => {
      catalogChanges = followCatalogChanges({ connectionString: location.url, cache: app.catalog, log: app.log });
    });
  }
  app.addHook("onClose", async () => {
    // A handler whose client went away is still running: the database stays open for it.
    await handlers.settled(HANDLERS_SETTLE_MS);
    await app.scheduler.stop();
    await catalogChanges?.close();
    await userChanges.close();
    await app.jobs.stop();
    databaseOutage.stop();
    mailer.close();
  });
  return app;
}
