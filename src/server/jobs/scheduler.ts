// Work on a clock (ending lapsed paid months, deleting expired records), run once per period
// across every instance on one database (docs/operations.md, "Several instances"). Each instance
// checks every minute; a schedule runs in one transaction that first takes the schedule's advisory
// lock without waiting (an instance that finds it taken skips: another is running it) and then
// reads when it last ran, in `config` under `schedule:<name>`, so two instances whose clocks tick
// at different moments still run it once per period. The work and its new last-run time commit
// together: a failed run is tried again at the next check.
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import * as z from "zod/mini";
import { SCHEDULE_LOCK_CLASS } from "../db/advisory-locks.ts";
import type { Db, Tx } from "../db/client.ts";
import type { OutageWatch } from "../db/outage.ts";
import { config } from "../db/schema.ts";

export type Schedule = {
  /** Unique: names the schedule's lock and its row in `config`. */
  name: string;
  everyMs: number;
  /** The work, inside the schedule's transaction. */
  run(tx: Tx, now: Date): Promise<unknown>;
};

export type ScheduleOutcome = "ran" | "not-due" | "busy" | "failed";

export type Scheduler = {
  /** Checks every schedule now; resolves with what each did. */
  runDue(): Promise<Record<string, ScheduleOutcome>>;
  start(): void;
  stop(): Promise<void>;
};

const lockedSchema = z.object({ rows: z.tuple([z.object({ locked: z.boolean() })]) });
const lastRunSchema = z.object({ lastRunAt: z.string() });

/** When the schedule last ran, or null when never (or the row is not one the scheduler wrote). */
async function lastRunOf(tx: Tx, key: string): Promise<Date | null> {
  const [row] = await tx.select({ value: config.value }).from(config).where(eq(config.key, key));
  const parsed = lastRunSchema.safeParse(row?.value);
  return parsed.success ? new Date(parsed.data.lastRunAt) : null;
}

export function createScheduler(options: {
  db: Db;
  log: FastifyBaseLogger;
  schedules: readonly Schedule[];
  /** Told of a failure that is the database unreachable, which its one outage line covers. */
  outage?: Pick<OutageWatch, "notice">;
  /** How often each instance checks whether a schedule is due. */
  checkMs?: number;
  now?: () => Date;
}): Scheduler {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const names = new Set(options.schedules.map((schedule) => schedule.name));
  if (names.size !== options.schedules.length) throw new Error("two schedules have the same name");
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<Record<string, ScheduleOutcome>> | null = null;

  function runIfDue(schedule: Schedule): Promise<ScheduleOutcome> {
    const key = `schedule:${schedule.name}`;
    return db.transaction(async (tx) => {
      const at = now();
      const locked = await tx.execute(
        sql`select pg_try_advisory_xact_lock(${SCHEDULE_LOCK_CLASS}, hashtext(${schedule.name})) as locked`,
      );
      if (!lockedSchema.parse(locked).rows[0].locked) return "busy";
      const lastRun = await lastRunOf(tx, key);
      if (lastRun && lastRun.getTime() + schedule.everyMs > at.getTime()) return "not-due";
      await schedule.run(tx, at);
      const value = { lastRunAt: at.toISOString() };
      await tx.insert(config).values({ key, value }).onConflictDoUpdate({ target: config.key, set: { value } });
      return "ran";
    });
  }

  async function checkAll(): Promise<Record<string, ScheduleOutcome>> {
    const outcomes: Record<string, ScheduleOutcome> = {};
    for (const schedule of options.schedules) {
      outcomes[schedule.name] = await runIfDue(schedule).catch((error: unknown) => {
        if (!options.outage?.notice(error)) log.error({ err: error, schedule: schedule.name }, "scheduled work failed");
        return "failed" as const;
      });
    }
    return outcomes;
  }

  function runDue() {
    // One check at a time per process; callers share the one under way.
    running ??= checkAll().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    runDue,
    start() {
      if (timer) return;
      timer = setInterval(() => void runDue(), options.checkMs ?? 60_000);
      timer.unref();
      void runDue();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
