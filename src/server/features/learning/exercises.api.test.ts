// Chart exercises through the API (docs/trading.md, "Exercises"): the bars after the decision point
// never leave the server before the answer, an attempt is scored once, as worked by hand, attempts
// wait as the quiz's do, a pass marks the lesson done, and an exercise not published is no one's
// but the administrators'. The demo's two exercises are on the illustrative set (seed-content.ts).
import { and, eq, inArray, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chartBarsOf, EXERCISE_MESSAGES, type LearnerExercise } from "../../../shared/contracts/exercises.ts";
import { illustrativeBars } from "../../../shared/trading/illustrative-bars.ts";
import { REPLAY_MESSAGES } from "../../../shared/trading/replay.ts";
import { config, exerciseAttempts } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { PASSING_SEEDED_ANSWERS, seededModuleIds } from "../../testing/catalog.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(67);
const USERS = {
  admin: { plan: "admin" },
  free: { plan: null },
  peeker: { plan: "intermediate" },
  stepper: { plan: "intermediate" },
  careless: { plan: "intermediate" },
  trader: { plan: "intermediate" },
  racer: { plan: "intermediate" },
  marker: { plan: "intermediate" },
  early: { plan: "intermediate" },
  both: { plan: "intermediate" },
  crowdA: { plan: "intermediate" },
  crowdB: { plan: "intermediate" },
  crowdC: { plan: "intermediate" },
} satisfies Record<string, TestUserPlan>;
type UserKey = keyof typeof USERS;

const BARS = illustrativeBars();
const unix = (position: number) => (BARS[position]?.time.getTime() ?? 0) / 1000;
/** A four-bar file, as TradingView exports it: a replay from bar 2 has one bar left to play. */
const SHORT_FILE = ["time,open,high,low,close", "1709298000,1.0842,1.0851,1.0839,1.0847", "1709301600,1.0847,1.0860,1.0845,1.0858", "1709305200,1.0858,1.0859,1.0830,1.0835", "1709308800,1.0835,1.0841,1.0820,1.0822"].join("\n");

describe("chart exercises", () => {
  let t: TestApp;
  let user: (key: UserKey) => TestUser;
  let level: string;
  let replay: string;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, USERS);
    const moduleId = await seededModuleIds(t);
    level = moduleId("intermediate", 3);
    replay = moduleId("intermediate", 4);
  });
  afterAll(() => t.close());

  const call = (caller: UserKey, options: InjectOptions) => t.app.inject({ ...options, headers: { ...options.headers, cookie: user(caller).cookie } });
  const base = (moduleId: string, track = "intermediate") => `/api/programs/${track}/modules/${moduleId}/exercise`;
  const exerciseOf = async (caller: UserKey, moduleId: string, track?: string) => {
    const response = await call(caller, { method: "GET", url: base(moduleId, track) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LearnerExercise>();
  };
  const step = (caller: UserKey, moduleId: string, body: object, track?: string) => call(caller, { method: "POST", url: `${base(moduleId, track)}/step`, payload: body });
  const submit = (caller: UserKey, moduleId: string, body: object, track?: string) => call(caller, { method: "POST", url: `${base(moduleId, track)}/submissions`, payload: body });
  const newAttempt = (caller: UserKey, moduleId: string) => call(caller, { method: "POST", url: `${base(moduleId)}/attempts`, payload: {} });
  const watchedOf = async (caller: UserKey) => (await call(caller, { method: "GET", url: "/api/programs/intermediate" })).json<{ watched: string[] }>().watched;
  const attemptRows = (caller: UserKey, moduleId: string) =>
    t.database.db
      .select()
      .from(exerciseAttempts)
      .where(and(eq(exerciseAttempts.userId, user(caller).id), eq(exerciseAttempts.moduleId, moduleId)));
  const refusal = (code: string, message: string) => ({ error: { code, message, requestId: expect.any(String) } });

  it("sends the bars up to the decision point and not one further, however they are asked for", async () => {
    const exercise = await exerciseOf("peeker", replay);
    // 120 bars of history and the decision bar, bar 380: the pullback after the breakout.
    // One bar a line, prices as the set wrote them.
    expect(exercise.bars.split("\n")).toHaveLength(121);
    expect(exercise.bars.split("\n").at(-1)).toBe(`${unix(380)},1.09501,1.09504,1.09373,1.09416`);
    expect(chartBarsOf(exercise.bars).at(-1)).toEqual({ t: unix(380), o: 1.09501, h: 1.09504, l: 1.09373, c: 1.09416 });
    expect(exercise).toMatchObject({ kind: "replay", decision: 120, barsLeft: true, attempt: 1, attempts: [], answer: null, explanation: null, passed: false });
    expect(exercise.dataSet).toEqual({ name: "EURUSD H1 (illustrative, not real prices)", instrument: "EURUSD", pipSize: "0.0001", timeframe: "H1", illustrative: true });
    expect(JSON.stringify(exercise)).not.toContain(String(unix(381)));

    const seen = await call("peeker", { method: "GET", url: `${base(replay)}/bars?through=380` });
    expect(seen.statusCode).toBe(200);
    expect(chartBarsOf(seen.json().bars).at(-1)?.t).toBe(unix(380));
    for (const through of [381, 599, 100_000]) {
      const ahead = await call("peeker", { method: "GET", url: `${base(replay)}/bars?through=${through}` });
      expect(ahead.statusCode, String(through)).toBe(403);
      expect(ahead.json()).toEqual(refusal("FUTURE_BARS", EXERCISE_MESSAGES.futureBars));
    }
    // A read writes nothing: the attempt starts with the first step or answer.
    expect(await attemptRows("peeker", replay)).toEqual([]);
  });

  it("opens only to a plan that opens the program, and only for a lesson that is an exercise", async () => {
    expect((await call("free", { method: "GET", url: base(replay) })).statusCode).toBe(403);
    const video = (await call("peeker", { method: "GET", url: "/api/programs/intermediate" })).json<{ modules: { id: string }[] }>().modules[0]?.id ?? "";
    const notOne = await call("peeker", { method: "GET", url: base(video) });
    expect(notOne.statusCode).toBe(404);
    expect(notOne.json()).toEqual(refusal("NOT_AN_EXERCISE", EXERCISE_MESSAGES.notAnExercise));
    // An exercise is done by passing it, never by marking it watched.
    const marked = await call("peeker", { method: "POST", url: `/api/programs/intermediate/modules/${replay}/watched`, payload: {} });
    expect(marked.statusCode).toBe(409);
    expect(marked.json()).toEqual(refusal("EXERCISE_NOT_WATCHED", EXERCISE_MESSAGES.notWatched));
  });

  it("steps forward in the current attempt only, a few bars at a time", async () => {
    const stepped = await step("stepper", replay, { attempt: 1, count: 3 });
    expect(stepped.statusCode, stepped.body).toBe(200);
    const exercise = stepped.json<LearnerExercise>();
    expect(chartBarsOf(exercise.bars).at(-1)?.t).toBe(unix(383));
    expect(chartBarsOf(exercise.bars)).toHaveLength(121);
    expect(exercise.attempts).toEqual([expect.objectContaining({ number: 1, scoredAt: null, passed: false })]);
    // The bars of the step are now the learner's to ask for; the one after is not.
    expect((await call("stepper", { method: "GET", url: `${base(replay)}/bars?through=383` })).statusCode).toBe(200);
    expect((await call("stepper", { method: "GET", url: `${base(replay)}/bars?through=384` })).statusCode).toBe(403);

    const stale = await step("stepper", replay, { attempt: 2, count: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual(refusal("STALE_ATTEMPT", EXERCISE_MESSAGES.staleAttempt));
    expect((await step("stepper", replay, { attempt: 1, count: 11 })).statusCode).toBe(400);
    const levelStep = await step("stepper", level, { attempt: 1, count: 1 });
    expect(levelStep.json()).toEqual(refusal("NOT_A_REPLAY", EXERCISE_MESSAGES.notAReplay));
  });

  it("refuses a trade that makes no sense at its field, and keeps nothing", async () => {
    // The order fills at bar 380's close, 1.09416.
    const wrong = await submit("careless", replay, { kind: "replay", attempt: 1, direction: "buy", stop: "1.0950", target: "1.09416", riskPercent: "0" });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toEqual({
      ok: false,
      errors: { stop: REPLAY_MESSAGES.stopSide("buy"), target: REPLAY_MESSAGES.targetSide("buy"), riskPercent: REPLAY_MESSAGES.risk },
    });
    const tooMuch = await submit("careless", replay, { kind: "replay", attempt: 1, direction: "sell", stop: "1.0990", target: "1.0880", riskPercent: "100.5" });
    expect(tooMuch.json()).toEqual({ ok: false, errors: { riskPercent: REPLAY_MESSAGES.risk } });
    const wrongKind = await submit("careless", replay, { kind: "level", attempt: 1, price: "1.08" });
    expect(wrongKind.statusCode).toBe(400);
    expect(await attemptRows("careless", replay)).toEqual([]);
  });

  it("scores a replay once, as worked by hand, and the pass marks the lesson done", async () => {
    // A buy at 1.09416, its stop at 1.0880 (61.6 pips) and its target at 1.0990 (48.4 pips), 1% of
    // 1,000 USD: 10 USD at risk, 10 / (61.6 x 10 USD a pip a lot) = 0.0162, down to 0.01 lot. No
    // later low reaches 1.0880 (the lowest is 1.08849); bar 516's high reaches 1.0990, 136 bars on:
    // 48.4 / 61.6 = 0.7857, 0.79 R; 0.01 lot x 48.4 pips x 10 USD = 4.84 USD. At 15.45 cedis a
    // dollar: 154.50 cedis at risk, 74.778 made, 74.78 to the pesewa.
    const now = new Date().toISOString();
    // A failure just now too: the app keeps this rate rather than asking the service again.
    await t.database.db.delete(config).where(inArray(config.key, ["exchange_rate", "exchange_rate_failure"]));
    await t.database.db.insert(config).values([
      { key: "exchange_rate", value: { ghsPerUsd: 15.45, fetchedAt: now } },
      { key: "exchange_rate_failure", value: { at: now } },
    ]);
    const scored = await submit("trader", replay, { ...PASSING_SEEDED_ANSWERS.replay, attempt: 1 });
    expect(scored.statusCode, scored.body).toBe(200);
    const { exercise } = scored.json<{ ok: true; exercise: LearnerExercise }>();
    expect(exercise.answer).toEqual({
      kind: "replay",
      decidedAt: unix(380),
      order: { direction: "buy", stop: "1.0880", target: "1.0990", riskPercent: "1" },
      result: {
        outcome: "target",
        bothInOneBar: false,
        exitPrice: "1.099",
        exitTime: BARS[516]?.time.toISOString(),
        barsHeld: 136,
        entry: "1.09416",
        stopPips: "61.6",
        pips: "48.4",
        r: "0.79",
        lots: "0.01",
        riskAmount: { usd: "10.00", ghs: "154.50" },
        profit: { usd: "4.84", ghs: "74.78" },
      },
      passed: true,
    });
    expect(exercise.explanation).toMatch(/^After a breakout, old resistance often becomes support/);
    expect(exercise).toMatchObject({ passed: true, nextAttemptAt: null, attempts: [expect.objectContaining({ number: 1, passed: true })] });
    // Now the outcome is shown: the bars through the exit and ten after it.
    expect(chartBarsOf(exercise.bars).at(-1)?.t).toBe(unix(526));
    expect((await call("trader", { method: "GET", url: `${base(replay)}/bars?through=599` })).statusCode).toBe(200);
    expect(await watchedOf("trader")).toEqual([replay]);

    const again = await submit("trader", replay, { ...PASSING_SEEDED_ANSWERS.replay, direction: "sell", stop: "1.1", target: "1.09", attempt: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(refusal("ALREADY_SCORED", EXERCISE_MESSAGES.alreadyScored));
    expect((await step("trader", replay, { attempt: 1, count: 1 })).json()).toEqual(refusal("ALREADY_SCORED", EXERCISE_MESSAGES.alreadyScored));
    expect((await newAttempt("trader", replay)).json()).toEqual(refusal("EXERCISE_PASSED", EXERCISE_MESSAGES.passed));
    expect(await exerciseOf("trader", replay)).toEqual(exercise);
  });

  it("scores one of two answers sent at once in the same attempt", async () => {
    const answers = await Promise.all(
      [PASSING_SEEDED_ANSWERS.replay, { ...PASSING_SEEDED_ANSWERS.replay, direction: "sell", stop: "1.0990", target: "1.0880" }].map((answer) =>
        submit("racer", replay, { ...answer, attempt: 1 }),
      ),
    );
    expect(answers.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const rows = await attemptRows("racer", replay);
    expect(rows).toHaveLength(1);
    const winner = answers.find((response) => response.statusCode === 200)?.json<{ exercise: LearnerExercise }>().exercise.answer;
    expect(rows[0]?.answer).toEqual(winner);
  });

  it("scores answers sent at once by several learners, and two passes of one learner in one program, each as if alone", async () => {
    const crowd = ["crowdA", "crowdB", "crowdC"] as const;
    const answers = await Promise.all([
      submit("both", level, { ...PASSING_SEEDED_ANSWERS.level, attempt: 1 }),
      submit("both", replay, { ...PASSING_SEEDED_ANSWERS.replay, attempt: 1 }),
      // One that does not pass: its attempt is scored, its lesson not done.
      ...crowd.map((who, index) => submit(who, level, { kind: "level", attempt: 1, price: index === 0 ? "1.0900" : "1.0801" })),
    ]);
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((response) => response.json<{ exercise: LearnerExercise }>().exercise.passed)).toEqual([true, true, false, true, true]);
    expect([...(await watchedOf("both"))].sort()).toEqual([level, replay].sort());
    expect(await watchedOf("crowdA")).toEqual([]);
    expect(await watchedOf("crowdB")).toEqual([level]);
    for (const who of crowd) expect(await attemptRows(who, level)).toEqual([expect.objectContaining({ number: 1, scoredAt: expect.any(Date) })]);
  });

  it("marks a level: the answer and the explanation after it, a new attempt only after the wait", async () => {
    const exercise = await exerciseOf("marker", level);
    expect(exercise).toMatchObject({ kind: "level", tolerancePips: "10", retryWaitMinutes: 2, answer: null, explanation: null });
    expect(chartBarsOf(exercise.bars).at(-1)?.t).toBe(unix(250));
    expect(JSON.stringify(exercise)).not.toContain("1.0795");

    const refused = await submit("marker", level, { kind: "level", attempt: 1, price: "-1" });
    expect(refused.json()).toEqual({ ok: false, errors: { price: "Tap the chart or enter a price above 0." } });
    // 1.0850 is 40 pips above the zone's upper edge, 1.0810: beyond the 10 pips that pass.
    const missed = await submit("marker", level, { kind: "level", attempt: 1, price: "1.0850" });
    const first = missed.json<{ exercise: LearnerExercise }>().exercise;
    expect(first.answer).toEqual({ kind: "level", price: "1.0850", distancePips: "40.0", answerLow: "1.0795", answerHigh: "1.0810", passed: false });
    expect(first.explanation).toMatch(/^Support is the zone from 1.0795 to 1.0810/);
    const scoredAt = Date.parse(first.attempts[0]?.scoredAt ?? "");
    expect(Date.parse(first.nextAttemptAt ?? "")).toBe(scoredAt + 2 * 60_000);

    const tooSoon = await newAttempt("marker", level);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().error.message).toBe("You can start a new attempt in 2 minutes.");
    expect(Number(tooSoon.headers["retry-after"])).toBeGreaterThan(100);
    await t.database.db
      .update(exerciseAttempts)
      .set({ scoredAt: sql`${exerciseAttempts.scoredAt} - make_interval(mins => 2)` })
      .where(eq(exerciseAttempts.userId, user("marker").id));

    const started = await newAttempt("marker", level);
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({ attempt: 2, answer: null, explanation: null, nextAttemptAt: null });
    expect((await newAttempt("marker", level)).json()).toEqual(refusal("ATTEMPT_NOT_SCORED", EXERCISE_MESSAGES.unscored));
    // An answer kept offline for the attempt that ended is refused, not scored in the new one.
    expect((await submit("marker", level, { kind: "level", attempt: 1, price: "1.0800" })).json()).toEqual(refusal("STALE_ATTEMPT", EXERCISE_MESSAGES.staleAttempt));
    const passed = await submit("marker", level, { ...PASSING_SEEDED_ANSWERS.level, attempt: 2 });
    expect(passed.json().exercise).toMatchObject({ passed: true, answer: { distancePips: "0.0", passed: true } });
    expect(await watchedOf("marker")).toEqual([level]);
  });

  it("a new exercise is a draft until published, is checked against its data set, and keeps its set from removal", async () => {
    const uploaded = await call("admin", {
      method: "POST",
      url: `/api/admin/price-data?${new URLSearchParams({ name: "EURUSD four hours", instrument: "EURUSD", pipSize: "0.0001", timeframe: "H1" })}`,
      headers: { "content-type": "application/octet-stream" },
      payload: SHORT_FILE,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const dataSetId = uploaded.json<{ dataSet: { id: string } }>().dataSet.id;
    const lesson = (exercise: object) => ({
      id: "short-replays",
      level: "beginner",
      title: "Short replays",
      duration: "1 day",
      priceUsd: null,
      order: null,
      description: [],
      modules: [{ title: "The last bar", description: "", youtubeId: "", exercise: { kind: "replay", dataSetId, startBar: 2, ...exercise } }],
    });
    const create = (exercise: object) => call("admin", { method: "POST", url: "/api/admin/programs", payload: lesson(exercise) });
    for (const [exercise, message] of [
      [{ startBar: 3 }, EXERCISE_MESSAGES.startBar(2)],
      [{ dataSetId: "00000000-0000-4000-8000-000000000000" }, EXERCISE_MESSAGES.dataSetMissing],
      [{ dataSetId: "not-an-id" }, EXERCISE_MESSAGES.dataSetMissing],
      [{ maxRiskPercent: "0" }, EXERCISE_MESSAGES.maxRisk],
      [{ kind: "level", tolerancePips: "5" }, EXERCISE_MESSAGES.answerLow],
      [{ kind: "level", answerLow: "1.09", answerHigh: "1.08", tolerancePips: "5" }, EXERCISE_MESSAGES.answerHigh],
    ] as const) {
      const response = await create(exercise);
      expect(response.statusCode, JSON.stringify(exercise)).toBe(400);
      expect(response.json().error.message).toBe(message);
    }
    const created = await create({});
    expect(created.statusCode, created.body).toBe(201);
    const moduleId = created.json<{ program: { modules: { id: string }[] } }>().program.modules[0]?.id ?? "";

    // Not published: no learner finds it; the administrator previews it.
    expect((await call("early", { method: "GET", url: base(moduleId, "short-replays") })).statusCode).toBe(404);
    expect(chartBarsOf((await exerciseOf("admin", moduleId, "short-replays")).bars)).toHaveLength(3);
    const published = await call("admin", { method: "POST", url: "/api/admin/programs/short-replays/publish", payload: {} });
    expect(published.statusCode, published.body).toBe(200);

    // One bar to play out, then none: a trade needs a bar after it.
    expect(chartBarsOf((await step("early", moduleId, { attempt: 1, count: 5 }, "short-replays")).json().bars)).toHaveLength(4);
    expect((await step("early", moduleId, { attempt: 1 }, "short-replays")).json()).toEqual(refusal("NO_BARS_LEFT", EXERCISE_MESSAGES.noBarsLeft));
    const late = await submit("early", moduleId, { kind: "replay", attempt: 1, direction: "buy", stop: "1.08", target: "1.09", riskPercent: "1" }, "short-replays");
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual(refusal("NO_BARS_LEFT", EXERCISE_MESSAGES.noBarsLeft));

    const removal = await call("admin", { method: "DELETE", url: `/api/admin/price-data/${dataSetId}` });
    expect(removal.statusCode).toBe(409);
    expect(removal.json()).toEqual(refusal("DATA_SET_IN_USE", EXERCISE_MESSAGES.inUse));
  });
});
