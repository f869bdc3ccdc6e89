// The summary counts and the read-only tabs: waitlist, audit log, contact messages (the Payments
// tab's list is billing's: billing-admin-payments.ts).
// Each list is ordered and paged in the database, newest first.
import { asc, count, desc, eq, inArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AdminContactMessage, AdminSummary, AuditEntry, Pagination, WaitlistEntry } from "../../../shared/contracts/admin.ts";
import type { Db } from "../../db/client.ts";
import { pagination, paging } from "../../db/paging.ts";
import { auditLog, contacts, lessonQuestions, mentorshipRequests, payments, programs, users, waitlist } from "../../db/schema.ts";

/** The counts in the tab labels, in one round trip of count queries. */
export async function adminSummary(db: Db): Promise<AdminSummary> {
  const [summary] = await db
    .select({
      programs: sql<number>`(select count(*) from ${programs})::int`,
      users: sql<number>`(select count(*) from ${users})::int`,
      waitlist: sql<number>`(select count(*) from ${users} where ${users.waitlistPaid})::int`,
      payments: sql<number>`(select count(*) from ${payments})::int`,
      audit: sql<number>`(select count(*) from ${auditLog})::int`,
      messages: sql<number>`(select count(*) from ${contacts})::int`,
      questions: sql<number>`(select count(*) from ${lessonQuestions})::int`,
      mentorship: sql<number>`(select count(*) from ${mentorshipRequests})::int`,
    })
    // The scalar subqueries need a one-row FROM to hang on.
    .from(sql`(select 1) as one`);
  if (!summary) throw new Error("the summary query returned no row");
  return summary;
}

/** Every paid waitlist place, or one cohort's (the index waitlist_cohort_idx): not yet admitted first, then newest. */
export async function listWaitlist(db: Db, page: number, cohort?: string): Promise<Pagination & { entries: WaitlistEntry[] }> {
  const { limit, offset } = paging(page);
  const inCohort = cohort === undefined ? undefined : eq(waitlist.cohort, cohort);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        userId: waitlist.userId,
        email: users.email,
        plan: waitlist.plan,
        cohort: waitlist.cohort,
        paid: users.waitlistPaid,
        admitted: waitlist.admitted,
        admittedAt: waitlist.admittedAt,
        createdAt: waitlist.createdAt,
      })
      .from(waitlist)
      .innerJoin(users, eq(users.id, waitlist.userId))
      .where(inCohort)
      .orderBy(asc(waitlist.admitted), desc(waitlist.createdAt), desc(waitlist.userId))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(waitlist).where(inCohort),
  ]);
  const entries = rows.map((row) => ({
    ...row,
    admittedAt: row.admittedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
  return { ...pagination(page, total), entries };
}

const actor = alias(users, "actor");
const subject = alias(users, "subject");

/** The audit log, newest first; `user` (an email, any case, or a user id) keeps one user's entries. */
export async function listAudit(db: Db, input: { page: number; user?: string | undefined }): Promise<Pagination & { entries: AuditEntry[] }> {
  const { limit, offset } = paging(input.page);
  const who = input.user;
  // Through the subject index: the ids the filter names, then their entries.
  const where = who
    ? inArray(
        auditLog.subjectUserId,
        db
          .select({ id: users.id })
          .from(users)
          .where(or(sql`lower(${users.email}) = lower(${who})`, eq(users.id, who))),
      )
    : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        reason: auditLog.reason,
        actorId: actor.id,
        actorEmail: actor.email,
        subjectId: subject.id,
        subjectEmail: subject.email,
        changes: auditLog.changes,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(actor, eq(actor.id, auditLog.actorId))
      .leftJoin(subject, eq(subject.id, auditLog.subjectUserId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { ...pagination(input.page, total), entries: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
}

export async function listMessages(db: Db, page: number): Promise<Pagination & { messages: AdminContactMessage[] }> {
  const { limit, offset } = paging(page);
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: contacts.id, name: contacts.name, email: contacts.email, message: contacts.message, createdAt: contacts.createdAt })
      .from(contacts)
      .orderBy(desc(contacts.createdAt), desc(contacts.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(contacts),
  ]);
  return { ...pagination(page, total), messages: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
}
