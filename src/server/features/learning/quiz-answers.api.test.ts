// Quiz answers recorded in batches (docs/performance.md, "Quiz answers in batches"): answers sent
// at the same time by several learners are recorded together and each learner is answered as if
// theirs had been alone; two batches naming the same learners never wait for each other.
import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { LEARNING_MESSAGES } from "../../../shared/contracts/learning.ts";
import { modules, quizAttempts, quizzes, users } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { testDatabaseKind } from "../../testing/test-database.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(31);
const onPostgres = testDatabaseKind() === "postgres";

const lockWaits = z.object({ rows: z.array(z.object({ n: z.number() })) });

const USERS = { ama: {}, kofi: {}, esi: {}, yaw: {}, akua: {}, kwame: {}, notStarted: {}, first: {}, second: {} } as const;
type Key = keyof typeof USERS;

describe("quiz answers sent at the same time", () => {
  let t: TestApp;
  let user: (key: Key) => TestUser;
  let firstModuleId: string;
  let rightOption: string;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, USERS);
    const { db } = t.database;
    const [first] = await db.select({ id: modules.id }).from(modules).where(eq(modules.programId, "beginner")).orderBy(asc(modules.position)).limit(1);
    const [quiz] = await db.select({ questions: quizzes.questions }).from(quizzes).where(eq(quizzes.programId, "beginner"));
    if (!first || !quiz?.questions[0]) throw new Error("the seed has no Beginner video or quiz");
    firstModuleId = first.id;
    rightOption = quiz.questions[0].answer;
    // Everyone but notStarted has the quiz open.
    for (const key of Object.keys(USERS) as Key[]) {
      if (key === "notStarted") continue;
      const watched = await t.app.inject({
        method: "POST",
        url: `/api/programs/beginner/modules/${firstModuleId}/watched`,
        headers: { cookie: user(key).cookie },
        payload: {},
      });
      expect(watched.statusCode, watched.body).toBe(200);
    }
  });
  afterAll(() => t.close());

  const answer = (learner: TestUser, option: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/programs/beginner/quiz/answers",
      headers: { cookie: learner.cookie },
      payload: { questionIndex: 0, option },
    });

  it("records each learner's answer and answers each with their own result", async () => {
    const wrongOption = rightOption === "A" ? "B" : "A";
    const chosen: [Key, string][] = [
      ["ama", rightOption],
      ["kofi", wrongOption],
      ["esi", rightOption],
      ["yaw", wrongOption],
      ["akua", rightOption],
      ["kwame", rightOption],
      ["notStarted", rightOption],
    ];
    const responses = await Promise.all(chosen.map(([key, option]) => answer(user(key), option)));

    responses.forEach((response, index) => {
      const [key, option] = chosen[index] ?? [];
      if (key === "notStarted") {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json().error).toMatchObject({ code: "QUIZ_LOCKED", message: LEARNING_MESSAGES.quizLocked(1) });
      } else {
        expect(response.statusCode, `${key}: ${response.body}`).toBe(200);
        expect(response.json().correct, key).toBe(option === rightOption);
      }
    });

    // Each stored once, as that learner's, and read back on their track.
    const ids = chosen.map(([key]) => user(key).id);
    const stored = await t.database.db
      .select({ userId: quizAttempts.userId, option: quizAttempts.option, correct: quizAttempts.correct })
      .from(quizAttempts)
      .where(inArray(quizAttempts.userId, ids));
    const expected = chosen.filter(([key]) => key !== "notStarted").map(([key, option]) => ({ userId: user(key).id, option, correct: option === rightOption }));
    expect(stored).toHaveLength(expected.length);
    expect(stored).toEqual(expect.arrayContaining(expected));
    for (const [key, option] of chosen.filter(([key]) => key !== "notStarted")) {
      const track = await t.app.inject({ url: "/api/programs/beginner", headers: { cookie: user(key).cookie } });
      expect(track.json().quiz.answers, key).toEqual([{ questionIndex: 0, option, correct: option === rightOption }]);
    }
  });

  // The deadlock this rules out needs two connections: PGlite has one.
  it.runIf(onPostgres)("lets two batches naming the same learners in opposite orders both finish", async () => {
    const { db } = t.database;
    const ordered = await db
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, [user("first").id, user("second").id]))
      .orderBy(asc(users.id));
    const [lower, higher] = ordered.map((row) => row.id);
    if (!lower || !higher) throw new Error("the two learners are missing");
    const batch = (ids: string[]) =>
      sql`select outcome from record_quiz_answers(${JSON.stringify(
        ids.map((userId) => ({ userId, programId: "beginner", moduleId: firstModuleId, questionIndex: 1, option: "A", correct: true, nowMs: Date.now() })),
      )}::jsonb, 60000, 5, 20)`;
    const waitingForLocks = async () => {
      const result = await db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return lockWaits.parse(result).rows[0]?.n ?? 0;
    };
    const until = async (condition: () => Promise<boolean>) => {
      for (let i = 0; i < 500 && !(await condition()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    };

    // Another transaction holds the lower learner's progress row: the first batch waits for it;
    // the second, given the higher learner first, would take the higher row and wait for the lower.
    let release = () => {};
    const holding = new Promise<void>((resolve) => (release = resolve));
    let held = () => {};
    const locked = new Promise<void>((resolve) => (held = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from user_progress where user_id = ${lower} and program_id = 'beginner' for update`);
      held();
      await holding;
    });
    await locked;
    // Drizzle sends a query when it is awaited: `then` sends each batch now.
    const firstBatch = db.execute(batch([lower, higher])).then(() => "finished");
    await until(async () => (await waitingForLocks()) >= 1);
    const secondBatch = db.execute(batch([higher, lower])).then(() => "finished");
    await until(async () => (await waitingForLocks()) >= 2);
    release();
    await holder;

    const outcomes = await Promise.allSettled([firstBatch, secondBatch]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled"]);
    const stored = await db
      .select({ userId: quizAttempts.userId })
      .from(quizAttempts)
      .where(sql`${quizAttempts.userId} in (${lower}, ${higher}) and ${quizAttempts.questionIndex} = 1`);
    expect(stored).toHaveLength(4);
  });
});
