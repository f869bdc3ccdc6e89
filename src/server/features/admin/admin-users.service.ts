// The Users tab: the list (filtered, sorted and paged in the database, never loaded whole), plan
// changes, admission, progress edits and the Fix Missing Subscription Plans tool.
import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  ADMIN_MESSAGES,
  USERS_PAGE_SIZE,
  type AdminUser,
  type UserList,
  type UserSort,
} from "../../../shared/contracts/admin.ts";
import { isTrack, TRACKS, type Plan, type Track } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { auditLog, programs, userProgress, users } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import { replaceProgress } from "../learning/progress.ts";
import { admitFromWaitlist, setUserPlan, type UserRow } from "../users/users.service.ts";

export type Admin = { id: string };

const adminUserColumns = {
  id: users.id,
  email: users.email,
  plan: users.subscriptionPlan,
  provider: users.provider,
  status: users.subscriptionStatus,
  subscriptionEnd: users.subscriptionEnd,
  lastActiveAt: users.lastActiveAt,
  waitlistPaid: users.waitlistPaid,
  waitlistAdmitted: users.waitlistAdmitted,
  createdAt: users.createdAt,
};

type AdminUserRow = Pick<
  UserRow,
  "id" | "email" | "provider" | "lastActiveAt" | "subscriptionEnd" | "waitlistPaid" | "waitlistAdmitted" | "createdAt"
> & { plan: UserRow["subscriptionPlan"]; status: UserRow["subscriptionStatus"] };

function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    plan: row.plan,
    provider: row.provider,
    status: row.status,
    subscriptionEnd: row.subscriptionEnd?.toISOString() ?? null,
    lastActiveAt: row.lastActiveAt?.toISOString() ?? null,
    waitlistPaid: row.waitlistPaid,
    waitlistAdmitted: row.waitlistAdmitted,
    createdAt: row.createdAt.toISOString(),
  };
}

function fromUserRow(user: UserRow): AdminUser {
  return toAdminUser({ ...user, plan: user.subscriptionPlan, status: user.subscriptionStatus });
}

/** A LIKE pattern matching `text` literally anywhere: %, _ and the escape character lose their meaning. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

const ORDER_BY: Record<UserSort, SQL[]> = {
  // The index users_created_idx (created_at desc, id desc) serves this order as it is.
  newest: [desc(users.createdAt), desc(users.id)],
  email: [sql`lower(${users.email}) asc`],
  lastActive: [sql`${users.lastActiveAt} desc nulls last`, asc(users.id)],
};

type ListUsersInput = { page: number; search?: string | undefined; waitlistPending?: boolean | undefined; sort: UserSort };

export async function listUsers(db: Db, input: ListUsersInput): Promise<UserList> {
  const filters: SQL[] = [];
  // email_search is lower(email), stored: the trigram index users_email_search_trgm_idx serves it.
  if (input.search) filters.push(sql`${users.emailSearch} like lower(${containsPattern(input.search)}) escape '\\'`);
  if (input.waitlistPending) filters.push(sql`${users.waitlistPaid} and not ${users.waitlistAdmitted}`);
  const where = and(...filters);

  // A deferred join: the page's ids first (for the default order an index-only scan, so a deep
  // page skips index entries instead of table rows), then only those ten rows are read.
  const pageIds = db
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(...ORDER_BY[input.sort])
    .limit(USERS_PAGE_SIZE)
    .offset((input.page - 1) * USERS_PAGE_SIZE)
    .as("page_ids");
  const [rows, [total]] = await Promise.all([
    db
      .select(adminUserColumns)
      .from(users)
      .innerJoin(pageIds, eq(users.id, pageIds.id))
      .orderBy(...ORDER_BY[input.sort]),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { page: input.page, pageSize: USERS_PAGE_SIZE, total: total?.n ?? 0, users: rows.map(toAdminUser) };
}

function ownPlanRefused(admin: Admin, userId: string) {
  // The last administrator could otherwise lock everyone out of the console.
  if (admin.id === userId) throw new HttpError(409, "OWN_PLAN", ADMIN_MESSAGES.ownPlan);
}

export async function changePlan(db: Db, admin: Admin, input: { userId: string; plan: Plan; now: Date }): Promise<AdminUser> {
  ownPlanRefused(admin, input.userId);
  const { user } = await setUserPlan(db, { userId: input.userId, plan: input.plan, actorId: admin.id, reason: "admin", now: input.now });
  return fromUserRow(user);
}

export async function admitUser(db: Db, admin: Admin, input: { userId: string; now: Date }): Promise<AdminUser> {
  return fromUserRow(await admitFromWaitlist(db, { userId: input.userId, actorId: admin.id, now: input.now }));
}

async function requireUserExists(db: Pick<Db, "select">, userId: string) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new HttpError(404, "USER_NOT_FOUND", ADMIN_MESSAGES.userNotFound);
}

type TrackProgress = { track: Track; title: string; data: unknown };

/** One entry per track that has a program, in display order; data is null when nothing is stored. */
export async function getUserProgress(db: Db, userId: string): Promise<TrackProgress[]> {
  await requireUserExists(db, userId);
  const rows = await db
    .select({ track: programs.id, title: programs.title, data: userProgress.data })
    .from(programs)
    .leftJoin(userProgress, and(eq(userProgress.programId, programs.id), eq(userProgress.userId, userId)))
    .where(inArray(programs.id, [...TRACKS]))
    .orderBy(asc(programs.order), asc(programs.id));
  return rows.flatMap(({ track, title, data }) => (isTrack(track) ? [{ track, title, data: data ?? null }] : []));
}

const noProgramMessage = (track: Track) => `There is no ${track} program.`;

/**
 * Stores each given track's progress as it is: any JSON value, or the text the admin typed when
 * it was not JSON (a jsonb string). All tracks or none, with one audit entry. Learning writes
 * the entries (replaceProgress), as it writes every progress entry.
 */
export async function setUserProgress(
  db: Db,
  admin: Admin,
  input: { userId: string; progress: Partial<Record<Track, unknown>> },
): Promise<void> {
  const entries = TRACKS.flatMap((track) => (track in input.progress ? [{ track, data: input.progress[track] ?? null }] : []));
  await db.transaction(async (tx) => {
    await requireUserExists(tx, input.userId);
    if (entries.length === 0) return;
    const tracks = entries.map((entry) => entry.track);
    const existing = await tx.select({ id: programs.id }).from(programs).where(inArray(programs.id, tracks));
    const missing = tracks.find((track) => !existing.some((program) => program.id === track));
    if (missing) throw new HttpError(400, "VALIDATION", noProgramMessage(missing));

    const changes = await replaceProgress(tx, input.userId, entries);
    await tx.insert(auditLog).values({
      actorId: admin.id,
      subjectUserId: input.userId,
      action: "progress.edited",
      reason: "admin",
      changes: Object.fromEntries(changes.map(({ track, from, to }) => [track, { from, to }])),
    });
  });
}

const fixedCountSchema = z.object({ rows: z.tuple([z.object({ fixed: z.number() })]) });

/**
 * Gives legacyFree to every user without a plan, with an audit entry each, in one statement:
 * the rows never travel to the server, however many there are.
 */
export async function fixMissingPlans(db: Db, admin: Admin): Promise<number> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      with fixed as (
        update ${users} set subscription_plan = 'legacyFree', updated_at = now()
        where subscription_plan is null
        returning id
      ), logged as (
        insert into ${auditLog} (actor_id, subject_user_id, action, reason, changes)
        select ${admin.id}, fixed.id, 'plan.fixed', 'admin',
               '{"from":{"plan":null},"to":{"plan":"legacyFree"}}'::jsonb
        from fixed
        returning 1
      )
      select count(*)::int as fixed from logged`);
    return fixedCountSchema.parse(result).rows[0].fixed;
  });
}
