// The dashboard's figures (docs/admin.md, "Dashboard"). Each section is one SQL statement that
// answers with aggregates only: no table, nor a page of one, comes to the server. The statements
// run side by side on the pool. Months and days are the academy's (Africa/Accra, UTC all year).
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  DASHBOARD_CAPTIONS,
  DASHBOARD_MESSAGES,
  DEFAULT_PERIOD_DAYS,
  EXPIRY_DAYS,
  FUNNEL_LABELS,
  FUNNEL_STEPS,
  RENEWAL_DAYS,
  REVENUE_MONTHS,
  STOP_LESSONS,
  WAITLIST_COHORTS,
  addDays,
  periodError,
  type Dashboard,
  type DashboardQuery,
  type RevenueMonth,
} from "../../../shared/contracts/admin-dashboard.ts";
import { PAID_PLANS } from "../../../shared/plans.ts";
import { sectionTitle } from "../../../shared/section-title.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../plugins/errors.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The funnel's days, both included: the query's, or the last 30 days. 400 for a reversed period. */
export function dashboardPeriod(query: DashboardQuery, now: Date): { from: string; to: string } {
  const today = now.toISOString().slice(0, 10);
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, 1 - DEFAULT_PERIOD_DAYS);
  const error = periodError(from, to);
  if (error) throw new HttpError(400, "PERIOD_INVALID", error);
  return { from, to };
}

const instant = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const dayStart = (day: string) => sql`${`${day}T00:00:00Z`}::timestamptz`;

/**
 * The rows of a statement, checked: both drivers (node-postgres, PGlite) answer with `rows`. Each
 * runs in a read-only transaction of its own, without JIT compilation (at 100,000 users the
 * planner's estimates cross jit_above_cost, and compiling cost more than some whole statements: 30
 * ms and more) and without parallel workers (the statements already run side by side; workers
 * only queued for the same cores): measured, docs/admin.md, "Dashboard".
 */
async function rowsOf<T extends z.ZodType>(db: Db, schema: T, statement: SQL): Promise<z.infer<T>[]> {
  const result = await db.transaction(
    async (tx) => {
      await tx.execute(sql`select set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`);
      return tx.execute(statement);
    },
    { accessMode: "read only" },
  );
  return z.object({ rows: z.array(schema) }).parse(result).rows;
}

const number = z.coerce.number();

/** Administrators are not learners: no learner figure counts them. */
const admins = sql`(select id from users where subscription_plan = 'admin')`;

/** "2026-03" for the month `offset` months from the one `now` is in (UTC). */
function monthOf(now: Date, offset: number): { key: string; start: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  return { key: start.toISOString().slice(0, 7), start };
}

// ---- Revenue ------------------------------------------------------------------------------------

const revenueRow = z.object({ month: z.string(), received: number, refunded: number, net_first_days: number });

/**
 * Money received by month: payments that succeeded (refunded ones too: the money came) by the
 * month they were paid, less processed refunds by the month they were processed; each month's net
 * of its first days too, for this month against the same days of the last. Each month is summed
 * on its own range of payments_paid_idx, from the index alone, and of refunds_processed_idx: a
 * third of the time of grouping 200,000 payments by month (measured, docs/admin.md). The months'
 * bounds are computed here, in UTC, whatever the session's time zone.
 */
async function revenue(db: Db, now: Date): Promise<Dashboard["revenue"]> {
  const thisMonth = monthOf(now, 0);
  const lastMonth = monthOf(now, -1);
  const days = now.getUTCDate();
  const bounds = sql.join(
    Array.from({ length: REVENUE_MONTHS }, (_, index) => {
      const { key, start } = monthOf(now, index + 1 - REVENUE_MONTHS);
      const end = monthOf(now, index + 2 - REVENUE_MONTHS).start;
      // Days 1 to `days` of the month (past its end for a short month).
      const firstDaysEnd = new Date(start.getTime() + days * DAY_MS);
      return sql`(${key}, ${instant(start)}, ${instant(end)}, ${instant(firstDaysEnd)})`;
    }),
    sql`, `,
  );
  const rows = await rowsOf(
    db,
    revenueRow,
    sql`select m.month, received.total::float8 as received, refunded.total::float8 as refunded,
        (received.first_days - refunded.first_days)::float8 as net_first_days
      from (values ${bounds}) as m (month, starts, ends, first_days_end)
      cross join lateral (
        select coalesce(sum(amount_minor), 0) as total,
          coalesce(sum(amount_minor) filter (where paid_at < m.first_days_end), 0) as first_days
        from payments
        where paid_at >= m.starts and paid_at < m.ends and paid_at <= ${instant(now)}
          and status in ('success', 'refunded') and currency = 'GHS'
      ) received
      cross join lateral (
        select coalesce(sum(amount_minor), 0) as total,
          coalesce(sum(amount_minor) filter (where processed_at < m.first_days_end), 0) as first_days
        from refunds
        where status = 'processed' and processed_at >= m.starts and processed_at < m.ends
          and processed_at <= ${instant(now)}
      ) refunded`,
  );
  const found = new Map(rows.map((row) => [row.month, row]));
  const months: RevenueMonth[] = Array.from({ length: REVENUE_MONTHS }, (_, index) => {
    const key = monthOf(now, index + 1 - REVENUE_MONTHS).key;
    const row = found.get(key);
    const receivedMinor = row?.received ?? 0;
    const refundedMinor = row?.refunded ?? 0;
    return { month: key, receivedMinor, refundedMinor, netMinor: receivedMinor - refundedMinor };
  });
  return {
    caption: DASHBOARD_CAPTIONS.revenue,
    months,
    monthToDate: {
      caption: DASHBOARD_CAPTIONS.monthToDate(days, thisMonth.key, lastMonth.key),
      thisMonthMinor: months.at(-1)?.netMinor ?? 0,
      lastMonthSameDaysMinor: found.get(lastMonth.key)?.net_first_days ?? 0,
      lastMonthMinor: months.at(-2)?.netMinor ?? 0,
      days,
    },
  };
}

// ---- Paid learners, renewals and expiries -------------------------------------------------------

const planRow = z.object({ plan: z.enum(PAID_PLANS), learners: number });

/** Learners on a paid plan today: active, and the paid time not over (users_subscription_end_idx). */
async function learners(db: Db, now: Date): Promise<Dashboard["learners"]> {
  const rows = await rowsOf(
    db,
    planRow,
    sql`select subscription_plan as plan, count(*)::int as learners from users
      where subscription_status = 'active' and subscription_end > ${instant(now)}
        and subscription_plan in ('intermediate', 'advanced')
      group by subscription_plan`,
  );
  const byPlan = PAID_PLANS.map((plan) => ({ plan, learners: rows.find((row) => row.plan === plan)?.learners ?? 0 }));
  return { caption: DASHBOARD_CAPTIONS.learners, byPlan, total: byPlan.reduce((sum, row) => sum + row.learners, 0) };
}

const renewalRow = z.object({ due: number, renewed: number, expired: number });

/** An ISO date the app wrote in an audit entry's JSON, or null for anything else (never an error). */
const auditInstant = (text: SQL) => sql`case when ${text} ~ '^\\d{4}-\\d{2}-\\d{2}T' then (${text})::timestamptz end`;

/**
 * Renewals and expiries (docs/admin.md, "Dashboard"). Due: a learner whose paid time (the queued
 * plan's included) ends in the next 7 days, or who paid a month in the last 7 days while their
 * paid time was to end in the next 7 (the renewal window, docs/subscriptions.md, opens 7 days
 * before the end: so their entry is at most 7 days old). Renewed: the latter. Expired: a
 * "subscription.expired" entry in the last 30 days for a learner who holds no paid plan today.
 */
async function renewals(db: Db, now: Date): Promise<Dashboard["renewals"]> {
  const windowEnd = new Date(now.getTime() + RENEWAL_DAYS * DAY_MS);
  const paidEnd = sql`coalesce(queued_end, subscription_end)`;
  const previousEnd = auditInstant(sql`a.changes -> 'from' ->> 'end'`);
  const [row] = await rowsOf(
    db,
    renewalRow,
    sql`with still_due as (
        select id from users
        where subscription_status = 'active' and subscription_plan in ('intermediate', 'advanced')
          and subscription_end <= ${instant(windowEnd)}
          and ${paidEnd} > ${instant(now)} and ${paidEnd} <= ${instant(windowEnd)}
      ),
      renewed as (
        select distinct a.subject_user_id as id from audit_log a
        where a.action = 'payment.credited'
          and a.created_at > ${instant(new Date(now.getTime() - RENEWAL_DAYS * DAY_MS))} and a.created_at <= ${instant(now)}
          and a.subject_user_id is not null and a.subject_user_id not in ${admins}
          and ${previousEnd} > ${instant(now)} and ${previousEnd} <= ${instant(windowEnd)}
      ),
      expired as (
        select distinct a.subject_user_id as id from audit_log a
        join users u on u.id = a.subject_user_id
        where a.action = 'subscription.expired'
          and a.created_at > ${instant(new Date(now.getTime() - EXPIRY_DAYS * DAY_MS))} and a.created_at <= ${instant(now)}
          and u.subscription_plan is distinct from 'admin'
          and not (u.subscription_status = 'active' and u.subscription_plan in ('intermediate', 'advanced')
            and u.subscription_end > ${instant(now)})
      )
      select
        (select count(*) from (select id from still_due union select id from renewed) due)::int as due,
        (select count(*) from renewed)::int as renewed,
        (select count(*) from expired)::int as expired`,
  );
  return {
    caption: DASHBOARD_CAPTIONS.renewals,
    due: row?.due ?? 0,
    renewed: row?.renewed ?? 0,
    expiriesCaption: DASHBOARD_CAPTIONS.expiries,
    expiredNotRenewed: row?.expired ?? 0,
  };
}

// ---- Funnel -------------------------------------------------------------------------------------

const funnelRow = z.object({
  registered: number,
  verified: number,
  started_beginner: number,
  finished_beginner: number,
  paid: number,
});

/**
 * The learners who registered in the period (users_created_idx) and how far they went, each step
 * counted among those who made the step before: verified their email, watched a first Beginner
 * video, hold a valid Beginner certificate, made a payment that succeeded. How far each went is
 * on their own row, kept by the database as they move (the funnel_ columns, migration 0015): the
 * funnel of everyone is one pass over the users, not a join of each to their progress,
 * certificates and payments (docs/admin.md, "Dashboard").
 */
async function funnel(db: Db, period: { from: string; to: string }): Promise<Dashboard["funnel"]> {
  const [row] = await rowsOf(
    db,
    funnelRow,
    sql`select count(*)::int as registered,
        count(*) filter (where email_verified)::int as verified,
        count(*) filter (where email_verified and funnel_started_beginner)::int as started_beginner,
        count(*) filter (where email_verified and funnel_started_beginner and funnel_finished_beginner)::int as finished_beginner,
        count(*) filter (where email_verified and funnel_started_beginner and funnel_finished_beginner and funnel_paid)::int as paid
      from users
      where created_at >= ${dayStart(period.from)} and created_at < ${dayStart(addDays(period.to, 1))}
        and subscription_plan is distinct from 'admin'`,
  );
  const counts = {
    registered: row?.registered ?? 0,
    verified: row?.verified ?? 0,
    startedBeginner: row?.started_beginner ?? 0,
    finishedBeginner: row?.finished_beginner ?? 0,
    paid: row?.paid ?? 0,
  };
  let before: number | null = null;
  const steps = FUNNEL_STEPS.map((step) => {
    const learners = counts[step];
    const conversion = before === null || before === 0 ? null : learners / before;
    before = learners;
    return { step, label: FUNNEL_LABELS[step], learners, conversion };
  });
  return { caption: DASHBOARD_CAPTIONS.funnel(period.from, period.to), from: period.from, to: period.to, steps };
}

// ---- Completion and where learners stop ---------------------------------------------------------

const completionRow = z.object({
  program_id: z.string(),
  title: z.string(),
  started: number,
  finished: number,
  median_days: z.nullable(number),
});

/**
 * Per program: learners who started it, those holding a valid certificate, and the median days
 * between the two for the finishers whose start is known and came first: the start each
 * certificate took from the holder's progress when it was issued (certificates.started_at,
 * migration 0015), so the medians read the certificates alone. Started is counted on
 * user_progress_started_idx alone (an index-only scan), less the few administrators' entries,
 * which are found by their keys.
 */
async function completion(db: Db): Promise<Dashboard["completion"]> {
  const rows = await rowsOf(
    db,
    completionRow,
    sql`with finished as (
        select c.program_id, count(*) as learners,
          percentile_cont(0.5) within group (order by extract(epoch from c.issued_at - c.started_at) / 86400)
            filter (where c.started_at <= c.issued_at) as days
        from certificates c
        where c.revoked_at is null and c.user_id is not null and c.user_id not in ${admins}
        group by c.program_id
      )
      select p.id as program_id, p.title,
        ((select count(*) from user_progress up where up.program_id = p.id and up.started_at is not null)
          - (select count(*) from user_progress up
            where up.program_id = p.id and up.started_at is not null and up.user_id in ${admins}))::int as started,
        coalesce(f.learners, 0)::int as finished,
        f.days::float8 as median_days
      from programs p left join finished f on f.program_id = p.id
      order by p.display_order, p.id`,
  );
  return {
    caption: DASHBOARD_CAPTIONS.completion,
    programs: rows.map((row) => ({
      programId: row.program_id,
      title: row.title,
      started: row.started,
      finished: row.finished,
      medianDaysToFinish: row.median_days === null ? null : Math.round(row.median_days * 10) / 10,
    })),
  };
}

const stopRow = z.object({
  program_id: z.string(),
  program_title: z.string(),
  number: z.nullable(number),
  title: z.nullable(z.string()),
  learners: number,
});

/**
 * For each learner who started a program and holds no valid certificate of it: the first video of
 * the program they have not watched (its number as learners see it), or none when they watched
 * every one (they stand at the quiz); the most common, by how many stand there. The learners are
 * first counted by what they watched, so the first unwatched video is looked for once per
 * distinct set, not once per learner (a fifth less work at 100,000 learners, measured).
 */
async function stops(db: Db): Promise<Dashboard["stops"]> {
  const rows = await rowsOf(
    db,
    stopRow,
    sql`with lessons as (
        select id::text as id, program_id, title, row_number() over (partition by program_id order by position) as number
        from modules where not draft
      ),
      unfinished as (
        select up.program_id, up.data, count(*) as learners
        from user_progress up
        where up.started_at is not null and up.user_id not in ${admins}
          and not exists (select 1 from certificates c
            where c.user_id = up.user_id and c.program_id = up.program_id and c.revoked_at is null)
        group by up.program_id, up.data
      ),
      stopped as (
        select u.program_id, next.number, next.title, u.learners
        from unfinished u
        left join lateral (
          select l.number, l.title from lessons l
          where l.program_id = u.program_id and not (u.data ? l.id)
          order by l.number limit 1
        ) next on true
      )
      select s.program_id, p.title as program_title, s.number::int as number, s.title, sum(s.learners)::int as learners
      from stopped s join programs p on p.id = s.program_id
      group by s.program_id, p.title, p.display_order, s.number, s.title
      order by learners desc, p.display_order, s.number nulls last
      limit ${STOP_LESSONS}`,
  );
  return {
    caption: DASHBOARD_CAPTIONS.stops,
    lessons: rows.map((row) => ({
      programId: row.program_id,
      programTitle: row.program_title,
      lesson: row.number === null || row.title === null ? DASHBOARD_MESSAGES.quizStop : sectionTitle(row.number, row.title),
      learners: row.learners,
    })),
  };
}

// ---- Waitlist -----------------------------------------------------------------------------------

const waitlistRow = z.object({
  cohort: z.string(),
  starts_on: z.string(),
  track: z.enum(PAID_PLANS),
  paid: number,
  admitted: number,
});

/** Paid places by cohort and track, the latest cohorts first (waitlist_cohort_idx). */
async function waitlistPlaces(db: Db): Promise<Dashboard["waitlist"]> {
  const rows = await rowsOf(
    db,
    waitlistRow,
    sql`with latest as (
        select name, starts_on from cohorts
        where exists (select 1 from waitlist w where w.cohort = cohorts.name)
        order by starts_on desc, name desc limit ${WAITLIST_COHORTS}
      )
      select l.name as cohort, to_char(l.starts_on, 'YYYY-MM-DD') as starts_on, w.plan as track,
        count(*)::int as paid, count(*) filter (where w.admitted)::int as admitted
      from latest l join waitlist w on w.cohort = l.name
      group by l.name, l.starts_on, w.plan
      order by l.starts_on desc, l.name desc`,
  );
  const cohorts: Dashboard["waitlist"]["cohorts"] = [];
  for (const row of rows) {
    let cohort = cohorts.at(-1);
    if (cohort?.cohort !== row.cohort) {
      cohort = { cohort: row.cohort, startsOn: row.starts_on, tracks: PAID_PLANS.map((track) => ({ track, paid: 0, admitted: 0 })) };
      cohorts.push(cohort);
    }
    const track = cohort.tracks.find((entry) => entry.track === row.track);
    if (track) Object.assign(track, { paid: row.paid, admitted: row.admitted });
  }
  return { caption: DASHBOARD_CAPTIONS.waitlist, cohorts };
}

/** Every section of the dashboard, its statements run at the same time. */
export async function adminDashboard(db: Db, query: DashboardQuery, now: Date): Promise<Dashboard> {
  const period = dashboardPeriod(query, now);
  const [revenueSection, learnersSection, renewalsSection, funnelSection, completionSection, stopsSection, waitlistSection] =
    await Promise.all([revenue(db, now), learners(db, now), renewals(db, now), funnel(db, period), completion(db), stops(db), waitlistPlaces(db)]);
  return {
    computedAt: now.toISOString(),
    revenue: revenueSection,
    learners: learnersSection,
    renewals: renewalsSection,
    funnel: funnelSection,
    completion: completionSection,
    stops: stopsSection,
    waitlist: waitlistSection,
  };
}
