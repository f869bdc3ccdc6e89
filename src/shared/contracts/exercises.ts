// Chart exercises, a kind of lesson (docs/trading.md, "Exercises"): a replay trade or a marked
// level, on a price data set the academy owns. The server keeps the bars after the learner's
// decision point until the attempt is scored, and scores it: the browser sends only what the
// learner chose.
import * as z from "zod/mini";
import { EXERCISE_KINDS, type ExerciseKind } from "../exercise-kinds.ts";
import { BALANCE_CURRENCIES } from "../trading/instruments.ts";
import { endpoint } from "./endpoint.ts";

export type { ExerciseKind };

/** Bars a learner sees before the start point: enough to read the trend, few enough for a phone. */
export const EXERCISE_HISTORY_BARS = 120;
/** Bars a step may reveal at once ("Play" steps one at a time; "+10" ten). */
export const EXERCISE_STEP_MAX = 10;
/** Bars shown after the exit of a scored replay, so the learner sees what came next. */
export const EXERCISE_AFTER_EXIT_BARS = 10;
export const EXERCISE_EXPLANATION_MAX_LENGTH = 2_000;

export const EXERCISE_MESSAGES = {
  dataSet: "Choose the price data the exercise uses.",
  dataSetMissing: "That price data set does not exist. Choose another.",
  startBar: (last: number) => `Choose a start bar between 1 and ${last.toLocaleString("en-US")}: a replay needs at least one bar after it.`,
  replayInstrument: (known: string) => `A replay trade needs an instrument the calculators know (${known}), to size the position.`,
  answerLow: "Enter the level's price (or the zone's lower edge) as a price above 0.",
  answerHigh: "Enter the zone's upper edge as a price at or above its lower edge, or leave it empty for a single level.",
  tolerance: "Enter the tolerance as a number of pips above 0.",
  balance: "Enter the practice balance as an amount above 0.",
  passR: "Enter the result to pass as a number of R between -1 and 20, such as 1 for a trade that made its risk.",
  maxRisk: "Enter the largest risk that passes, above 0% and at most 100%.",
  explanationTooLong: `The explanation is at most ${EXERCISE_EXPLANATION_MAX_LENGTH.toLocaleString("en-US")} characters.`,
  inUse: "This data set is used by an exercise. Choose other price data for that exercise first.",
  notAnExercise: "This lesson is not an exercise.",
  notWatched: "An exercise is done by passing it, not by marking it.",
  futureBars: "Bars after your decision point are sent once your answer is in.",
  noBarsLeft: "The chart has no bars left after this one: a trade needs bars to play out.",
  alreadyScored: "This attempt is already scored. Start a new attempt to try again.",
  staleAttempt: "That attempt is over: your answer was not scored. Open the exercise again.",
  passed: "You have passed this exercise.",
  unscored: "Finish the current attempt before starting a new one.",
  notAReplay: "A marked level is read on the bars shown: there is nothing to step.",
  wrongKind: (kind: ExerciseKind) => (kind === "replay" ? "This exercise is a replay trade: send a trade." : "This exercise is a marked level: send a price."),
  rateUnavailable: "This exercise's balance is in cedis, and the exchange rate is not available right now. Try again in a few minutes.",
} as const;

/** A positive decimal as typed (the server reads it with big.js, never as a binary fraction). */
const POSITIVE_DECIMAL = /^(?=.*[1-9])\d{1,12}(\.\d{1,10})?$/;
const decimalText = (message: string) => z.string(message).check(z.trim(), z.maxLength(40, message));

/**
 * An exercise as an administrator writes it, a part of a lesson in the program form. Each field is
 * checked by the server against the data set it names (catalog-admin.service.ts).
 */
export const exerciseInputSchema = z.object({
  kind: z.enum(EXERCISE_KINDS, { error: "Choose a replay trade or a marked level." }),
  dataSetId: z.string(EXERCISE_MESSAGES.dataSet).check(z.trim(), z.minLength(1, EXERCISE_MESSAGES.dataSet), z.maxLength(64)),
  /** The decision bar's place in the set, from 0: the chart opens with it as the last bar. */
  startBar: z.int(EXERCISE_MESSAGES.startBar(1)).check(z.minimum(1, EXERCISE_MESSAGES.startBar(1))),
  explanation: z._default(z.string().check(z.maxLength(EXERCISE_EXPLANATION_MAX_LENGTH, EXERCISE_MESSAGES.explanationTooLong)), ""),
  /** A marked level: the answer, a price or a zone (low to high), and how far off still passes. */
  answerLow: z._default(decimalText(EXERCISE_MESSAGES.answerLow), ""),
  answerHigh: z._default(decimalText(EXERCISE_MESSAGES.answerHigh), ""),
  tolerancePips: z._default(decimalText(EXERCISE_MESSAGES.tolerance), ""),
  /** A replay: the practice balance, and what passes (a result of at least passR at a risk of at most maxRiskPercent). */
  balance: z._default(decimalText(EXERCISE_MESSAGES.balance), "1000"),
  currency: z._default(z.enum(BALANCE_CURRENCIES), "USD"),
  passR: z._default(decimalText(EXERCISE_MESSAGES.passR), "0"),
  maxRiskPercent: z._default(decimalText(EXERCISE_MESSAGES.maxRisk), "2"),
  /** Minutes to wait after an attempt that did not pass, as the quiz's (docs/product.md, "Quiz attempts"). */
  retryWaitMinutes: z._default(z.int().check(z.minimum(0), z.maximum(10_080)), 10),
});
export type ExerciseInput = z.input<typeof exerciseInputSchema>;
export type ExerciseSettings = z.output<typeof exerciseInputSchema>;
/** The settings as a module keeps them (modules.exercise); the data set is a column of its own. */
export type StoredExercise = Omit<ExerciseSettings, "dataSetId">;

export function storedExercise({ dataSetId: _dataSet, ...kept }: ExerciseSettings): StoredExercise {
  return kept;
}

export function isPositiveDecimal(text: string): boolean {
  return POSITIVE_DECIMAL.test(text.trim());
}

/** A bar as the chart draws it: the time in Unix seconds, prices as numbers (display only). */
export type ChartBar = { t: number; o: number; h: number; l: number; c: number };

/**
 * Bars as the server sends them, oldest first, one a line: "time,open,high,low,close", the time in
 * Unix seconds and the prices as the file wrote them. 147 bars are 4 KB of text rather than 8 KB of
 * objects, and the server writes them without checking 147 objects on every answer
 * (docs/performance.md, "Scoring a replay").
 */
const chartBarsSchema = z.string().check(z.regex(/^$|^-?\d+(,[\d.]+){4}(\n-?\d+(,[\d.]+){4})*$/));

/** The bars of `chartBarsSchema`'s text, for the chart. */
export function chartBarsOf(text: string): ChartBar[] {
  if (text === "") return [];
  return text.split("\n").map((line) => {
    const [t = Number.NaN, o = Number.NaN, h = Number.NaN, l = Number.NaN, c = Number.NaN] = line.split(",").map(Number);
    return { t, o, h, l, c };
  });
}

const money = z.object({ usd: z.string(), ghs: z.nullable(z.string()) });
const direction = z.enum(["buy", "sell"]);

export const replayResultSchema = z.object({
  outcome: z.enum(["target", "stop", "open"]),
  bothInOneBar: z.boolean(),
  exitPrice: z.string(),
  exitTime: z.string(),
  barsHeld: z.int(),
  entry: z.string(),
  stopPips: z.string(),
  pips: z.string(),
  r: z.string(),
  lots: z.string(),
  riskAmount: money,
  profit: money,
});

/** What the learner answered and what the server made of it. */
export const exerciseAnswerSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("replay"),
    /** The decision bar's time, Unix seconds: the order filled at its close. */
    decidedAt: z.int(),
    order: z.object({ direction, stop: z.string(), target: z.string(), riskPercent: z.string() }),
    result: replayResultSchema,
    passed: z.boolean(),
  }),
  z.object({
    kind: z.literal("level"),
    price: z.string(),
    /** How far the price is from the answer (0 inside a zone), in pips to a tenth. */
    distancePips: z.string(),
    answerLow: z.string(),
    answerHigh: z.string(),
    passed: z.boolean(),
  }),
]);
export type ExerciseAnswer = z.infer<typeof exerciseAnswerSchema>;

export const exerciseAttemptSchema = z.object({
  number: z.int(),
  startedAt: z.string(),
  /** Null until the learner's answer in this attempt is scored. */
  scoredAt: z.nullable(z.string()),
  passed: z.boolean(),
});

/** An exercise as the learner sees it: never a bar past the decision point before it is scored. */
export const learnerExerciseSchema = z.object({
  kind: z.enum(EXERCISE_KINDS),
  dataSet: z.object({ name: z.string(), instrument: z.string(), pipSize: z.string(), timeframe: z.string(), illustrative: z.boolean() }),
  balance: z.object({ amount: z.string(), currency: z.enum(BALANCE_CURRENCIES) }),
  passR: z.string(),
  maxRiskPercent: z.string(),
  tolerancePips: z.string(),
  retryWaitMinutes: z.int(),
  /** The bars shown (chartBarsOf reads them); `decision` is the place in them of the bar the learner decides at. */
  bars: chartBarsSchema,
  decision: z.int(),
  /** Whether a bar follows the decision bar (a replay needs one to play out). */
  barsLeft: z.boolean(),
  /** The number of the current attempt, which a step or an answer names: 1 before the first step. */
  attempt: z.int(),
  /** The learner's attempts, oldest first; the last is the current one (none before the first step or answer). */
  attempts: z.array(exerciseAttemptSchema),
  /** The current attempt's answer, once scored. */
  answer: z.nullable(exerciseAnswerSchema),
  /** The administrator's explanation, once the current attempt is scored. */
  explanation: z.nullable(z.string()),
  passed: z.boolean(),
  /** Set when the current attempt is scored and did not pass, and the exercise is not passed: when a new attempt may start. */
  nextAttemptAt: z.nullable(z.string()),
});
export type LearnerExercise = z.infer<typeof learnerExerciseSchema>;

const exerciseParamsSchema = z.object({ track: z.string().check(z.maxLength(64)), moduleId: z.string().check(z.maxLength(64)) });

/** The attempt a step or an answer belongs to: one sent late (offline) for an attempt that ended is refused, not scored. */
const attemptNumber = z.int().check(z.minimum(1));

export const exerciseStepSchema = z.object({ attempt: attemptNumber, count: z._default(z.int().check(z.minimum(1), z.maximum(EXERCISE_STEP_MAX)), 1) });

export const exerciseSubmissionSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("replay"),
    attempt: attemptNumber,
    direction: z.enum(["buy", "sell"], { error: "Choose buy or sell." }),
    stop: z.string().check(z.maxLength(40)),
    target: z.string().check(z.maxLength(40)),
    riskPercent: z.string().check(z.maxLength(40)),
  }),
  z.object({ kind: z.literal("level"), attempt: attemptNumber, price: z.string().check(z.maxLength(40)) }),
]);
export type ExerciseSubmission = z.infer<typeof exerciseSubmissionSchema>;

/** A submission's answer: scored, or refused field by field (nothing kept), as the calculators answer. */
export const exerciseSubmissionResponseSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), exercise: learnerExerciseSchema }),
  z.object({ ok: z.literal(false), errors: z.record(z.string(), z.string()) }),
]);

export const exerciseBarsQuerySchema = z.object({ through: z.coerce.number().check(z.int(), z.minimum(0)) });

const path = "/api/programs/:track/modules/:moduleId/exercise";

export const EXERCISE_ENDPOINTS = {
  exercise: endpoint({ method: "GET", path, params: exerciseParamsSchema, response: learnerExerciseSchema }),
  /** The bars up to a place in the set: at most the decision bar until the attempt is scored. */
  bars: endpoint({ method: "GET", path: `${path}/bars`, params: exerciseParamsSchema, query: exerciseBarsQuerySchema, response: z.object({ bars: chartBarsSchema }) }),
  step: endpoint({ method: "POST", path: `${path}/step`, params: exerciseParamsSchema, body: exerciseStepSchema, response: learnerExerciseSchema }),
  submit: endpoint({ method: "POST", path: `${path}/submissions`, params: exerciseParamsSchema, body: exerciseSubmissionSchema, response: exerciseSubmissionResponseSchema }),
  newAttempt: endpoint({ method: "POST", path: `${path}/attempts`, params: exerciseParamsSchema, response: learnerExerciseSchema, status: 201 }),
} as const;
