// Quiz answers are limited per learner and question, and the attempts stored are bounded (issue
// 14): a script answering as fast as it can neither floods quiz_attempts nor gets past the limit,
// on one instance or several (the count is one statement in the database).
import { and, asc, count, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEARNING_MESSAGES, QUIZ_ANSWER_LIMIT } from "../../../shared/contracts/learning.ts";
import { modules, quizAttempts, rateLimits } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(29);

const USERS = {
  limited: {},
  otherLearner: {},
  windowPassed: {},
  bounded: {},
  parallel: {},
} as const;

describe("quiz answers: a few a minute per learner and question, and a bounded record", () => {
  let t: TestApp;
  let user: (key: keyof typeof USERS) => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, USERS);
    const [first] = await t.database.db
      .select({ id: modules.id })
      .from(modules)
      .where(eq(modules.programId, "beginner"))
      .orderBy(asc(modules.position))
      .limit(1);
    if (!first) throw new Error("no beginner module");
    // Every learner here has the Beginner quiz open.
    for (const key of Object.keys(USERS) as (keyof typeof USERS)[]) {
      const watched = await t.app.inject({
        method: "POST",
        url: `/api/programs/beginner/modules/${first.id}/watched`,
        headers: { cookie: user(key).cookie },
        payload: {},
      });
      expect(watched.statusCode, watched.body).toBe(200);
    }
  });
  afterAll(() => t.close());

  const answer = (learner: TestUser, questionIndex: number, option = "A") =>
    t.app.inject({
      method: "POST",
      url: "/api/programs/beginner/quiz/answers",
      headers: { cookie: learner.cookie },
      payload: { questionIndex, option },
    });

  async function stored(learner: TestUser, questionIndex?: number): Promise<number> {
    const [row] = await t.database.db
      .select({ n: count() })
      .from(quizAttempts)
      .where(
        and(
          eq(quizAttempts.userId, learner.id),
          questionIndex === undefined ? undefined : eq(quizAttempts.questionIndex, questionIndex),
        ),
      );
    return row?.n ?? 0;
  }

  function expectTooMany(response: Awaited<ReturnType<typeof answer>>) {
    expect(response.statusCode, response.body).toBe(429);
    const retryAfter = Number(response.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(QUIZ_ANSWER_LIMIT.windowSeconds);
    expect(response.json()).toEqual({
      error: { code: "TOO_MANY_ANSWERS", message: LEARNING_MESSAGES.tooManyAnswers(retryAfter), requestId: response.headers["x-request-id"] },
    });
    expect(response.json().error.message).toMatch(/^You have answered this question 5 times in a minute\. Try again in \d+ seconds?\.$/);
  }

  it("takes 5 answers to a question in a minute; the sixth is a 429 saying when to try again, and is not stored", async () => {
    const learner = user("limited");
    for (let i = 0; i < QUIZ_ANSWER_LIMIT.perWindow; i++) {
      const response = await answer(learner, 0, i % 2 === 0 ? "A" : "B");
      expect(response.statusCode, response.body).toBe(200);
    }
    for (let i = 0; i < 3; i++) expectTooMany(await answer(learner, 0));
    expect(await stored(learner, 0)).toBe(QUIZ_ANSWER_LIMIT.perWindow);

    // The limit is per question and per learner.
    expect((await answer(learner, 1)).statusCode).toBe(200);
    expect((await answer(user("otherLearner"), 0)).statusCode).toBe(200);
  });

  it("takes answers again once the minute has passed", async () => {
    const learner = user("windowPassed");
    for (let i = 0; i < QUIZ_ANSWER_LIMIT.perWindow; i++) expect((await answer(learner, 2)).statusCode).toBe(200);
    expectTooMany(await answer(learner, 2));
    // The minute passes: the window began more than a minute ago.
    await t.database.db
      .update(rateLimits)
      .set({ lastRequest: sql`${rateLimits.lastRequest} - ${QUIZ_ANSWER_LIMIT.windowSeconds * 1000 + 1}` })
      .where(like(rateLimits.key, `quiz-answer:${learner.id}:%`));
    expect((await answer(learner, 2)).statusCode).toBe(200);
    expect(await stored(learner, 2)).toBe(QUIZ_ANSWER_LIMIT.perWindow + 1);
  });

  it(`keeps only the latest ${QUIZ_ANSWER_LIMIT.kept} attempts per learner and question`, async () => {
    const learner = user("bounded");
    const { db } = t.database;
    const now = Date.now();
    const longAgo = (minutes: number) => new Date(now - minutes * 60_000);
    // Answers from earlier days, beyond the bound (as stored before it), oldest first, and two on
    // another question.
    const oldTimes = Array.from({ length: QUIZ_ANSWER_LIMIT.kept + 5 }, (_, i) => longAgo(1000 - i));
    await db.insert(quizAttempts).values(
      oldTimes.map((createdAt) => ({ userId: learner.id, programId: "beginner", questionIndex: 0, option: "C", correct: false, createdAt })),
    );
    await db.insert(quizAttempts).values(
      [1, 2].map((minutes) => ({ userId: learner.id, programId: "beginner", questionIndex: 1, option: "C", correct: false, createdAt: longAgo(minutes) })),
    );

    for (let i = 0; i < QUIZ_ANSWER_LIMIT.perWindow; i++) {
      expect((await answer(learner, 0, "A")).statusCode).toBe(200);
      expect(await stored(learner, 0)).toBe(QUIZ_ANSWER_LIMIT.kept);
    }
    const kept = await db
      .select({ option: quizAttempts.option, createdAt: quizAttempts.createdAt })
      .from(quizAttempts)
      .where(and(eq(quizAttempts.userId, learner.id), eq(quizAttempts.questionIndex, 0)))
      .orderBy(asc(quizAttempts.createdAt), asc(quizAttempts.id));
    // The newest answers are all there; of the old ones, only the newest.
    expect(kept.filter((row) => row.option === "A")).toHaveLength(QUIZ_ANSWER_LIMIT.perWindow);
    const oldKept = kept.filter((row) => row.option === "C").map((row) => row.createdAt.getTime());
    expect(oldKept).toEqual(oldTimes.slice(-(QUIZ_ANSWER_LIMIT.kept - QUIZ_ANSWER_LIMIT.perWindow)).map((time) => time.getTime()));
    expect(await stored(learner, 1)).toBe(2);

    // What the learner sees is still their latest answer.
    const track = await t.app.inject({ url: "/api/programs/beginner", headers: { cookie: learner.cookie } });
    expect(track.json().quiz.answers).toContainEqual({ questionIndex: 0, option: "A", correct: true });
  });

  it("answers sent all at once are counted one by one: exactly 5 are taken", async () => {
    const learner = user("parallel");
    const responses = await Promise.all(Array.from({ length: 12 }, () => answer(learner, 0)));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(QUIZ_ANSWER_LIMIT.perWindow).fill(200), ...Array<number>(12 - QUIZ_ANSWER_LIMIT.perWindow).fill(429)]);
    for (const response of responses.filter((r) => r.statusCode === 429)) expectTooMany(response);
    expect(await stored(learner)).toBe(QUIZ_ANSWER_LIMIT.perWindow);
  });
});
