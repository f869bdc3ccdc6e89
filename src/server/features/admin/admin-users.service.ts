// The Users tab: the list (filtered, sorted and paged in the database, never loaded whole), plan
// changes, admission, progress edits and the Fix Missing Subscription Plans tool.
import { and, asc, count, desc, eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  ADMIN_MESSAGES,
  USERS_PAGE_SIZE,
  type AdminUser,
  type ProgressUpdate,
  type UserList,
  type UserProgress,
  type UserSort,
} from "../../../shared/contracts/admin.ts";
import type { Plan } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, modules, programs, quizzes, userProgress, users } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import { queueCohortWelcome } from "../cohorts/cohorts.seam.ts";
import { queueOwedCertificates } from "../learning/learning.seam.ts";
import { bestScore, completionOf, scoredAttempts, storedAttempts } from "../learning/learning.seam.ts";
import { replaceProgress, watchedModuleIds } from "../learning/learning.seam.ts";
import { admitFromWaitlist, setUserPlan, type UserRow } from "../users/users.seam.ts";

export type Admin = { id: string };

const adminUserColumns = {
  id: users.id,
  email: users.email,
  plan: users.subscriptionPlan,
  provider: users.provider,
  status: users.subscriptionStatus,
  subscriptionEnd: users.subscriptionEnd,
  queuedPlan: users.queuedPlan,
  queuedEnd: users.queuedEnd,
  lastActiveAt: users.lastActiveAt,
  waitlistPaid: users.waitlistPaid,
  waitlistAdmitted: users.waitlistAdmitted,
  createdAt: users.createdAt,
};

type AdminUserRow = Pick<
  UserRow,
  "id" | "email" | "provider" | "lastActiveAt" | "subscriptionEnd" | "queuedPlan" | "queuedEnd" | "waitlistPaid" | "waitlistAdmitted" | "createdAt"
> & { plan: UserRow["subscriptionPlan"]; status: UserRow["subscriptionStatus"] };

function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    plan: row.plan,
    provider: row.provider,
    status: row.status,
    subscriptionEnd: row.subscriptionEnd?.toISOString() ?? null,
    queued: row.queuedPlan && row.queuedEnd ? { plan: row.queuedPlan, end: row.queuedEnd.toISOString() } : null,
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

/** Admits one learner from the waitlist, and queues their cohort's welcome email with it. */
export async function admitUser(db: Db, admin: Admin, input: { userId: string; now: Date }): Promise<AdminUser> {
  const admitted = await admitFromWaitlist(db, {
    userId: input.userId,
    actorId: admin.id,
    now: input.now,
    inTransaction: (tx, { user, place, month }) =>
      queueCohortWelcome(tx, { userId: user.id, cohort: place.cohort, track: place.plan, month }),
  });
  return fromUserRow(admitted);
}

async function requireUserExists(db: Pick<Db, "select">, userId: string) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new HttpError(404, "USER_NOT_FOUND", ADMIN_MESSAGES.userNotFound);
}

/**
 * Each program's videos, in order, and its quiz's question count and pass mark (null: no
 * questions): of the programs given by id, or of every program.
 */
async function programContents(db: Db | Tx, ids?: readonly string[]) {
  const among = <T extends AnyColumn>(column: T) => (ids === undefined ? undefined : inArray(column, [...ids]));
  const [programRows, moduleRows, quizRows] = await Promise.all([
    db
      .select({ track: programs.id, title: programs.title })
      .from(programs)
      .where(among(programs.id))
      .orderBy(asc(programs.order), asc(programs.title), asc(programs.id)),
    db
      .select({ id: modules.id, track: modules.programId, title: modules.title })
      .from(modules)
      // Lessons not published yet are no learner's to have watched (docs/data.md, "Drafts").
      .where(and(among(modules.programId), eq(modules.draft, false)))
      .orderBy(asc(modules.position)),
    db
      .select({
        track: quizzes.programId,
        title: quizzes.title,
        questionCount: sql<number>`jsonb_array_length(${quizzes.questions})`.mapWith(Number),
        passMark: quizzes.passMark,
      })
      .from(quizzes)
      .where(among(quizzes.programId)),
  ]);
  return programRows.map(({ track, title }) => {
    const quiz = quizRows.find((row) => row.track === track && row.questionCount > 0) ?? null;
    return { track, title, modules: moduleRows.filter((row) => row.track === track), quiz };
  });
}

/**
 * Edit Progress as it opens (docs/product.md, "Admin console"): per program, each video watched or
 * not, and the quiz by learning's pass rule.
 */
export async function getUserProgress(db: Db, userId: string): Promise<UserProgress["tracks"]> {
  await requireUserExists(db, userId);
  const contents = await programContents(db);
  const entries = await db
    .select({ track: userProgress.programId, data: userProgress.data })
    .from(userProgress)
    .where(eq(userProgress.userId, userId));
  return Promise.all(
    contents.map(async ({ track, title, modules: videos, quiz }) => {
      const moduleIds = videos.map((video) => video.id);
      const watched = watchedModuleIds(entries.find((entry) => entry.track === track)?.data, moduleIds);
      const attempts = quiz ? await storedAttempts(db, userId, track) : [];
      const completion = completionOf({ moduleIds, watched, quiz, attempts });
      return {
        track,
        title,
        modules: videos.map(({ id, title }) => ({ id, title, watched: watched.includes(id) })),
        quiz: quiz && {
          title: quiz.title,
          questions: quiz.questionCount,
          correct: bestScore(scoredAttempts(quiz, attempts)),
          passMark: completion.passMark,
          passed: completion.quizPassed,
        },
      };
    }),
  );
}

/**
 * Sets which videos of each given program the learner has watched: only that program's videos,
 * each true or false (the contract checked the shape). All programs or none, with one audit entry.
 * Learning writes the entries (replaceProgress), as it writes every progress entry.
 */
export async function setUserProgress(
  db: Db,
  admin: Admin,
  input: { userId: string; progress: ProgressUpdate },
): Promise<void> {
  await db.transaction(async (tx) => {
    await requireUserExists(tx, input.userId);
    const given = Object.entries(input.progress);
    if (given.length === 0) return;
    const contents = await programContents(tx, given.map(([track]) => track));
    const entries = given.map(([track, marks]) => {
      const program = contents.find((content) => content.track === track);
      if (!program) throw new HttpError(400, "VALIDATION", ADMIN_MESSAGES.progressNoProgram(track));
      const ids = new Set(program.modules.map((video) => video.id));
      if (Object.keys(marks).some((id) => !ids.has(id))) {
        throw new HttpError(400, "VALIDATION", ADMIN_MESSAGES.progressModulesChanged(program.title));
      }
      // In the program's order, so the stored entry reads as the curriculum does.
      const watched = program.modules.filter((video) => marks[video.id] === true);
      return { track: program.track, data: Object.fromEntries(watched.map((video) => [video.id, true as const])) };
    });

    const changes = await replaceProgress(tx, input.userId, entries);
    await tx.insert(auditLog).values({
      actorId: admin.id,
      subjectUserId: input.userId,
      action: "progress.edited",
      reason: "admin",
      changes: Object.fromEntries(changes.map(({ track, from, to }) => [track, { from, to }])),
    });
    // Marking the last video watched can complete a program: its certificate is then owed.
    for (const { track } of changes) await queueOwedCertificates(tx, { track, userId: input.userId });
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
