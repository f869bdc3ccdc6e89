// Announcements (docs/admin.md, "Announcements"): who an audience holds, counted and listed by the
// database; starting one (the announcement, one delivery row per learner, its audit entry and the
// send job, in one transaction); its progress and failures, a page at a time; and unsubscribing.
import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  ANNOUNCEMENT_LIMITS,
  ANNOUNCEMENT_MESSAGES,
  audienceSchema,
  type Announcement,
  type AnnouncementPreview,
  type Audience,
  type AudienceOptions,
  type DeliveryFailure,
} from "../../../shared/contracts/announcements.ts";
import type { Db, Tx } from "../../db/client.ts";
import {
  announcementDeliveries,
  announcements,
  announcementUnsubscribes,
  auditLog,
  cohorts,
  programs,
  users,
  waitlist,
  userProgress,
  certificates,
} from "../../db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import { announcementEmail, userOfToken } from "./announcement-email.ts";

export const ANNOUNCEMENT_JOB = "announcements.send";

/** Cohorts offered in the audience's list: the latest intakes, which is every one for decades. */
const COHORT_CHOICES = 40;

/**
 * The learners an audience holds, as a condition on `users`. Only people who can read it and asked
 * for it: a verified address, not an administrator, not unsubscribed.
 */
export function audienceCondition(audience: Audience): SQL {
  const reachable = sql`${users.emailVerified}
    and ${users.subscriptionPlan} is distinct from 'admin'
    and not exists (select 1 from ${announcementUnsubscribes} where ${announcementUnsubscribes.userId} = ${users.id})`;
  return sql`${reachable} and ${narrowing(audience)}`;
}

function narrowing(audience: Audience): SQL {
  switch (audience.kind) {
    case "everyone":
      return sql`true`;
    case "plan":
      // The free plan: everyone without an active paid plan, an old row without a plan included.
      return audience.plan === "free"
        ? sql`not (coalesce(${users.subscriptionPlan}::text, 'legacyFree') in ('intermediate', 'advanced') and ${users.subscriptionStatus} = 'active')`
        : sql`${users.subscriptionPlan} = ${audience.plan} and ${users.subscriptionStatus} = 'active'`;
    case "cohort":
      // Every place of the cohort, admitted or still waiting: the cohort is the intake.
      return sql`exists (select 1 from ${waitlist} where ${waitlist.userId} = ${users.id} and ${waitlist.cohort} = ${audience.cohort})`;
    case "waitlist":
      return sql`${users.waitlistPaid} and not ${users.waitlistAdmitted}`;
    case "unfinished":
      // Started (a video watched) and no valid certificate: a revoked one does not count as finished.
      return sql`exists (select 1 from ${userProgress} where ${userProgress.userId} = ${users.id}
          and ${userProgress.programId} = ${audience.program} and ${userProgress.startedAt} is not null)
        and not exists (select 1 from ${certificates} where ${certificates.userId} = ${users.id}
          and ${certificates.programId} = ${audience.program} and ${certificates.revokedAt} is null)`;
  }
}

/** A cohort or program the audience names must exist: a typo is not an empty audience. */
async function checkAudience(db: Db | Tx, audience: Audience): Promise<void> {
  if (audience.kind === "cohort") {
    const [found] = await db.select({ name: cohorts.name }).from(cohorts).where(eq(cohorts.name, audience.cohort));
    if (!found) throw new HttpError(400, "VALIDATION", ANNOUNCEMENT_MESSAGES.noSuchCohort(audience.cohort));
  }
  if (audience.kind === "unfinished") {
    const [found] = await db.select({ id: programs.id }).from(programs).where(eq(programs.id, audience.program));
    if (!found) throw new HttpError(400, "VALIDATION", ANNOUNCEMENT_MESSAGES.noSuchProgram(audience.program));
  }
}

export async function countAudience(db: Db | Tx, audience: Audience): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(audienceCondition(audience));
  return row?.n ?? 0;
}

export type Draft = { subject: string; body: string; audience: Audience };
export type MailSettings = { appUrl: string; secret: string };
type Reader = { id: string; email: string; name: string };

/** How many the audience reaches now, and the email as the administrator would receive it. */
export async function previewAnnouncement(db: Db, admin: Reader, draft: Draft, settings: MailSettings): Promise<AnnouncementPreview> {
  await checkAudience(db, draft.audience);
  const recipients = await countAudience(db, draft.audience);
  const email = announcementEmail({ ...draft, to: admin.email, name: admin.name, userId: admin.id, ...settings });
  return { recipients, email: { subject: email.subject, text: email.text, html: email.html } };
}

/**
 * Starts sending: the announcement, its deliveries (the audience as it is now, copied by the
 * database), the audit entry and the job, in one transaction. The id comes from the browser, once
 * per message: a second request with it answers the announcement already started and sends nothing
 * more. An empty audience is refused and leaves nothing behind.
 */
export async function startAnnouncement(db: Db, input: Draft & { id: string }, actorId: string): Promise<{ announcement: Announcement; started: boolean }> {
  const started = await db.transaction(async (tx) => {
    await checkAudience(tx, input.audience);
    const [created] = await tx
      .insert(announcements)
      .values({ id: input.id, subject: input.subject, body: input.body, audience: input.audience, actorId })
      .onConflictDoNothing({ target: announcements.id })
      .returning({ id: announcements.id });
    if (!created) return false;
    await tx.execute(sql`
      insert into ${announcementDeliveries} (announcement_id, user_id, email)
      select ${input.id}::uuid, ${users.id}, ${users.email} from ${users} where ${audienceCondition(input.audience)}
      on conflict do nothing`);
    const [addressed] = await tx.select({ n: count() }).from(announcementDeliveries).where(eq(announcementDeliveries.announcementId, input.id));
    const recipients = addressed?.n ?? 0;
    if (recipients === 0) throw new HttpError(422, "NOBODY", ANNOUNCEMENT_MESSAGES.nobody);
    await tx.update(announcements).set({ recipients }).where(eq(announcements.id, input.id));
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "announcement.sent",
      reason: "admin",
      changes: { announcement: input.id, subject: input.subject, audience: input.audience, recipients },
    });
    await enqueueJob(tx, ANNOUNCEMENT_JOB, { announcementId: input.id });
    return true;
  });
  const announcement = await findAnnouncement(db, input.id);
  if (!announcement) throw new HttpError(404, "NOT_FOUND", ANNOUNCEMENT_MESSAGES.notFound);
  return { announcement, started };
}

const sender = alias(users, "sender");

function announcementRows(db: Db) {
  return db
    .select({
      id: announcements.id,
      subject: announcements.subject,
      body: announcements.body,
      audience: announcements.audience,
      status: announcements.status,
      recipients: announcements.recipients,
      sentBy: sender.email,
      createdAt: announcements.createdAt,
      finishedAt: announcements.finishedAt,
    })
    .from(announcements)
    .leftJoin(sender, eq(sender.id, announcements.actorId));
}

type AnnouncementRow = Awaited<ReturnType<ReturnType<typeof announcementRows>["execute"]>>[number];

/** The rows with their deliveries counted by status, in one grouped query over the page's ids. */
async function withProgress(db: Db, rows: AnnouncementRow[]): Promise<Announcement[]> {
  if (rows.length === 0) return [];
  const counts = await db
    .select({ id: announcementDeliveries.announcementId, status: announcementDeliveries.status, n: count() })
    .from(announcementDeliveries)
    .where(inArray(announcementDeliveries.announcementId, rows.map((row) => row.id)))
    .groupBy(announcementDeliveries.announcementId, announcementDeliveries.status);
  const countOf = (id: string, status: string) => counts.find((c) => c.id === id && c.status === status)?.n ?? 0;
  return rows.map((row) => ({
    ...row,
    // Written by startAnnouncement from the same schema; read back through it, not cast.
    audience: audienceSchema.parse(row.audience),
    sent: countOf(row.id, "sent"),
    failed: countOf(row.id, "failed"),
    pending: countOf(row.id, "pending") + countOf(row.id, "sending"),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  }));
}

export async function findAnnouncement(db: Db, id: string): Promise<Announcement | null> {
  const rows = await announcementRows(db).where(eq(announcements.id, id));
  const [announcement] = await withProgress(db, rows);
  return announcement ?? null;
}

/** Newest first, a page at a time. */
export async function listAnnouncements(db: Db, page: number) {
  const pageSize = ANNOUNCEMENT_LIMITS.page;
  const [rows, [total]] = await Promise.all([
    announcementRows(db)
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(announcements),
  ]);
  return { page, pageSize, total: total?.n ?? 0, announcements: await withProgress(db, rows) };
}

/** The failed deliveries of an announcement, by address, a page at a time. */
export async function listFailures(db: Db, id: string, page: number) {
  const [found] = await db.select({ id: announcements.id }).from(announcements).where(eq(announcements.id, id));
  if (!found) throw new HttpError(404, "NOT_FOUND", ANNOUNCEMENT_MESSAGES.notFound);
  const pageSize = ANNOUNCEMENT_LIMITS.page;
  const failed = and(eq(announcementDeliveries.announcementId, id), eq(announcementDeliveries.status, "failed"));
  const [rows, [total]] = await Promise.all([
    db
      .select({ email: announcementDeliveries.email, error: announcementDeliveries.error, at: announcementDeliveries.claimedAt })
      .from(announcementDeliveries)
      .where(failed)
      .orderBy(announcementDeliveries.email, announcementDeliveries.userId)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(announcementDeliveries).where(failed),
  ]);
  const failures: DeliveryFailure[] = rows.map((row) => ({ email: row.email, error: row.error ?? "", at: row.at?.toISOString() ?? null }));
  return { page, pageSize, total: total?.n ?? 0, failures };
}

/** The cohorts (latest first) and programs an audience can name. */
export async function audienceOptions(db: Db): Promise<AudienceOptions> {
  const [cohortRows, programRows] = await Promise.all([
    db.select({ name: cohorts.name, startsOn: cohorts.startsOn }).from(cohorts).orderBy(desc(cohorts.startsOn)).limit(COHORT_CHOICES),
    db.select({ id: programs.id, title: programs.title }).from(programs).orderBy(programs.order, programs.title, programs.id),
  ]);
  return { cohorts: cohortRows, programs: programRows };
}

/**
 * Ends announcements for the learner a token names. A valid token of an account deleted since is
 * answered the same: that person receives nothing anyway.
 */
export async function unsubscribe(db: Db, secret: string, token: string): Promise<void> {
  const userId = userOfToken(secret, token);
  if (!userId) throw new HttpError(400, "INVALID_TOKEN", ANNOUNCEMENT_MESSAGES.badToken);
  await db.execute(sql`
    insert into ${announcementUnsubscribes} (user_id)
    select ${users.id} from ${users} where ${users.id} = ${userId}
    on conflict do nothing`);
}
