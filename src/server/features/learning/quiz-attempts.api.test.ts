// Quiz attempts (docs/product.md, "Quiz attempts"): each attempt is scored on the first answer to
// each question, passing needs one attempt at the pass mark, a finished attempt that did not pass
// says its score and what to review, and a new attempt starts only after the quiz's wait, its
// options in a new order. Explanations come once a question is answered. The answers stored before
// attempts existed became attempt 1, so nobody who had completed a program loses it.
import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_MESSAGES } from "../../../shared/contracts/admin.ts";
import { LEARNING_MESSAGES } from "../../../shared/contracts/learning.ts";
import type { Track } from "../../../shared/plans.ts";
import { certificates, quizAttempts, quizSittings } from "../../db/schema.ts";
import { SEED_PROGRAMS } from "../../db/seed-content.ts";
import { createTestUsers, ipAllocator, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(33);

const USERS = {
  admin: { plan: "admin" },
  firstCounts: {},
  failed: {},
  atTheMark: { plan: "intermediate" },
  belowTheMark: { plan: "intermediate" },
  explained: {},
  unfinished: {},
  locked: {},
  holder: {},
} satisfies Record<string, TestUserPlan>;
type UserKey = keyof typeof USERS;

const questionsOf = (track: Track) => SEED_PROGRAMS.find((program) => program.id === track)?.quiz.questions ?? [];
const EXPLANATION = "The body spans the open and the close; the wicks show the rest of the range.";

/** A letter among the question's options that is not its answer. */
function wrongOption(track: Track, index: number): string {
  const question = questionsOf(track)[index];
  const wrong = question?.options.map((option) => option.charAt(0)).find((letter) => letter !== question.answer);
  if (!wrong) throw new Error(`question ${index} of ${track} has no wrong option`);
  return wrong;
}
const rightOption = (track: Track, index: number) => questionsOf(track)[index]?.answer ?? "";

type Attempt = { number: number; score: number; answered: number; total: number; finished: boolean; passed: boolean; review: number[] };
type Quiz = {
  questions: { question: string; options: string[]; explanation: string | null }[];
  answers: { questionIndex: number; option: string; correct: boolean }[];
  attempts: Attempt[];
  nextAttemptAt: string | null;
  passMark: number;
  retryWaitMinutes: number;
};

describe("quiz attempts API", () => {
  let t: TestApp;
  let user: (key: UserKey) => TestUser;
  const moduleIds = {} as Record<Track, string[]>;

  function call(caller: TestUser, options: InjectOptions) {
    return t.app.inject({ ...options, headers: { ...options.headers, cookie: caller.cookie } });
  }
  const putQuiz = (track: Track, body: object) => call(user("admin"), { method: "PUT", url: `/api/admin/programs/${track}/quiz`, payload: body });
  const quizOf = async (caller: TestUser, track: Track) =>
    (await call(caller, { method: "GET", url: `/api/programs/${track}` })).json<{ quiz: Quiz }>().quiz;
  const answer = (caller: TestUser, track: Track, questionIndex: number, option: string) =>
    call(caller, { method: "POST", url: `/api/programs/${track}/quiz/answers`, payload: { questionIndex, option } });
  const newAttempt = (caller: TestUser, track: Track) =>
    call(caller, { method: "POST", url: `/api/programs/${track}/quiz/attempts`, payload: {} });
  async function openQuiz(caller: TestUser, track: Track) {
    const [first] = moduleIds[track];
    const watched = await call(caller, { method: "POST", url: `/api/programs/${track}/modules/${first}/watched`, payload: {} });
    expect(watched.statusCode, watched.body).toBe(200);
  }
  /** The clock moved on: the attempt's last first answer came `minutes` earlier. */
  async function minutesPass(caller: TestUser, minutes: number) {
    await t.database.db
      .update(quizSittings)
      .set({ answeredAt: sql`${quizSittings.answeredAt} - make_interval(mins => ${minutes})` })
      .where(eq(quizSittings.userId, caller.id));
  }

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, USERS);
    for (const track of ["beginner", "intermediate"] as const) {
      const detail = await call(user("admin"), { method: "GET", url: `/api/programs/${track}` });
      moduleIds[track] = detail.json<{ modules: { id: string }[] }>().modules.map((module) => module.id);
    }
    // Beginner: the first question explained, every question to pass, the default wait.
    const beginner = questionsOf("beginner").map((question, index) => (index === 0 ? { ...question, explanation: EXPLANATION } : question));
    expect((await putQuiz("beginner", { title: "", questions: beginner })).statusCode).toBe(200);
    // Intermediate: two of three to pass.
    expect((await putQuiz("intermediate", { title: "", questions: questionsOf("intermediate"), passMark: 2 })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await putQuiz("beginner", { title: "", questions: questionsOf("beginner") });
    await t.close();
  });

  it("scores each question's first answer in the attempt; later answers still say Correct or Incorrect", async () => {
    const learner = user("firstCounts");
    await openQuiz(learner, "beginner");
    const wrong = await answer(learner, "beginner", 0, wrongOption("beginner", 0));
    expect(wrong.json()).toMatchObject({ correct: false, message: LEARNING_MESSAGES.incorrect });
    const right = await answer(learner, "beginner", 0, rightOption("beginner", 0));
    expect(right.json()).toMatchObject({ correct: true, message: LEARNING_MESSAGES.correct });
    expect(right.json().attempts).toEqual([expect.objectContaining({ number: 1, score: 0, answered: 1, total: 3, finished: false })]);
    // The latest answer is what the learner sees again; the score stays the first answer's.
    const quiz = await quizOf(learner, "beginner");
    expect(quiz.answers).toEqual([{ questionIndex: 0, option: rightOption("beginner", 0), correct: true }]);
    expect(quiz.attempts[0]).toMatchObject({ score: 0, answered: 1 });
  });

  it("passes with one attempt at or above the pass mark, not below", async () => {
    const atTheMark = user("atTheMark");
    await openQuiz(atTheMark, "intermediate");
    await answer(atTheMark, "intermediate", 0, rightOption("intermediate", 0));
    await answer(atTheMark, "intermediate", 1, wrongOption("intermediate", 1));
    const last = await answer(atTheMark, "intermediate", 2, rightOption("intermediate", 2));
    expect(last.json().completion).toMatchObject({ quizPassed: true, passMark: 2 });
    expect(last.json().attempts).toEqual([expect.objectContaining({ score: 2, finished: true, passed: true })]);
    expect(last.json().nextAttemptAt).toBeNull();
    // Once passed, there is no new attempt to take.
    const again = await newAttempt(atTheMark, "intermediate");
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: "QUIZ_PASSED", message: LEARNING_MESSAGES.quizAlreadyPassed });

    const below = user("belowTheMark");
    await openQuiz(below, "intermediate");
    await answer(below, "intermediate", 0, rightOption("intermediate", 0));
    await answer(below, "intermediate", 1, wrongOption("intermediate", 1));
    // Right after wrong on the same question: still one wrong first answer.
    await answer(below, "intermediate", 1, rightOption("intermediate", 1));
    const belowLast = await answer(below, "intermediate", 2, wrongOption("intermediate", 2));
    expect(belowLast.json().completion).toMatchObject({ quizPassed: false });
    expect(belowLast.json().attempts).toEqual([expect.objectContaining({ score: 1, finished: true, passed: false, review: [1, 2] })]);
  });

  it("a finished attempt that did not pass: its score, what to review, and a new attempt only after the wait", async () => {
    const learner = user("failed");
    await openQuiz(learner, "beginner");
    const first = await quizOf(learner, "beginner");
    expect(first.retryWaitMinutes).toBe(10);
    await answer(learner, "beginner", 0, rightOption("beginner", 0));
    await answer(learner, "beginner", 1, wrongOption("beginner", 1));
    const last = await answer(learner, "beginner", 2, rightOption("beginner", 2));
    expect(last.json().attempts).toEqual([
      expect.objectContaining({ number: 1, score: 2, answered: 3, total: 3, finished: true, passed: false, review: [1] }),
    ]);
    const finishedAt = Date.parse(last.json().attempts[0].finishedAt);
    expect(Date.parse(last.json().nextAttemptAt)).toBe(finishedAt + 10 * 60_000);

    // Too soon: refused with the time left in words, nothing written.
    const tooSoon = await newAttempt(learner, "beginner");
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().error).toMatchObject({ code: "ATTEMPT_TOO_SOON", message: "You can start a new attempt in 10 minutes." });
    expect(Number(tooSoon.headers["retry-after"])).toBeGreaterThan(590);
    await minutesPass(learner, 3);
    expect((await newAttempt(learner, "beginner")).json().error.message).toBe("You can start a new attempt in 7 minutes.");
    expect((await quizOf(learner, "beginner")).attempts).toHaveLength(1);

    // The wait over: attempt 2, no answers yet, every option in a new order.
    await minutesPass(learner, 7);
    const started = await newAttempt(learner, "beginner");
    expect(started.statusCode, started.body).toBe(201);
    const second = started.json<{ quiz: Quiz }>().quiz;
    expect(second.answers).toEqual([]);
    expect(second.nextAttemptAt).toBeNull();
    expect(second.attempts.map((attempt) => attempt.number)).toEqual([1, 2]);
    expect(second.attempts[1]).toMatchObject({ score: 0, answered: 0, finished: false });
    second.questions.forEach((question, index) => {
      expect(question.explanation).toBeNull();
      expect([...question.options].sort()).toEqual([...(first.questions[index]?.options ?? [])].sort());
      expect(question.options).not.toEqual(first.questions[index]?.options);
    });
    expect(await quizOf(learner, "beginner")).toEqual(second);
    // The new attempt is not finished: no other one yet.
    const twice = await newAttempt(learner, "beginner");
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(LEARNING_MESSAGES.attemptNotFinished);

    // Every first answer right in attempt 2: passed, both attempts listed with their scores.
    for (const index of [0, 1, 2]) await answer(learner, "beginner", index, rightOption("beginner", index));
    const passed = await quizOf(learner, "beginner");
    expect(passed.attempts).toEqual([
      expect.objectContaining({ number: 1, score: 2, passed: false }),
      expect.objectContaining({ number: 2, score: 3, passed: true }),
    ]);
    expect(passed.nextAttemptAt).toBeNull();
  });

  it("sends a question's explanation once the learner has answered it, not before", async () => {
    const learner = user("explained");
    await openQuiz(learner, "beginner");
    const before = await quizOf(learner, "beginner");
    expect(before.questions.map((question) => question.explanation)).toEqual([null, null, null]);
    const answered = await answer(learner, "beginner", 0, wrongOption("beginner", 0));
    expect(answered.json().explanation).toBe(EXPLANATION);
    const other = await answer(learner, "beginner", 1, rightOption("beginner", 1));
    expect(other.json().explanation).toBeNull();
    const after = await quizOf(learner, "beginner");
    expect(after.questions.map((question) => question.explanation)).toEqual([EXPLANATION, null, null]);
  });

  it("keeps the admin's explanations and wait, and refuses a bad wait or explanation in words", async () => {
    const saved = await call(user("admin"), { method: "GET", url: "/api/admin/programs/beginner/quiz" });
    expect(saved.json()).toMatchObject({ retryWaitMinutes: 10, questions: [expect.objectContaining({ explanation: EXPLANATION }), expect.anything(), expect.anything()] });
    expect(saved.json().questions[1]).not.toHaveProperty("explanation");
    const questions = questionsOf("beginner");
    for (const [body, message] of [
      [{ title: "", questions, retryWaitMinutes: -1 }, ADMIN_MESSAGES.retryWaitInvalid],
      [{ title: "", questions, retryWaitMinutes: 1.5 }, ADMIN_MESSAGES.retryWaitInvalid],
      [{ title: "", questions, retryWaitMinutes: "ten" }, ADMIN_MESSAGES.retryWaitInvalid],
      [{ title: "", questions, retryWaitMinutes: 10_081 }, ADMIN_MESSAGES.retryWaitInvalid],
      [{ title: "", questions: [{ ...questions[0], explanation: "x".repeat(2001) }] }, ADMIN_MESSAGES.explanationTooLong],
      [{ title: "", questions: [{ ...questions[0], explanation: 7 }] }, ADMIN_MESSAGES.explanationTooLong],
    ] as const) {
      const refused = await putQuiz("intermediate", body);
      expect(refused.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(refused.json().error).toMatchObject({ code: "VALIDATION", message });
    }
    expect((await call(user("admin"), { method: "GET", url: "/api/admin/programs/intermediate/quiz" })).json()).toMatchObject({ passMark: 2 });
  });

  it("refuses a new attempt clearly: quiz not open, attempt unfinished, no such program", async () => {
    const locked = user("locked");
    const closed = await newAttempt(locked, "beginner");
    expect(closed.statusCode).toBe(403);
    expect(closed.json().error.message).toBe(LEARNING_MESSAGES.quizLocked(1));

    const learner = user("unfinished");
    await openQuiz(learner, "beginner");
    const none = await newAttempt(learner, "beginner");
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe("ATTEMPT_NOT_FINISHED");
    await answer(learner, "beginner", 0, rightOption("beginner", 0));
    expect((await newAttempt(learner, "beginner")).statusCode).toBe(409);

    expect((await newAttempt(learner, "expert" as Track)).statusCode).toBe(404);
    expect((await newAttempt(learner, "advanced")).statusCode).toBe(403);
    expect((await t.app.inject({ method: "POST", url: "/api/programs/beginner/quiz/attempts", payload: {} })).statusCode).toBe(401);
  });

  it("keeps an existing certificate holder's completion: the answers stored before attempts became attempt 1", async () => {
    const learner = user("holder");
    for (const id of moduleIds.beginner) {
      expect((await call(learner, { method: "POST", url: `/api/programs/beginner/modules/${id}/watched`, payload: {} })).statusCode).toBe(200);
    }
    // As the academy stored them before attempts: a wrong answer then the right one to question 0,
    // the others right, a certificate issued; no attempt row.
    const at = (minutes: number) => new Date(Date.now() - (60 - minutes) * 60_000);
    await t.database.db.insert(quizAttempts).values([
      { userId: learner.id, programId: "beginner", questionIndex: 0, option: wrongOption("beginner", 0), correct: false, createdAt: at(1) },
      { userId: learner.id, programId: "beginner", questionIndex: 0, option: rightOption("beginner", 0), correct: true, createdAt: at(2) },
      { userId: learner.id, programId: "beginner", questionIndex: 1, option: rightOption("beginner", 1), correct: true, createdAt: at(3) },
      { userId: learner.id, programId: "beginner", questionIndex: 2, option: rightOption("beginner", 2), correct: true, createdAt: at(4) },
    ]);
    await t.database.db
      .insert(certificates)
      .values({ id: "TA-HOLD000001", userId: learner.id, holderName: "Test Learner", programId: "beginner", programTitle: "Beginner Program" });
    // The migration's own statement that turns stored answers into attempt 1.
    const migration = readFileSync(new URL("../../../../drizzle/0019_quiz_attempts_scored.sql", import.meta.url), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((statement) => statement.includes('INSERT INTO "quiz_sittings"'));
    if (!backfill) throw new Error("the migration has no backfill of quiz_sittings");
    await t.database.db.execute(sql.raw(backfill));
    t.services.standingCache.forget(learner.id);

    const [attempt] = await t.database.db
      .select()
      .from(quizSittings)
      .where(and(eq(quizSittings.userId, learner.id), eq(quizSittings.programId, "beginner")));
    expect(attempt).toMatchObject({ number: 1, firstAnswers: { 0: true, 1: true, 2: true } });
    const detail = (await call(learner, { method: "GET", url: "/api/programs/beginner" })).json();
    expect(detail.completion).toEqual({ complete: true, quizPassed: true, passMark: 3, certificateId: "TA-HOLD000001" });
    expect(detail.quiz.attempts).toEqual([expect.objectContaining({ number: 1, score: 3, finished: true, passed: true })]);
    // A later wrong click in that attempt changes nothing.
    const wrong = await answer(learner, "beginner", 1, wrongOption("beginner", 1));
    expect(wrong.json().completion).toEqual({ complete: true, quizPassed: true, passMark: 3, certificateId: "TA-HOLD000001" });
  });
});
