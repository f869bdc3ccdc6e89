// The table of contents of the server: the app-wide plugins, then the list of features
// (docs/architecture.md, "Features").
import rateLimit from "@fastify/rate-limit";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Database } from "./db/client.ts";
import { createOutageWatch } from "./db/outage.ts";
import type { ChannelListener } from "./db/listener.ts";
import { followUserChanges, type PerUserCache } from "./db/user-changes.ts";
import type { Env } from "./env.ts";
import { jobTable, type Feature, type FeatureDeps } from "./feature.ts";
import { createAuth } from "./auth/auth.ts";
import { authFeature } from "./auth/auth.feature.ts";
import type { Hashing } from "./auth/password-hashing.ts";
import { createSessions } from "./auth/session.ts";
import { operatorRoutes } from "./cli/operator.routes.ts";
import { accountsFeature } from "./features/accounts/accounts.feature.ts";
import { deleteAccount } from "./features/accounts/account-deletion.ts";
import { adminFeature } from "./features/admin/admin.feature.ts";
import { announcementsFeature } from "./features/announcements/announcements.feature.ts";
import { ONE_CLICK_UNSUBSCRIBE_PATH } from "./features/announcements/announcements.routes.ts";
import { billingFeature } from "./features/billing/billing.feature.ts";
import { catalogFeature } from "./features/catalog/catalog.feature.ts";
import { followCatalogChanges } from "./features/catalog/catalog-changes.ts";
import { createCatalogCache, type CatalogCache } from "./features/catalog/catalog.service.ts";
import { cohortsFeature } from "./features/cohorts/cohorts.feature.ts";
import { toolsFeature } from "./features/tools/tools.feature.ts";
import { exercisesFeature } from "./features/exercises/exercises.feature.ts";
import { journalFeature } from "./features/journal/journal.feature.ts";
import { contactFeature } from "./features/contact/contact.feature.ts";
import { healthFeature } from "./features/health/health.feature.ts";
import { certificatePageExists } from "./features/learning/certificates.ts";
import { createStandingCache, type Standing } from "./features/learning/completion.ts";
import { learningFeature } from "./features/learning/learning.feature.ts";
import { startProgress } from "./features/learning/progress.ts";
import { createAnswerRecorder } from "./features/learning/quiz-answers.ts";
import { siteFeature } from "./features/site/site.feature.ts";
import { smsFeature } from "./features/sms/sms.feature.ts";
import { supportFeature } from "./features/support/support.feature.ts";
import { createMailDeliveryJob, createMailer, MAIL_JOB, unsentMailCounts } from "./emails/outbox.ts";
import { createMailTransport } from "./integrations/mail.ts";
import { paystackClientFor } from "./integrations/paystack.ts";
import { createJobRunner, pendingJobCounts, type JobHandlers } from "./jobs/queue.ts";
import { RETENTION_SCHEDULE } from "./jobs/retention.ts";
import { createScheduler, type Scheduler } from "./jobs/scheduler.ts";
import { createMetrics } from "./metrics/metrics.ts";
import { registerMetrics } from "./metrics/metrics.routes.ts";
import { frameworkErrorAnswer, registerClosingAnswer, registerErrorHandling } from "./plugins/errors.ts";
import { trackHandlersInFlight } from "./plugins/handlers-in-flight.ts";
import { registerInputGuard } from "./plugins/input-guard.ts";
import { loggerOptions, OneLinePerRequest, type LogDestination } from "./plugins/logger.ts";
import { databaseRateLimitStore, limitedPerAddress } from "./plugins/rate-limit-store.ts";
import { answerHeaders, registerAnswerHeaders, requestIdFor } from "./plugins/request-id.ts";
import { fromAnotherSite, registerSameOriginCheck } from "./plugins/same-origin.ts";
import { securityHeaders } from "./plugins/security.ts";
import { registerSpa } from "./plugins/spa.ts";
import { databaseAttachmentStore } from "./storage/attachment-store.ts";
import { s3AttachmentStore } from "./storage/s3-attachment-store.ts";

/** The server, and the services its features were built from (tests and start.ts reach them here). */
export type BuiltApp = { app: FastifyInstance; services: AppServices };
export type AppServices = FeatureDeps & { scheduler: Scheduler; catalog: CatalogCache; standingCache: PerUserCache<Standing> };

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
  /** How passwords are hashed, when not the auth library's scrypt (the API tests' cheaper one). */
  passwordHashing?: Hashing;
};

export type DevelopmentTools = (app: FastifyInstance, services: FeatureDeps) => Promise<void>;

export const BODY_LIMIT_BYTES = 64 * 1024;

/** How long a shutdown waits for handlers still running, inside its 9 s (start.ts). */
const HANDLERS_SETTLE_MS = 5_000;

export async function buildApp(options: AppOptions): Promise<BuiltApp> {
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
  const outage = createOutageWatch({ probe: () => database.db.execute(sql`select 1`), log: app.log });
  database.onIdleConnectionLost((error) => outage.idleConnectionLost(error));
  registerErrorHandling(app, outage);
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

  const { db } = database;
  const mailTransport = createMailTransport({ env, db, log: app.log });
  const paystack = paystackClientFor(env.paystack);
  // Every feature's job kinds, put in once the features are built below; the runner and the
  // metrics read the table only when a job runs or at a scrape.
  const jobHandlers: JobHandlers = {};
  const metrics = createMetrics({
    poolUse: database.poolUse,
    pendingJobs: () => pendingJobCounts(db),
    jobKinds: () => Object.keys(jobHandlers),
    unsentMail: () => unsentMailCounts(db),
  });
  const jobs = createJobRunner({ db, handlers: jobHandlers, log: app.log, metrics, outage });
  // Every email but the announcements is queued in the outbox and delivered by its job, at once
  // when the mail server answers, later when it does not (docs/decisions/023-mail-outbox.md).
  const mailer = createMailer({
    db,
    deliverNow: () => {
      jobs.runDue(MAIL_JOB).catch((error: unknown) => {
        if (!outage.notice(error)) app.log.error({ err: error }, "mail jobs");
      });
    },
  });
  // Signed-in reads from memory, forgotten on every change (docs/performance.md, "Caching
  // signed-in reads"); the feed starts listening when the app is ready.
  const userChanges = followUserChanges({ database, log: app.log, enabled: env.signedInCache });
  // Lesson attachments' and journal screenshots' bytes: the database, or an S3-compatible bucket.
  const attachments = env.s3 ? s3AttachmentStore(env.s3, app.log) : databaseAttachmentStore();
  const auth = createAuth({
    env,
    db,
    mailer,
    log: app.log,
    passwordHashing: options.passwordHashing,
    // Every account starts with the Beginner program's progress entry (docs/data.md, "Learning").
    onUserCreated: [(user) => startProgress(db, user.id)],
    // What a deletion keeps, anonymised, and removes (docs/accounts.md, "Deleting an account").
    deleteAccount: (user) => deleteAccount(db, attachments, user.id, new Date()),
  });
  const sessions = createSessions({ auth, db, userChanges });
  const deps: FeatureDeps = {
    env,
    database,
    db,
    log: app.log,
    mailer,
    mailTransport,
    paystack,
    metrics,
    jobs,
    auth,
    sessions,
    userChanges,
    attachments,
    outage,
  };
  // The published catalogue, which learning, support and the console read too; a learner's
  // standing, and the quiz answers' writer, learning's own.
  const catalog = createCatalogCache(db);
  const standingCache = createStandingCache(userChanges);
  // Every feature of the server, each built from the same dependencies (docs/architecture.md,
  // "Features"). Routes are registered in this order.
  const features: Feature[] = [
    healthFeature(deps),
    authFeature(deps),
    accountsFeature(deps),
    siteFeature(deps),
    catalogFeature({ ...deps, catalog }),
    contactFeature(deps),
    learningFeature({ ...deps, catalog, standingCache, quizAnswers: createAnswerRecorder(database) }),
    supportFeature({ ...deps, catalog }),
    billingFeature(deps),
    adminFeature({ ...deps, catalog }),
    smsFeature(deps),
    announcementsFeature(deps),
    cohortsFeature(deps),
    toolsFeature(deps),
    exercisesFeature(deps),
    journalFeature(deps),
    // The platform's own: the outbox's deliveries (emails/outbox.ts), and rows past their
    // retention deleted (jobs/retention.ts).
    { jobs: { [MAIL_JOB]: createMailDeliveryJob({ db, transport: mailTransport }) }, schedules: [RETENTION_SCHEDULE] },
  ];
  Object.assign(jobHandlers, jobTable(features));
  const scheduler = createScheduler({ db, log: app.log, schedules: features.flatMap((feature) => feature.schedules ?? []), outage });
  sessions.registerOwnChangesForgotten(app);
  app.decorateRequest("user", null);

  const handlers = trackHandlersInFlight(app);
  registerMetrics(app, metrics, env.metricsToken);
  // A request counts against a route's per-address limit only once it could do something
  // (docs/product.md, "Timings and limits"): counted before its handler, so after the content type
  // (415), the same-origin check and the input guard (preValidation) and the route's schema (400).
  // Counted on arrival, a page on another site could spend everyone's allowance behind an address.
  // For the same reason a request another site made (a GET from an <img> included) counts against
  // no per-address limit; a limit keyed by what it guards (its own keyGenerator: a learner, a
  // certificate) counts every request.
  const appOrigin = new URL(env.appUrl).origin;
  await app.register(rateLimit, {
    global: false,
    hook: "preHandler",
    store: databaseRateLimitStore(database.db),
    allowList: (request) => limitedPerAddress(request) && fromAnotherSite(request.headers, appOrigin),
  });

  for (const feature of features) if (feature.routes) await app.register(feature.routes);
  if (options.operatorToken) await app.register(operatorRoutes(options.operatorToken, database, { paystack, metrics, log: app.log }));
  if (options.developmentTools && !env.isProduction) await options.developmentTools(app, deps);

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
      catalogChanges = followCatalogChanges({ connectionString: location.url, cache: catalog, log: app.log });
    });
  }
  app.addHook("onClose", async () => {
    // A handler whose client went away is still running: the database stays open for it.
    await handlers.settled(HANDLERS_SETTLE_MS);
    await scheduler.stop();
    await catalogChanges?.close();
    await userChanges.close();
    await jobs.stop();
    outage.stop();
    mailTransport.close();
  });
  return { app, services: { ...deps, scheduler, catalog, standingCache } };
}
