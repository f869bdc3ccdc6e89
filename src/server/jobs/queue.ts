// A durable job queue in the jobs table: work is written in the same transaction as the change
// that caused it, and a crash before it runs loses nothing.
import { and, count, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db, Tx } from "../db/client.ts";
import type { OutageWatch } from "../db/outage.ts";
import { jobs } from "../db/schema.ts";
import type { Metrics } from "../metrics/metrics.ts";

/** What a handler is told of its job's tries: this is try `attempts` of `maxAttempts` (the last when equal). */
export type JobTries = { attempts: number; maxAttempts: number };
export type JobHandler = (payload: unknown, tries: JobTries) => Promise<void>;
export type JobHandlers = Record<string, JobHandler>;

/**
 * Queues a job, to run now or, with `runAt`, no sooner than then (a throttled job's next turn);
 * `maxAttempts` (8 unless given) is how many tries it has before it is given up.
 */
export async function enqueueJob(
  db: Db | Tx,
  kind: string,
  payload: unknown,
  options: { runAt?: Date; maxAttempts?: number } = {},
): Promise<void> {
  await db.insert(jobs).values({ kind, payload, runAt: options.runAt, maxAttempts: options.maxAttempts });
}

/** Pending jobs by kind, for /metrics: few rows, found through the partial index on pending jobs. */
export async function pendingJobCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db.select({ kind: jobs.kind, count: count() }).from(jobs).where(eq(jobs.status, "pending")).groupBy(jobs.kind);
  return Object.fromEntries(rows.map((row) => [row.kind, row.count]));
}

/** Wait before the next try: 30 s, 1 min, 2 min ... capped at 1 hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

// A job whose worker died mid-run is picked up again after this long. A live worker renews its
// lock while the handler runs, so a slow job (an SMTP server taking minutes) is never picked up by
// another instance while the first is still on it (docs/operations.md, "Several instances").
const STALE_LOCK_MS = 5 * 60_000;
const LOCK_RENEWAL_MS = 60_000;

export type JobRunner = {
  /**
   * Runs every due job now, or with `kind` only the due jobs of that kind (the mail outbox's, right
   * after a message is queued, without running anything else); resolves with how many ran.
   */
  runDue(kind?: string): Promise<number>;
  start(): void;
  stop(): Promise<void>;
};

type Drain = { again: boolean; done: Promise<number> };

export function createJobRunner(options: {
  db: Db;
  handlers: JobHandlers;
  log: FastifyBaseLogger;
  /** Counts failed attempts (left out by tests that run a runner of their own). */
  metrics?: Pick<Metrics, "jobFailed">;
  /** Told of a failure that is the database unreachable, which its one outage line covers. */
  outage?: Pick<OutageWatch, "notice">;
  pollMs?: number;
  /** How often a running job's lock is renewed (well inside the 5 minutes after which it is stale). */
  lockRenewalMs?: number;
  now?: () => Date;
}): JobRunner {
  const { db, handlers, log } = options;
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | null = null;
  // The drain under way, for every kind ("") or one, and the jobs this process is running.
  const drains = new Map<string, Drain>();
  const inFlight = new Set<{ kind: string; done: Promise<unknown> }>();

  async function claimNext(kind: string) {
    return db.transaction(async (tx) => {
      const staleBefore = new Date(now().getTime() - STALE_LOCK_MS);
      // A job enqueued with the database's clock (microseconds) in the runner's current
      // millisecond is due: the runner's "now" stands for that whole millisecond.
      const dueBefore = new Date(now().getTime() + 1);
      const [job] = await tx
        .select()
        .from(jobs)
        .where(
          and(
            sql`((${jobs.status} = 'pending' and ${jobs.runAt} < ${dueBefore})
              or (${jobs.status} = 'running' and ${jobs.lockedAt} < ${staleBefore}))`,
            kind ? eq(jobs.kind, kind) : undefined,
          ),
        )
        .orderBy(jobs.runAt)
        .limit(1)
        .for("update", { skipLocked: true });
      if (!job) return null;
      await tx
        .update(jobs)
        .set({ status: "running", lockedAt: now(), attempts: job.attempts + 1 })
        .where(eq(jobs.id, job.id));
      return { ...job, attempts: job.attempts + 1 };
    });
  }

  async function runOne(kind: string): Promise<boolean> {
    const job = await claimNext(kind);
    if (!job) return false;
    const running = { kind: job.kind, done: run(job) };
    inFlight.add(running);
    try {
      await running.done;
    } finally {
      inFlight.delete(running);
    }
    return true;
  }

  /** Runs a claimed job and records how it went. */
  async function run(job: NonNullable<Awaited<ReturnType<typeof claimNext>>>) {
    const handler = handlers[job.kind];
    const renewal = setInterval(() => {
      db.update(jobs)
        .set({ lockedAt: now() })
        .where(and(eq(jobs.id, job.id), eq(jobs.status, "running")))
        .catch((error: unknown) => {
          if (!options.outage?.notice(error)) log.warn({ jobId: job.id, err: error }, "renewing a job's lock failed");
        });
    }, options.lockRenewalMs ?? LOCK_RENEWAL_MS);
    renewal.unref();
    try {
      if (!handler) throw new Error(`No handler for job kind "${job.kind}"`);
      await handler(job.payload, { attempts: job.attempts, maxAttempts: job.maxAttempts });
      await db
        .update(jobs)
        .set({ status: "done", lockedAt: null, lastError: null })
        .where(eq(jobs.id, job.id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const exhausted = job.attempts >= job.maxAttempts;
      log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, "job failed");
      options.metrics?.jobFailed(job.kind);
      await db
        .update(jobs)
        .set({
          status: exhausted ? "failed" : "pending",
          lockedAt: null,
          lastError: message,
          runAt: new Date(now().getTime() + retryDelayMs(job.attempts)),
        })
        .where(and(eq(jobs.id, job.id), eq(jobs.status, "running")));
    } finally {
      clearInterval(renewal);
    }
  }

  async function drain(kind: string): Promise<number> {
    let count = 0;
    while (await runOne(kind)) count++;
    return count;
  }

  function runDue(kind = ""): Promise<number> {
    // One drain at a time per process and kind; callers share the one under way. It may already
    // have looked for work and be finishing a job when a caller queues another, so a caller that
    // joins it asks for one more pass, and the shared promise resolves after that pass. A drain of
    // one kind and the drain of all may run side by side: each claims its jobs, as instances do,
    // and a job of the kind that the other has claimed is waited for before the drain resolves.
    const underWay = drains.get(kind);
    if (underWay) {
      underWay.again = true;
      return underWay.done;
    }
    const state: Drain = { again: false, done: Promise.resolve(0) };
    state.done = (async () => {
      let count = 0;
      try {
        do {
          state.again = false;
          count += await drain(kind);
        } while (state.again);
        await Promise.allSettled([...inFlight].filter((job) => !kind || job.kind === kind).map((job) => job.done));
      } finally {
        drains.delete(kind);
      }
      return count;
    })();
    drains.set(kind, state);
    return state.done;
  }

  function tick() {
    runDue().catch((error: unknown) => {
      if (!options.outage?.notice(error)) log.error({ err: error }, "job runner failed");
    });
  }

  return {
    runDue,
    start() {
      timer ??= setInterval(tick, options.pollMs ?? 5_000);
      timer.unref();
      tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.allSettled([...drains.values()].map((underWay) => underWay.done));
    },
  };
}
