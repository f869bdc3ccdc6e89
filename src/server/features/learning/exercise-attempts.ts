// Chart exercises as a learner does them (docs/trading.md, "Exercises"): the bars up to the decision
// point, steps forward, one scored answer per attempt, new attempts after the wait, and the lesson
// done once an attempt passes. The bars after the decision point stay here until the attempt is
// scored: no request answers them before.
import Big from "big.js";
import { z } from "zod";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import {
  EXERCISE_AFTER_EXIT_BARS,
  EXERCISE_HISTORY_BARS,
  EXERCISE_MESSAGES,
  type ExerciseAnswer,
  type ExerciseSettings,
  type ExerciseSubmission,
  type LearnerExercise,
} from "../../../shared/contracts/exercises.ts";
import { type FieldErrors, pipValuePerLotUsd } from "../../../shared/trading/calculators.ts";
import { instrumentOf, type InstrumentSymbol } from "../../../shared/trading/instruments.ts";
import { scoreLevel } from "../../../shared/trading/mark-level.ts";
import { scoreReplay } from "../../../shared/trading/replay.ts";
import type { Database, Db } from "../../db/client.ts";
import type { PerUserCache } from "../../db/user-changes.ts";
import { exerciseAttempts, priceBars, priceDataSets } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { Catalog, CatalogTrack } from "../catalog/catalog.seam.ts";
import { issueOnCompletion } from "./certificates.ts";
import { completionFrom, readStanding, type Standing } from "./completion.ts";
import { AttemptTooSoon, openLesson, type Learner } from "./learning.service.ts";
import { watchedModuleIds, watchedStatement } from "./progress.ts";
import { createBatcher } from "../../db/batcher.ts";

type DataSet = { name: string; instrument: string; pipSize: string; timeframe: string; illustrative: boolean; barCount: number };
type Attempt = typeof exerciseAttempts.$inferSelect;

/** The exercise a lesson is, for a learner who may open the lesson; 404 for a lesson that is not one. */
function openExercise(catalog: Catalog, learner: Learner, trackId: string, moduleId: string) {
  const { track, lesson } = openLesson(catalog, learner, trackId, moduleId);
  if (!lesson.exercise) throw new HttpError(404, "NOT_AN_EXERCISE", EXERCISE_MESSAGES.notAnExercise);
  return { track, exercise: lesson.exercise };
}

type KeptBar = { time: Date; open: string; high: string; low: string; close: string };
/** The bars as the server scores them (decimal strings), and each as a line of the chart's text, made once. */
type KeptSet = DataSet & { bars: readonly KeptBar[]; lines: readonly string[] };

/**
 * The price data sets exercises replay, kept in this process: a set never changes once uploaded,
 * and one in use is never removed (modules.exercise_data_set_id), so its bars are read from the
 * database once, not on every step and answer (docs/performance.md, "Trading"). The few most
 * recently used are kept: 20,000 bars are about 4 MB.
 */
export class PriceSets {
  readonly #kept = new Map<string, Promise<KeptSet>>();
  constructor(
    private readonly db: Db,
    private readonly max = 4,
  ) {}

  read(id: string): Promise<KeptSet> {
    const kept = this.#kept.get(id);
    if (kept) {
      // Most recently used last: the first is the one to forget.
      this.#kept.delete(id);
      this.#kept.set(id, kept);
      return kept;
    }
    const loading = readSet(this.db, id);
    loading.catch(() => this.#kept.delete(id));
    this.#kept.set(id, loading);
    for (const oldest of this.#kept.keys()) {
      if (this.#kept.size <= this.max) break;
      this.#kept.delete(oldest);
    }
    return loading;
  }
}

async function readSet(db: Db, id: string): Promise<KeptSet> {
  const [[set], bars] = await Promise.all([
    db
      .select({
        name: priceDataSets.name,
        instrument: priceDataSets.instrument,
        pipSize: priceDataSets.pipSize,
        timeframe: priceDataSets.timeframe,
        illustrative: priceDataSets.illustrative,
        barCount: priceDataSets.barCount,
      })
      .from(priceDataSets)
      .where(eq(priceDataSets.id, id)),
    db
      .select({ time: priceBars.time, open: priceBars.open, high: priceBars.high, low: priceBars.low, close: priceBars.close })
      .from(priceBars)
      .where(eq(priceBars.dataSetId, id))
      .orderBy(asc(priceBars.position)),
  ]);
  // modules.exercise_data_set_id restricts deletion: a set in use is always there, whole.
  if (!set || bars.length !== set.barCount) throw new Error(`the data set ${id} of an exercise is missing`);
  const lines = bars.map((bar) => `${bar.time.getTime() / 1000},${bar.open},${bar.high},${bar.low},${bar.close}`);
  return { ...set, bars, lines };
}

/** The bars from one place in the set to another, both included, as the chart's text (chartBarsOf reads it). */
function chartBars(set: KeptSet, from: number, through: number): string {
  return set.lines.slice(from, through + 1).join("\n");
}

/** The current attempt: the last one, or the first before it is written (by a step or an answer). */
function currentOf(attempts: readonly Attempt[], exercise: ExerciseSettings) {
  const last = attempts.at(-1);
  return last ?? { number: 1, revealed: exercise.startBar, answer: null, passed: null, scoredAt: null, startedAt: null };
}

function nextAttemptAt(attempts: readonly Attempt[], exercise: ExerciseSettings): Date | null {
  const current = attempts.at(-1);
  if (!current?.scoredAt || attempts.some((attempt) => attempt.passed)) return null;
  return new Date(current.scoredAt.getTime() + exercise.retryWaitMinutes * 60_000);
}

/** The exercise as the learner sees it: the bars to the decision point, and past it once scored. */
function exerciseView(exercise: ExerciseSettings, set: KeptSet, attempts: readonly Attempt[]): LearnerExercise {
  const current = currentOf(attempts, exercise);
  const answer = current.answer;
  const from = Math.max(0, current.revealed - EXERCISE_HISTORY_BARS);
  const through =
    answer?.kind === "replay" ? Math.min(set.barCount - 1, current.revealed + answer.result.barsHeld + EXERCISE_AFTER_EXIT_BARS) : current.revealed;
  const next = nextAttemptAt(attempts, exercise);
  return {
    kind: exercise.kind,
    dataSet: { name: set.name, instrument: set.instrument, pipSize: set.pipSize, timeframe: set.timeframe, illustrative: set.illustrative },
    balance: { amount: exercise.balance, currency: exercise.currency },
    passR: exercise.passR,
    maxRiskPercent: exercise.maxRiskPercent,
    tolerancePips: exercise.tolerancePips,
    retryWaitMinutes: exercise.retryWaitMinutes,
    bars: chartBars(set, from, through),
    decision: current.revealed - from,
    barsLeft: current.revealed < set.barCount - 1,
    attempt: current.number,
    attempts: attempts.map((attempt) => ({
      number: attempt.number,
      startedAt: attempt.startedAt.toISOString(),
      scoredAt: attempt.scoredAt?.toISOString() ?? null,
      passed: attempt.passed === true,
    })),
    answer,
    explanation: answer ? exercise.explanation : null,
    passed: attempts.some((attempt) => attempt.passed),
    nextAttemptAt: next?.toISOString() ?? null,
  };
}

/** What every exercise request works with: the database, the catalogue, the learner, the kept sets. */
export type ExerciseDeps = { db: Db; catalog: Catalog; learner: Learner; sets: PriceSets; attemptsOf: AttemptsReader };

/** The exercise of a lesson the learner may open, its set and the learner's attempts at it. */
async function standing({ catalog, learner, sets, attemptsOf }: ExerciseDeps, trackId: string, moduleId: string) {
  const { track, exercise } = openExercise(catalog, learner, trackId, moduleId);
  const [set, attempts] = await Promise.all([sets.read(exercise.dataSetId), attemptsOf({ userId: learner.id, moduleId })]);
  return { track, exercise, set, attempts };
}

/** GET .../exercise */
export async function getExercise(deps: ExerciseDeps, trackId: string, moduleId: string): Promise<LearnerExercise> {
  const { exercise, set, attempts } = await standing(deps, trackId, moduleId);
  return exerciseView(exercise, set, attempts);
}

/**
 * GET .../exercise/bars?through=N: the bars up to a place in the set, for a learner who has seen
 * it: at most the decision bar until the attempt is scored, past it after (a replay's outcome).
 */
export async function getExerciseBars(deps: ExerciseDeps, trackId: string, moduleId: string, through: number) {
  const { exercise, set, attempts } = await standing(deps, trackId, moduleId);
  const current = currentOf(attempts, exercise);
  const seen = current.answer?.kind === "replay" ? set.barCount - 1 : current.revealed;
  if (through > seen) throw new HttpError(403, "FUTURE_BARS", EXERCISE_MESSAGES.futureBars);
  return { bars: chartBars(set, Math.max(0, through - EXERCISE_HISTORY_BARS), through) };
}

/** The attempt named, refused when it is not the current one or is already scored. */
function checkAttempt(current: { number: number; answer: ExerciseAnswer | null }, named: number) {
  if (named !== current.number) throw new HttpError(409, "STALE_ATTEMPT", EXERCISE_MESSAGES.staleAttempt);
  if (current.answer) throw new HttpError(409, "ALREADY_SCORED", EXERCISE_MESSAGES.alreadyScored);
}

/** The attempts with one of them as now written. */
function withAttempt(attempts: readonly Attempt[], written: Attempt): Attempt[] {
  return [...attempts.filter((attempt) => attempt.number !== written.number), written].sort((a, b) => a.number - b.number);
}

/** The current attempt, unscored, of the learner's at this lesson: the one a step or an answer may change. */
function currentAttemptWhere(userId: string, moduleId: string, number: number) {
  return and(
    eq(exerciseAttempts.userId, userId),
    eq(exerciseAttempts.moduleId, moduleId),
    eq(exerciseAttempts.number, number),
    isNull(exerciseAttempts.scoredAt),
    sql`${exerciseAttempts.number} = (select max(number) from exercise_attempts where user_id = ${userId} and module_id = ${moduleId})`,
  );
}

/** POST .../exercise/step: `count` more bars of a replay, never past the set's last. */
export async function stepExercise(deps: ExerciseDeps, trackId: string, moduleId: string, body: { attempt: number; count: number }): Promise<LearnerExercise> {
  const { db, learner } = deps;
  const { exercise, set, attempts } = await standing(deps, trackId, moduleId);
  if (exercise.kind !== "replay") throw new HttpError(409, "NOT_A_REPLAY", EXERCISE_MESSAGES.notAReplay);
  const last = set.barCount - 1;
  checkAttempt(currentOf(attempts, exercise), body.attempt);
  // One statement decides: the first step writes the first attempt's row; a later one moves the
  // current attempt on, only while unscored and with a bar left.
  const [moved] = await db
    .insert(exerciseAttempts)
    .values({ userId: learner.id, moduleId, number: body.attempt, revealed: Math.min(exercise.startBar + body.count, last) })
    .onConflictDoUpdate({
      target: [exerciseAttempts.userId, exerciseAttempts.moduleId, exerciseAttempts.number],
      set: { revealed: sql`least(${exerciseAttempts.revealed} + ${body.count}, ${last})` },
      setWhere: and(currentAttemptWhere(learner.id, moduleId, body.attempt), sql`${exerciseAttempts.revealed} < ${last}`),
    })
    .returning();
  if (!moved) {
    checkAttempt(currentOf(await deps.attemptsOf({ userId: learner.id, moduleId }), exercise), body.attempt);
    throw new HttpError(409, "NO_BARS_LEFT", EXERCISE_MESSAGES.noBarsLeft);
  }
  return exerciseView(exercise, set, withAttempt(attempts, moved));
}

export type ExerciseSubmitDeps = ExerciseDeps & {
  standingCache: PerUserCache<Standing>;
  scores: ScoreWriter;
  /** Cedis per dollar, or null when the academy has no rate now. */
  ghsPerUsd: () => Promise<Big | null>;
};

/**
 * POST .../exercise/submissions: the current attempt's one scored answer. A field that makes no
 * sense is answered `ok: false`, and nothing is kept; a scored answer is written once (`scored_at
 * is null` guards it), and a pass marks the lesson done in the same statement (createScoreWriter).
 */
export async function submitExercise(
  deps: ExerciseSubmitDeps,
  trackId: string,
  moduleId: string,
  body: ExerciseSubmission,
): Promise<{ ok: true; exercise: LearnerExercise; issued: boolean } | { ok: false; errors: FieldErrors }> {
  const { learner } = deps;
  // The rate is read beside the learner's attempts: a replay's money is in cedis too.
  const rate = body.kind === "replay" ? deps.ghsPerUsd() : Promise.resolve(null);
  rate.catch(() => undefined); // met where it is awaited
  const { track, exercise, set, attempts } = await standing(deps, trackId, moduleId);
  if (body.kind !== exercise.kind) throw new HttpError(400, "VALIDATION", EXERCISE_MESSAGES.wrongKind(exercise.kind));
  const current = currentOf(attempts, exercise);
  checkAttempt(current, body.attempt);

  const scored =
    body.kind === "replay" ? await scoredReplay(rate, exercise, set, current.revealed, body) : scoredLevel(exercise, set, body.price);
  if (!scored.ok) return scored;

  const score = { userId: learner.id, moduleId, track: track.program.id, number: body.attempt, revealed: current.revealed, answer: scored.answer };
  const written = await deps.scores(score);
  if (!written.written) throw new HttpError(409, "ALREADY_SCORED", EXERCISE_MESSAGES.alreadyScored);
  const attempt: Attempt = { ...score, passed: scored.answer.passed, startedAt: new Date(written.startedMs), scoredAt: new Date(written.scoredMs) };
  const issued = written.entry === null ? false : await completeOnPass(deps, track, moduleId, written.entry);
  return { ok: true, exercise: exerciseView(exercise, set, withAttempt(attempts, attempt)), issued };
}

/** One trade's or mark's score to write (the answer worked out already), and what came of it. */
export type ScoreToWrite = { userId: string; moduleId: string; track: string; number: number; revealed: number; answer: ExerciseAnswer };
/** Not written when the attempt was not the learner's current one, unscored, at that bar any more. */
type WrittenScore = { written: true; startedMs: number; scoredMs: number; entry: unknown } | { written: false };
export type ScoreWriter = (score: ScoreToWrite) => Promise<WrittenScore>;

const writtenScores = z.object({
  rows: z.array(
    z.object({
      ordinal: z.coerce.number(),
      started_ms: z.nullable(z.coerce.number()),
      scored_ms: z.nullable(z.coerce.number()),
      entry: z.unknown(),
    }),
  ),
});

/**
 * Scores written together (docs/performance.md, "Scoring a replay"), as quiz answers are
 * (quiz-answers.ts): the scores waiting on this instance go in one statement, which writes each
 * attempt's answer and, for those that passed, marks their lessons done, together or not at all.
 * An answer is written into the first attempt's row it makes, or into the current attempt's, only
 * while unscored and at the bar it was decided at: a step or another answer of the attempt that
 * came first leaves it unwritten. Two answers of one attempt in one batch fail it, and each is
 * then written alone (createBatcher): the first is scored, the second is not.
 */
export function createScoreWriter(database: Pick<Database, "db" | "kind">): ScoreWriter {
  const { db } = database;
  return createBatcher<ScoreToWrite, WrittenScore>(
    async (scores) => {
      const input = JSON.stringify(
        scores.map((score, index) => ({
          ordinal: index + 1,
          user_id: score.userId,
          module_id: score.moduleId,
          track: score.track,
          number: score.number,
          revealed: score.revealed,
          answer: score.answer,
          passed: score.answer.passed,
        })),
      );
      const passes = sql`select s.user_id, i.track, jsonb_object_agg(s.module_id::text, true)
        from scored s join input i using (user_id, module_id, number) where s.passed group by s.user_id, i.track`;
      const result = await db.execute(sql`with input as (
          select * from jsonb_to_recordset(${input}::jsonb)
            as i(ordinal int, user_id text, module_id uuid, track text, number int, revealed int, answer jsonb, passed boolean)
        ),
        scored as (
          insert into ${exerciseAttempts} as a (user_id, module_id, number, revealed, answer, passed, scored_at)
          select user_id, module_id, number, revealed, answer, passed, now() from input
          on conflict (user_id, module_id, number) do update
            set answer = excluded.answer, passed = excluded.passed, scored_at = excluded.scored_at
            where a.scored_at is null and a.revealed = excluded.revealed
              and a.number = (select max(m.number) from ${exerciseAttempts} m where m.user_id = a.user_id and m.module_id = a.module_id)
          returning a.user_id, a.module_id, a.number, a.started_at, a.scored_at, a.passed
        ),
        done as (${watchedStatement(passes)})
        select i.ordinal, extract(epoch from s.started_at) * 1000 as started_ms, extract(epoch from s.scored_at) * 1000 as scored_ms,
          case when s.passed then d.data end as entry
        from input i
        left join scored s using (user_id, module_id, number)
        left join done d on d.user_id = i.user_id and d.program_id = i.track`);
      const byOrdinal = new Map(writtenScores.parse(result).rows.map((row) => [row.ordinal, row]));
      return scores.map((_, index) => {
        const row = byOrdinal.get(index + 1);
        if (!row) return new Error("scoring answered nothing for a score");
        if (row.started_ms === null || row.scored_ms === null) return { written: false };
        return { written: true, startedMs: row.started_ms, scoredMs: row.scored_ms, entry: row.entry ?? null };
      });
    },
    { maxBatch: 50, slots: 2, gather: database.kind === "postgres" ? "running" : "turn" },
  );
}

/** The learner's attempts at lessons, read together as the scores are written (a batch per statement). */
export type AttemptsReader = (key: { userId: string; moduleId: string }) => Promise<Attempt[]>;

export function createAttemptsReader(database: Pick<Database, "db" | "kind">): AttemptsReader {
  const { db } = database;
  // Reads, gathered as writes are: createBatcher's schedule serves any statement many callers share.
  return createBatcher<{ userId: string; moduleId: string }, Attempt[]>(
    async (keys) => {
      const pairs = JSON.stringify(keys.map(({ userId, moduleId }) => ({ user_id: userId, module_id: moduleId })));
      const rows = await db
        .select()
        .from(exerciseAttempts)
        .where(
          sql`(${exerciseAttempts.userId}, ${exerciseAttempts.moduleId}) in (select user_id, module_id from jsonb_to_recordset(${pairs}::jsonb) as k(user_id text, module_id uuid))`,
        )
        .orderBy(asc(exerciseAttempts.number));
      return keys.map(({ userId, moduleId }) => rows.filter((row) => row.userId === userId && row.moduleId === moduleId));
    },
    { maxBatch: 50, slots: 2, gather: database.kind === "postgres" ? "running" : "turn" },
  );
}

/**
 * The certificate, when this pass completed the program (as a video watched does, learning.service.ts
 * markWatched). Only an entry that now holds every lesson can complete it: then the standing (the
 * quiz's attempts, a certificate) is read again, once the pass has committed.
 */
async function completeOnPass({ db, learner, standingCache }: ExerciseSubmitDeps, track: CatalogTrack, moduleId: string, entry: unknown): Promise<boolean> {
  try {
    const moduleIds = track.modules.map((module) => module.id);
    if (watchedModuleIds(entry, moduleIds).length < moduleIds.length) return false;
    const standing = await readStanding(db, learner.id, track.program.id);
    const after = completionFrom(track, standing);
    const data = Object.fromEntries(Object.entries(standing.data as Record<string, unknown>).filter(([id]) => id !== moduleId));
    const before = completionFrom(track, { ...standing, data });
    return (await issueOnCompletion(db, track, learner.id, before, after)).issued;
  } finally {
    // This instance forgets the standing it kept (docs/performance.md, "Caching signed-in reads").
    standingCache.forget(learner.id);
  }
}

type Scored = { ok: true; answer: ExerciseAnswer } | { ok: false; errors: FieldErrors };

async function scoredReplay(
  rate: Promise<Big | null>,
  exercise: ExerciseSettings,
  set: KeptSet,
  decision: number,
  order: Extract<ExerciseSubmission, { kind: "replay" }>,
): Promise<Scored> {
  const decisionBar = set.bars[decision];
  if (!decisionBar) throw new Error(`bar ${decision} of ${exercise.dataSetId} is missing`);
  if (decision >= set.barCount - 1) throw new HttpError(409, "NO_BARS_LEFT", EXERCISE_MESSAGES.noBarsLeft);
  const ghsPerUsd = await rate;
  // A balance in cedis is counted in dollars at the academy's rate (docs/trading.md, "Rounding").
  if (exercise.currency === "GHS" && !ghsPerUsd) throw new HttpError(503, "RATE_UNAVAILABLE", EXERCISE_MESSAGES.rateUnavailable);
  const balanceUsd = exercise.currency === "GHS" && ghsPerUsd ? new Big(exercise.balance).div(ghsPerUsd) : new Big(exercise.balance);
  // A replay's instrument is one the calculators know (exercise-settings.ts checks it when saved).
  const instrument = instrumentOf(set.instrument as InstrumentSymbol);
  const scored = scoreReplay(order, {
    entry: decisionBar.close,
    pipSize: instrument.pipSize,
    pipValuePerLotUsd: pipValuePerLotUsd(instrument, new Big(decisionBar.close)),
    balanceUsd,
    ghsPerUsd,
    later: set.bars.slice(decision + 1),
  });
  if (!scored.ok) return scored;
  const { result } = scored;
  const passed = new Big(result.r).gte(exercise.passR) && new Big(order.riskPercent.trim().replace(/,/g, "")).lte(exercise.maxRiskPercent);
  return {
    ok: true,
    answer: {
      kind: "replay",
      decidedAt: decisionBar.time.getTime() / 1000,
      order: { direction: order.direction, stop: order.stop.trim(), target: order.target.trim(), riskPercent: order.riskPercent.trim() },
      result: { ...result, exitTime: result.exitTime.toISOString() },
      passed,
    },
  };
}

function scoredLevel(exercise: ExerciseSettings, set: DataSet, price: string): Scored {
  const scored = scoreLevel(price, { low: exercise.answerLow, high: exercise.answerHigh, tolerancePips: exercise.tolerancePips, pipSize: set.pipSize });
  if (!scored.ok) return scored;
  return {
    ok: true,
    answer: { kind: "level", price: price.trim(), distancePips: scored.result.distancePips, answerLow: exercise.answerLow, answerHigh: exercise.answerHigh, passed: scored.result.passed },
  };
}

/**
 * POST .../exercise/attempts: a new attempt, from the start bar again, once the current one is
 * scored without passing and the exercise's wait is over (as the quiz's, docs/product.md "Quiz
 * attempts"). The primary key (learner, lesson, number) lets one of two at once through.
 */
export async function startExerciseAttempt(deps: ExerciseDeps, trackId: string, moduleId: string, now: Date): Promise<LearnerExercise> {
  const { db, learner } = deps;
  const { exercise, set, attempts } = await standing(deps, trackId, moduleId);
  if (attempts.some((attempt) => attempt.passed)) throw new HttpError(409, "EXERCISE_PASSED", EXERCISE_MESSAGES.passed);
  const current = attempts.at(-1);
  if (!current?.scoredAt) throw new HttpError(409, "ATTEMPT_NOT_SCORED", EXERCISE_MESSAGES.unscored);
  const waitMs = (nextAttemptAt(attempts, exercise)?.getTime() ?? 0) - now.getTime();
  if (waitMs > 0) throw new AttemptTooSoon(waitMs);
  const [started] = await db
    .insert(exerciseAttempts)
    .values({ userId: learner.id, moduleId, number: current.number + 1, revealed: exercise.startBar, startedAt: now })
    .onConflictDoNothing()
    .returning();
  if (!started) throw new HttpError(409, "ATTEMPT_NOT_SCORED", EXERCISE_MESSAGES.unscored);
  return exerciseView(exercise, set, withAttempt(attempts, started));
}
