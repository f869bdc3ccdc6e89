// What a feature gives the app, and what the app gives every feature (docs/architecture.md,
// "Features"). Each feature has one module, `<feature>.feature.ts`, that builds its routes, the
// jobs it runs and its schedules from the one dependencies object; app.ts is the list of them.
import type { FastifyBaseLogger, FastifyPluginAsync } from "fastify";
import type { Auth } from "./auth/auth.ts";
import type { Sessions } from "./auth/session.ts";
import type { Database, Db } from "./db/client.ts";
import type { OutageWatch } from "./db/outage.ts";
import type { UserChanges } from "./db/user-changes.ts";
import type { Env } from "./env.ts";
import type { PaystackClient } from "./integrations/paystack.ts";
import type { Mailer } from "./emails/outbox.ts";
import type { MailTransport } from "./integrations/mail.ts";
import type { JobHandlers, JobRunner } from "./jobs/queue.ts";
import type { Schedule } from "./jobs/scheduler.ts";
import type { Metrics } from "./metrics/metrics.ts";
import type { AttachmentStore } from "./storage/attachment-store.ts";

/**
 * The platform's services, made once in app.ts and given to every feature: the one way a route,
 * a job or a schedule reaches a service (never a decoration on the Fastify instance). A feature
 * that needs another's service (the catalogue's cache) says so in its own deps type, and app.ts
 * hands it over.
 */
export type FeatureDeps = {
  env: Env;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  /** Queues an email in the outbox, which the job runner delivers (emails/outbox.ts). */
  mailer: Mailer;
  /**
   * Delivers an email at once, bypassing the outbox: only for a sender that keeps its own record of
   * each delivery (the announcements, docs/decisions/023-mail-outbox.md).
   */
  mailTransport: MailTransport;
  /** Null when no Paystack secret key is configured (docs/integrations.md, "Paystack"). */
  paystack: PaystackClient | null;
  metrics: Metrics;
  /** Runs the queued jobs of every feature; a route that queued one asks it to run them now. */
  jobs: JobRunner;
  auth: Auth;
  /** Who is calling, and the guards (requireUser, requireAdmin, adminOnly). */
  sessions: Sessions;
  /** Every change to a learner's account or learning, heard by every instance's caches. */
  userChanges: UserChanges;
  /** Where lesson attachments' bytes are kept: the database, or S3-compatible storage. */
  attachments: AttachmentStore;
  /** Whether the database is reachable, said once per outage (docs/operations.md, "Database outage"). */
  outage: OutageWatch;
};

export type Feature = {
  /** Registered in the order of app.ts's list, after the app-wide plugins. */
  routes?: FastifyPluginAsync;
  /** The kinds of job this feature queues, each with the work it does (jobs/queue.ts). */
  jobs?: JobHandlers;
  /** Work run once per period by one instance (jobs/scheduler.ts). */
  schedules?: readonly Schedule[];
};

/**
 * Every feature's jobs in one table. A kind named twice is a mistake the app refuses at start,
 * rather than one feature's job silently run by another's handler.
 */
export function jobTable(features: readonly Feature[]): JobHandlers {
  const table: JobHandlers = {};
  for (const [kind, handler] of features.flatMap((feature) => Object.entries(feature.jobs ?? {}))) {
    if (kind in table) throw new Error(`Two features handle the job kind "${kind}"`);
    table[kind] = handler;
  }
  return table;
}
