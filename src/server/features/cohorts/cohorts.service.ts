// The quarterly cohorts (docs/admin.md, "Cohorts"): the record a waitlist place belongs to, and
// what the admin console does with them: list them with their places by track, create and edit
// them, and start "Admit all" (the job itself is in cohort-admissions.ts).
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import {
  COHORT_MESSAGES,
  COHORTS_PAGE_SIZE,
  type AdmissionRun,
  type Cohort,
  type CohortList,
  type CreateCohortRequest,
  type UpdateCohortRequest,
} from "../../../shared/contracts/cohorts.ts";
import { PAID_PLANS, type PaidPlan } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, cohortAdmissions, cohorts, users, waitlist } from "../../db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import { ADMIT_ALL_JOB, pendingPlaces, toAdmissionRun } from "./cohort-admissions.ts";

// Admit from Waitlist (the admin's users feature) welcomes its learner as Admit all does.
export { queueCohortWelcome } from "./cohort-welcome.ts";

type Admin = { id: string };
type CohortRow = Pick<typeof cohorts.$inferSelect, "name" | "startsOn" | "tracks">;

/**
 * Makes sure the cohort a waitlist payment joins exists, with the start the name gives it; one an
 * administrator already created is left as it is. On the crediting transaction.
 */
export async function ensureCohort(tx: Tx, cohort: { name: string; startsOn: string }): Promise<void> {
  await tx.insert(cohorts).values({ name: cohort.name, startsOn: cohort.startsOn }).onConflictDoNothing();
}

/** The tracks as given, once each, in the order the console shows them. */
function orderedTracks(tracks: readonly PaidPlan[]): PaidPlan[] {
  return PAID_PLANS.filter((plan) => tracks.includes(plan));
}

/**
 * The cohorts with, per track, the paid places and how many are admitted (one GROUP BY over the
 * waitlist index of these cohorts) and the latest Admit all of each track.
 */
async function withPlaces(db: Db | Tx, rows: readonly CohortRow[]): Promise<Cohort[]> {
  if (rows.length === 0) return [];
  const names = rows.map((row) => row.name);
  const [counts, runs] = await Promise.all([
    db
      .select({
        cohort: waitlist.cohort,
        track: waitlist.plan,
        paid: sql<number>`count(*) filter (where ${users.waitlistPaid})`.mapWith(Number),
        admitted: sql<number>`count(*) filter (where ${users.waitlistPaid} and ${waitlist.admitted})`.mapWith(Number),
      })
      .from(waitlist)
      .innerJoin(users, eq(users.id, waitlist.userId))
      .where(inArray(waitlist.cohort, names))
      .groupBy(waitlist.cohort, waitlist.plan),
    db
      .selectDistinctOn([cohortAdmissions.cohort, cohortAdmissions.track])
      .from(cohortAdmissions)
      .where(inArray(cohortAdmissions.cohort, names))
      .orderBy(cohortAdmissions.cohort, cohortAdmissions.track, desc(cohortAdmissions.createdAt)),
  ]);
  return rows.map((row) => {
    const mine = counts.filter((entry) => entry.cohort === row.name && entry.paid > 0);
    const shown = PAID_PLANS.filter((plan) => row.tracks.includes(plan) || mine.some((entry) => entry.track === plan));
    return {
      name: row.name,
      startsOn: row.startsOn,
      tracks: orderedTracks(row.tracks),
      byTrack: shown.map((track) => {
        const entry = mine.find((candidate) => candidate.track === track);
        const run = runs.find((candidate) => candidate.cohort === row.name && candidate.track === track);
        return {
          track,
          offered: row.tracks.includes(track),
          paid: entry?.paid ?? 0,
          admitted: entry?.admitted ?? 0,
          lastRun: run ? toAdmissionRun(run) : null,
        };
      }),
    };
  });
}

const cohortColumns = { name: cohorts.name, startsOn: cohorts.startsOn, tracks: cohorts.tracks };

/** A page of cohorts, the latest start first. */
export async function listCohorts(db: Db, page: number): Promise<CohortList> {
  const [rows, [total]] = await Promise.all([
    db
      .select(cohortColumns)
      .from(cohorts)
      .orderBy(desc(cohorts.startsOn), asc(cohorts.name))
      .limit(COHORTS_PAGE_SIZE)
      .offset((page - 1) * COHORTS_PAGE_SIZE),
    db.select({ n: count() }).from(cohorts),
  ]);
  return { page, pageSize: COHORTS_PAGE_SIZE, total: total?.n ?? 0, cohorts: await withPlaces(db, rows) };
}

export async function createCohort(db: Db, admin: Admin, input: CreateCohortRequest): Promise<Cohort> {
  const name = input.name.trim();
  const tracks = orderedTracks(input.tracks);
  return db.transaction(async (tx) => {
    // "january 2027" next to "January 2027" would be two cohorts no one can tell apart.
    const [taken] = await tx.select({ name: cohorts.name }).from(cohorts).where(sql`lower(${cohorts.name}) = lower(${name})`);
    if (taken) throw new HttpError(409, "COHORT_EXISTS", COHORT_MESSAGES.exists(taken.name));
    const [created] = await tx.insert(cohorts).values({ name, startsOn: input.startsOn, tracks }).onConflictDoNothing().returning(cohortColumns);
    if (!created) throw new HttpError(409, "COHORT_EXISTS", COHORT_MESSAGES.exists(name));
    await tx.insert(auditLog).values({
      actorId: admin.id,
      action: "cohort.created",
      reason: "admin",
      changes: { cohort: name, to: { startsOn: created.startsOn, tracks } },
    });
    const [cohort] = await withPlaces(tx, [created]);
    if (!cohort) throw new Error(`cohort ${name} vanished in its own transaction`);
    return cohort;
  });
}

/**
 * A cohort's start and tracks. A track learners have paid for stays: taking it away would leave
 * their places in a track the cohort no longer runs.
 */
export async function updateCohort(db: Db, admin: Admin, name: string, input: UpdateCohortRequest): Promise<Cohort> {
  const tracks = orderedTracks(input.tracks);
  return db.transaction(async (tx) => {
    const [current] = await tx.select(cohortColumns).from(cohorts).where(eq(cohorts.name, name)).for("update");
    if (!current) throw new HttpError(404, "COHORT_NOT_FOUND", COHORT_MESSAGES.notFound(name));
    const removed = current.tracks.filter((track) => !tracks.includes(track));
    if (removed.length > 0) {
      const held = await tx
        .select({ track: waitlist.plan, places: count() })
        .from(waitlist)
        .where(and(eq(waitlist.cohort, name), inArray(waitlist.plan, removed)))
        .groupBy(waitlist.plan);
      const [first] = held;
      if (first) throw new HttpError(409, "TRACK_HAS_PLACES", COHORT_MESSAGES.trackHasPlaces(name, first.track, first.places));
    }
    const [updated] = await tx
      .update(cohorts)
      .set({ startsOn: input.startsOn, tracks })
      .where(eq(cohorts.name, name))
      .returning(cohortColumns);
    if (!updated) throw new Error(`cohort ${name} vanished under its row lock`);
    await tx.insert(auditLog).values({
      actorId: admin.id,
      action: "cohort.updated",
      reason: "admin",
      changes: {
        cohort: name,
        from: { startsOn: current.startsOn, tracks: orderedTracks(current.tracks) },
        to: { startsOn: updated.startsOn, tracks },
      },
    });
    const [cohort] = await withPlaces(tx, [updated]);
    if (!cohort) throw new Error(`cohort ${name} vanished in its own transaction`);
    return cohort;
  });
}

/**
 * Starts "Admit all" for a cohort's track: the run and its job, in one transaction. One run at a
 * time per cohort and track: the database's unique index on running runs decides between two
 * starts at once, and the second is told one is running. Nobody left to admit: refused, no run.
 */
export async function startAdmitAll(db: Db, admin: Admin, input: { cohort: string; track: PaidPlan }): Promise<AdmissionRun> {
  const { cohort, track } = input;
  return db.transaction(async (tx) => {
    const [record] = await tx.select({ name: cohorts.name }).from(cohorts).where(eq(cohorts.name, cohort));
    if (!record) throw new HttpError(404, "COHORT_NOT_FOUND", COHORT_MESSAGES.notFound(cohort));
    const alreadyRunning = () => new HttpError(409, "ADMIT_ALL_RUNNING", COHORT_MESSAGES.alreadyRunning(cohort, track));
    const [running] = await tx
      .select({ id: cohortAdmissions.id })
      .from(cohortAdmissions)
      .where(and(eq(cohortAdmissions.cohort, cohort), eq(cohortAdmissions.track, track), eq(cohortAdmissions.status, "running")));
    if (running) throw alreadyRunning();
    const [pending] = await tx
      .select({ n: count() })
      .from(waitlist)
      .innerJoin(users, eq(users.id, waitlist.userId))
      .where(pendingPlaces(cohort, track, sql`now()`));
    const total = pending?.n ?? 0;
    if (total === 0) throw new HttpError(409, "EVERYONE_ADMITTED", COHORT_MESSAGES.everyoneAdmitted(cohort, track));
    const [run] = await tx
      .insert(cohortAdmissions)
      .values({ cohort, track, actorId: admin.id, total })
      .onConflictDoNothing()
      .returning();
    if (!run) throw alreadyRunning();
    await enqueueJob(tx, ADMIT_ALL_JOB, { runId: run.id });
    return toAdmissionRun(run);
  });
}

export async function getAdmissionRun(db: Db, id: string): Promise<AdmissionRun> {
  const [run] = await db.select().from(cohortAdmissions).where(eq(cohortAdmissions.id, id));
  if (!run) throw new HttpError(404, "RUN_NOT_FOUND", COHORT_MESSAGES.runNotFound);
  return toAdmissionRun(run);
}
