import { randomUUID } from "node:crypto";
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRACKS, type Track } from "../../../shared/plans.ts";
import { quizAttempts, quizzes, userProgress } from "../../db/schema.ts";
import { SEED_PROGRAMS } from "../../db/seed-content.ts";
import { createTestUsers, ipAllocator, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { seededModuleIds } from "../../testing/catalog.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(26);

const PREMIUM_ONLY = { error: { code: "PREMIUM_ONLY", message: "Available to Premium users only", requestId: expect.any(String) } };
const NOT_FOUND = { error: { code: "PROGRAM_NOT_FOUND", message: "Program not found.", requestId: expect.any(String) } };
const QUIZ_LOCKED = { error: { code: "QUIZ_LOCKED", message: "Watch Section 1 to unlock this quiz.", requestId: expect.any(String) } };

function seedOf(track: Track) {
  const program = SEED_PROGRAMS.find((p) => p.id === track);
  if (!program) throw new Error(`no seeded program ${track}`);
  return program;
}

/** Every object key anywhere in a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, child]) => [key, ...allKeys(child)]);
  }
  return [];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const inAMonth = new Date(Date.now() + 30 * DAY_MS);
const yesterday = new Date(Date.now() - DAY_MS);

/**
 * Every learner this file needs, made up front and in parallel (each registration waits out the
 * auth library's 500 ms constant-time floor). Each test owns the users it changes.
 */
const USERS = {
  legacyFree: { plan: "legacyFree" },
  noPlan: { plan: null },
  intermediate: { plan: "intermediate", status: "active", subscriptionEnd: inAMonth },
  advanced: { plan: "advanced" },
  admin: { plan: "admin" },
  expiredIntermediate: { plan: "intermediate", status: "active", subscriptionEnd: yesterday },
  inactiveIntermediate: { plan: "intermediate", status: "inactive", subscriptionEnd: inAMonth },
  noAnswers: { plan: "admin" },
  merge: {},
  twice: {},
  newEntry: { plan: "advanced" },
  concurrent: { plan: "advanced" },
  strayModule: { plan: "advanced" },
  replaced: {},
  learnerA: {},
  learnerB: {},
  quizLock: {},
  quizRelock: {},
  quizAnswers: {},
  quizRejected: {},
  summary: { plan: "intermediate" },
  summaryQuizFirst: {},
  summaryAdminEdited: {},
  summaryEmpty: {},
  summaryEmptyProgram: { plan: "advanced" },
  noStore: {},
  upgrade: {},
} satisfies Record<string, TestUserPlan>;
type UserKey = keyof typeof USERS;

/**
 * docs/subscriptions.md, "Plans and tracks": free gets beginner, intermediate adds intermediate,
 * advanced and admin get all.
 */
const ACCESS: { user: UserKey; opens: readonly Track[] }[] = [
  { user: "legacyFree", opens: ["beginner"] },
  { user: "noPlan", opens: ["beginner"] },
  { user: "intermediate", opens: ["beginner", "intermediate"] },
  { user: "advanced", opens: TRACKS },
  { user: "admin", opens: TRACKS },
  { user: "expiredIntermediate", opens: ["beginner"] },
  { user: "inactiveIntermediate", opens: ["beginner"] },
];

describe("learning API", () => {
  let t: TestApp;
  let moduleId: (track: Track, index: number) => string;
  let user: (key: UserKey) => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    moduleId = await seededModuleIds(t);
    user = await createTestUsers(t, nextIp, USERS);
  });
  afterAll(() => t.close());

  /** The seeded lessons to watch or read of the track (not its exercises, which are passed), in order. */
  function moduleIdsOf(track: Track): string[] {
    return (SEED_PROGRAMS.find((program) => program.id === track)?.modules ?? []).flatMap((module, index) => (module.exercise ? [] : [moduleId(track, index)]));
  }


  function call(user: TestUser | null, options: InjectOptions) {
    return t.app.inject({ ...options, headers: { ...options.headers, ...(user ? { cookie: user.cookie } : {}) } });
  }

  const getTrack = (user: TestUser | null, track: string) =>
    call(user, { method: "GET", url: `/api/programs/${encodeURIComponent(track)}` });
  const watch = (user: TestUser | null, track: string, module: string, payload: object = {}) =>
    call(user, {
      method: "POST",
      url: `/api/programs/${encodeURIComponent(track)}/modules/${encodeURIComponent(module)}/watched`,
      payload,
    });
  const answer = (user: TestUser | null, track: string, payload: unknown) =>
    call(user, {
      method: "POST",
      url: `/api/programs/${encodeURIComponent(track)}/quiz/answers`,
      payload: payload as object,
    });
  const getProgress = (user: TestUser | null) => call(user, { method: "GET", url: "/api/progress" });

  async function progressRows(userId: string) {
    return t.database.db
      .select({ programId: userProgress.programId, data: userProgress.data, updatedAt: userProgress.updatedAt })
      .from(userProgress)
      .where(eq(userProgress.userId, userId))
      .orderBy(asc(userProgress.programId));
  }

  async function progressData(userId: string, track: Track): Promise<unknown> {
    const rows = await progressRows(userId);
    return rows.find((row) => row.programId === track)?.data;
  }

  async function attemptCount(userId: string): Promise<number> {
    const [row] = await t.database.db
      .select({ n: count() })
      .from(quizAttempts)
      .where(eq(quizAttempts.userId, userId));
    return row?.n ?? 0;
  }

  async function replaceProgress(userId: string, track: Track, json: string) {
    await t.database.db.execute(
      sql`update user_progress set data = ${json}::jsonb
          where user_id = ${userId} and program_id = ${track}`,
    );
  }

  describe("who may open which track", () => {
    const matrix = ACCESS.flatMap(({ user: key, opens }) =>
      TRACKS.map((track) => ({ key, track, allowed: opens.includes(track) })),
    );

    it.each(matrix)("$key on $track: allowed $allowed", async ({ key, track, allowed }) => {
      const response = await getTrack(user(key), track);
      const seed = seedOf(track);
      if (allowed) {
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json();
        expect(body.program).toEqual({
          id: track,
          level: track,
          title: seed.title,
          duration: seed.duration,
          description: seed.description,
        });
        expect(body.modules).toEqual(
          // The list carries no notes: a lesson's notes come with the lesson.
          seed.modules.map(({ title, description, youtubeId, exercise }, index) => ({
            id: moduleId(track, index),
            title,
            description,
            youtubeId,
            freePreview: false,
            ...(exercise ? { exercise: exercise.kind } : {}),
          })),
        );
        // The options in the attempt's order, each with its letter; no explanation before an answer.
        const sorted = <Q extends { options: string[] }>(question: Q) => ({ ...question, options: [...question.options].sort() });
        expect(body.quiz.questions.map(sorted)).toEqual(
          seed.quiz.questions.map(({ question, options }) => sorted({ question, options, explanation: null })),
        );
      } else {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json()).toEqual(PREMIUM_ONLY);
        for (const m of seed.modules) expect(response.body).not.toContain(m.youtubeId);
        for (const m of seed.modules) expect(response.body).not.toContain(m.title);
      }
    });

    it.each(["expert", "../x", "Beginner", "__proto__", "constructor", "beginner "])(
      "answers 404 Program not found. for the unknown track %j",
      async (track) => {
        const response = await getTrack(user("admin"), track);
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      },
    );

    it("answers 404 for an unknown track before telling a free user it is premium", async () => {
      const response = await getTrack(user("legacyFree"), "expert");
      expect(response.json()).toEqual(NOT_FOUND);
    });

    it.each<[string, InjectOptions]>([
      ["GET /api/progress", { method: "GET", url: "/api/progress" }],
      ["GET /api/programs/beginner", { method: "GET", url: "/api/programs/beginner" }],
      ["GET /api/programs/expert", { method: "GET", url: "/api/programs/expert" }],
      [
        "POST watched",
        { method: "POST", url: `/api/programs/beginner/modules/${randomUUID()}/watched`, payload: {} },
      ],
      [
        "POST quiz answers",
        { method: "POST", url: "/api/programs/beginner/quiz/answers", payload: { questionIndex: 0, option: "A" } },
      ],
    ])("answers 401 without a session: %s", async (_name, options) => {
      const response = await t.app.inject(options);
      expect(response.statusCode, response.body).toBe(401);
      expect(response.json().error.code).toBe("UNAUTHENTICATED");
      expect(response.body).not.toMatch(/youtubeId/);
    });

    it("answers 401 for a session cookie that is not a session", async () => {
      const response = await t.app.inject({
        method: "GET",
        url: "/api/programs/beginner",
        headers: { cookie: "ta.session_token=forged.value" },
      });
      expect(response.statusCode).toBe(401);
    });

    it("answers 403 without any youtubeId when marking a video of a closed track", async () => {
      for (const track of ["intermediate", "advanced"] as const) {
        const response = await watch(user("expiredIntermediate"), track, moduleId(track, 0));
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(PREMIUM_ONLY);
        for (const m of seedOf(track).modules) expect(response.body).not.toContain(m.youtubeId);
      }
    });
  });

  describe("quiz answers never reach a learner", () => {
    it("no response of any learner endpoint has an answer key", async () => {
      const admin = user("noAnswers");
      const bodies: unknown[] = [];
      const record = async (response: { statusCode: number; body: string; json(): unknown }) => {
        expect(response.statusCode).toBeLessThan(500);
        bodies.push(response.json());
      };

      await record(await call(admin, { method: "GET", url: "/api/programs" }));
      await record(await getProgress(admin));
      for (const track of TRACKS) {
        await record(await getTrack(admin, track));
        await record(await answer(admin, track, { questionIndex: 0, option: "A" })); // locked
        await record(await watch(admin, track, moduleId(track, 0)));
        await record(await getTrack(admin, track));
        for (const [index, question] of seedOf(track).quiz.questions.entries()) {
          const wrong = ["A", "B", "C", "D"].find((letter) => letter !== question.answer);
          await record(await answer(admin, track, { questionIndex: index, option: question.answer }));
          await record(await answer(admin, track, { questionIndex: index, option: wrong }));
        }
        await record(await getTrack(admin, track));
      }
      await record(await getProgress(admin));

      expect(bodies).toHaveLength(3 + TRACKS.length * 11);
      for (const body of bodies) expect(allKeys(body)).not.toContain("answer");
    });
  });

  describe("mark as watched", () => {
    it("merges each video into the progress entry", async () => {
      const learner = user("merge");
      expect(await progressData(learner.id, "beginner")).toEqual({}); // created at signup

      const first = await watch(learner, "beginner", moduleId("beginner", 1));
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ watched: [moduleId("beginner", 1)] });

      const second = await watch(learner, "beginner", moduleId("beginner", 0));
      expect(second.json()).toMatchObject({ watched: [moduleId("beginner", 0), moduleId("beginner", 1)] });
      expect(await progressData(learner.id, "beginner")).toEqual({
        [moduleId("beginner", 0)]: true,
        [moduleId("beginner", 1)]: true,
      });

      const track = await getTrack(learner, "beginner");
      expect(track.json().watched).toEqual([moduleId("beginner", 0), moduleId("beginner", 1)]);
    });

    it("twice is the same as once", async () => {
      const learner = user("twice");
      const once = await watch(learner, "beginner", moduleId("beginner", 2));
      const dataOnce = await progressData(learner.id, "beginner");
      const twice = await watch(learner, "beginner", moduleId("beginner", 2));
      expect(twice.statusCode).toBe(200);
      expect(twice.json()).toEqual(once.json());
      expect(await progressData(learner.id, "beginner")).toEqual(dataOnce);
      expect(dataOnce).toEqual({ [moduleId("beginner", 2)]: true });
      expect((await getTrack(learner, "beginner")).json().watched).toEqual([moduleId("beginner", 2)]);
    });

    it("creates the entry of a track the learner had none for", async () => {
      const learner = user("newEntry");
      expect((await progressRows(learner.id)).map((row) => row.programId)).toEqual(["beginner"]);
      const response = await watch(learner, "advanced", moduleId("advanced", 0));
      expect(response.json()).toMatchObject({ watched: [moduleId("advanced", 0)] });
      expect(await progressData(learner.id, "advanced")).toEqual({ [moduleId("advanced", 0)]: true });
    });

    it("keeps every video when several are marked at once", async () => {
      const learner = user("concurrent");
      const responses = await Promise.all(
        moduleIdsOf("intermediate").map((id) => watch(learner, "intermediate", id)),
      );
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      expect((await getTrack(learner, "intermediate")).json().watched).toEqual(moduleIdsOf("intermediate"));
      expect(await progressData(learner.id, "intermediate")).toEqual(
        Object.fromEntries(moduleIdsOf("intermediate").map((id) => [id, true])),
      );
    });

    it.each([
      ["an unknown module id", () => randomUUID()],
      ["a module id that is not a uuid", () => "not-a-module"],
      ["a module of another track", () => moduleId("intermediate", 0)],
    ])("answers 404 for %s and writes nothing", async (_name, makeId) => {
      const learner = user("strayModule");
      await watch(learner, "beginner", moduleId("beginner", 0));
      const before = await progressRows(learner.id);

      const response = await watch(learner, "beginner", makeId());
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual({
        error: { code: "MODULE_NOT_FOUND", message: "This video is not part of the program.", requestId: expect.any(String) },
      });
      expect(await progressRows(learner.id)).toEqual(before);
    });

    it("answers 404 for a module on an unknown track", async () => {
      const learner = user("strayModule");
      const before = await progressRows(learner.id);
      const response = await watch(learner, "expert", moduleId("beginner", 2));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
      expect(await progressRows(learner.id)).toEqual(before);
    });

    it("answers 403 for a track the plan does not open and writes nothing", async () => {
      const learner = user("legacyFree");
      const before = await progressRows(learner.id);
      for (const track of ["intermediate", "advanced"] as const) {
        const response = await watch(learner, track, moduleId(track, 0));
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json()).toEqual(PREMIUM_ONLY);
      }
      expect(await progressRows(learner.id)).toEqual(before);
    });

    it.each([
      ["text", '"some text"'],
      ["a JSON array", '["x", "y"]'],
      ["JSON null", "null"],
      ["a number", "42"],
    ])("replaces an entry an admin set to %s with a fresh map", async (_name, json) => {
      const learner = user("replaced");
      await watch(learner, "beginner", moduleId("beginner", 0));
      await replaceProgress(learner.id, "beginner", json);
      expect((await getTrack(learner, "beginner")).json().watched).toEqual([]);

      const response = await watch(learner, "beginner", moduleId("beginner", 1));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ watched: [moduleId("beginner", 1)] });
      expect(await progressData(learner.id, "beginner")).toEqual({ [moduleId("beginner", 1)]: true });
    });

    it("keeps what an admin stored alongside the watched map", async () => {
      const learner = user("replaced");
      await replaceProgress(learner.id, "beginner", JSON.stringify({ note: "caught up in class", [moduleId("beginner", 0)]: true }));
      const response = await watch(learner, "beginner", moduleId("beginner", 2));
      expect(response.json()).toMatchObject({ watched: [moduleId("beginner", 0), moduleId("beginner", 2)] });
      expect(await progressData(learner.id, "beginner")).toEqual({
        note: "caught up in class",
        [moduleId("beginner", 0)]: true,
        [moduleId("beginner", 2)]: true,
      });
    });
  });

  describe("one learner's progress is theirs alone", () => {
    let a: TestUser;
    let b: TestUser;
    beforeAll(async () => {
      a = user("learnerA");
      b = user("learnerB");
      await watch(a, "beginner", moduleId("beginner", 0));
      await watch(a, "beginner", moduleId("beginner", 1));
      await answer(a, "beginner", { questionIndex: 0, option: "A" });
    });

    it("B sees B's own empty progress after A watched", async () => {
      const track = await getTrack(b, "beginner");
      expect(track.json().watched).toEqual([]);
      expect(track.json().quiz).toMatchObject({ unlocked: false, answers: [] });
      expect((await getProgress(b)).json()).toEqual({
        programs: { beginner: expect.objectContaining({ watched: 0, percent: 0, lastStudiedAt: null, complete: false }) },
        next: { kind: "start", programId: "beginner", bought: false },
      });
    });

    it("a userId in the query string reads nothing of A's", async () => {
      const track = await call(b, { method: "GET", url: `/api/programs/beginner?userId=${a.id}` });
      expect(track.statusCode).toBe(200);
      expect(track.json().watched).toEqual([]);
      expect(track.json().quiz.answers).toEqual([]);
      const progress = await call(b, { method: "GET", url: `/api/progress?userId=${a.id}` });
      expect(progress.json()).toEqual({
        programs: { beginner: expect.objectContaining({ watched: 0, percent: 0, lastStudiedAt: null, complete: false }) },
        next: { kind: "start", programId: "beginner", bought: false },
      });
    });

    it("a userId in the body or query writes B's row, never A's", async () => {
      const aBefore = await progressRows(a.id);
      const aAttempts = await attemptCount(a.id);

      const response = await call(b, {
        method: "POST",
        url: `/api/programs/beginner/modules/${moduleId("beginner", 2)}/watched?userId=${a.id}`,
        payload: { userId: a.id },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ watched: [moduleId("beginner", 2)] });
      expect(await progressData(b.id, "beginner")).toEqual({ [moduleId("beginner", 2)]: true });

      // A has opened the quiz, B has not: answering "as A" is judged on B's own progress.
      const quiz = await answer(b, "beginner", { questionIndex: 1, option: "B", userId: a.id });
      expect(quiz.json()).toEqual(QUIZ_LOCKED);
      expect(await attemptCount(b.id)).toBe(0);

      expect(await progressRows(a.id)).toEqual(aBefore);
      expect(await attemptCount(a.id)).toBe(aAttempts);
      expect((await getTrack(a, "beginner")).json().watched).toEqual([moduleId("beginner", 0), moduleId("beginner", 1)]);
    });
  });

  describe("the quiz", () => {
    const questions = seedOf("beginner").quiz.questions;
    beforeAll(async () => {
      await watch(user("quizRejected"), "beginner", moduleId("beginner", 0));
    });

    it("is locked until the first video is watched", async () => {
      const learner = user("quizLock");
      const before = (await getTrack(learner, "beginner")).json();
      expect(before.quiz).toMatchObject({
        title: seedOf("beginner").quiz.title,
        moduleId: moduleId("beginner", 0),
        section: 1,
        unlocked: false,
        answers: [],
      });

      const locked = await answer(learner, "beginner", { questionIndex: 0, option: questions[0]?.answer });
      expect(locked.statusCode, locked.body).toBe(403);
      expect(locked.json()).toEqual(QUIZ_LOCKED);
      expect(await attemptCount(learner.id)).toBe(0);

      // Another video does not open it: the quiz belongs to the first.
      await watch(learner, "beginner", moduleId("beginner", 1));
      expect((await getTrack(learner, "beginner")).json().quiz.unlocked).toBe(false);
      expect((await answer(learner, "beginner", { questionIndex: 0, option: "A" })).json()).toEqual(QUIZ_LOCKED);
      expect(await attemptCount(learner.id)).toBe(0);

      await watch(learner, "beginner", moduleId("beginner", 0));
      expect((await getTrack(learner, "beginner")).json().quiz.unlocked).toBe(true);
    });

    it("locks again when an admin clears the progress entry", async () => {
      const learner = user("quizRelock");
      await watch(learner, "beginner", moduleId("beginner", 0));
      await replaceProgress(learner.id, "beginner", '"reset by admin"');
      expect((await answer(learner, "beginner", { questionIndex: 0, option: "A" })).json()).toEqual(QUIZ_LOCKED);
    });

    it("says Correct or Incorrect, records every attempt and shows the latest per question", async () => {
      const learner = user("quizAnswers");
      await watch(learner, "beginner", moduleId("beginner", 0));

      const tries: { questionIndex: number; option: string; correct: boolean }[] = [];
      for (const [questionIndex, question] of questions.entries()) {
        const wrong = ["A", "B", "C", "D"].find((letter) => letter !== question.answer) ?? "";
        for (const [option, correct] of [
          [wrong, false],
          [question.answer, true],
        ] as const) {
          const response = await answer(learner, "beginner", { questionIndex, option });
          expect(response.statusCode, response.body).toBe(200);
          expect(response.json()).toMatchObject({ correct, message: correct ? "Correct" : "Incorrect" });
          tries.push({ questionIndex, option, correct });
        }
      }
      // The last question is answered wrongly again after the right answer.
      const lastIndex = questions.length - 1;
      const relapse = await answer(learner, "beginner", { questionIndex: lastIndex, option: "D" });
      expect(relapse.json()).toMatchObject({ correct: false, message: "Incorrect" });

      const rows = await t.database.db
        .select({ questionIndex: quizAttempts.questionIndex, option: quizAttempts.option, correct: quizAttempts.correct })
        .from(quizAttempts)
        .where(and(eq(quizAttempts.userId, learner.id), eq(quizAttempts.programId, "beginner")))
        .orderBy(asc(quizAttempts.id));
      expect(rows).toEqual([...tries, { questionIndex: lastIndex, option: "D", correct: false }]);

      const quiz = (await getTrack(learner, "beginner")).json().quiz;
      expect(quiz.answers).toEqual(
        questions.map((question, questionIndex) =>
          questionIndex === lastIndex
            ? { questionIndex, option: "D", correct: false }
            : { questionIndex, option: question.answer, correct: true },
        ),
      );
    });

    it.each([
      ["a question index out of range", { questionIndex: 3, option: "A" }],
      ["a far question index", { questionIndex: 999, option: "A" }],
      ["an option letter not in the question", { questionIndex: 0, option: "E" }],
      ["the letter Z", { questionIndex: 1, option: "Z" }],
    ])("answers 404 for %s and records nothing", async (_name, payload) => {
      const learner = user("quizRejected");
      const response = await answer(learner, "beginner", payload);
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual({
        error: { code: "QUESTION_NOT_FOUND", message: "This question is not part of the quiz.", requestId: expect.any(String) },
      });
      expect(await attemptCount(learner.id)).toBe(0);
    });

    it("answers 403 for the quiz of a track the plan does not open, 404 for an unknown track", async () => {
      const learner = user("quizRejected");
      const closed = await answer(learner, "advanced", { questionIndex: 0, option: "B" });
      expect(closed.statusCode).toBe(403);
      expect(closed.json()).toEqual(PREMIUM_ONLY);
      const unknown = await answer(learner, "expert", { questionIndex: 0, option: "B" });
      expect(unknown.json()).toEqual(NOT_FOUND);
      expect(await attemptCount(learner.id)).toBe(0);
    });

    describe("malformed bodies are a 400, never a 5xx", () => {
      const learner = () => user("quizRejected");

      it.each<[string, unknown]>([
        ["two letters", { questionIndex: 0, option: "AB" }],
        ["a lowercase letter", { questionIndex: 0, option: "a" }],
        ["an empty option", { questionIndex: 0, option: "" }],
        ["the whole option text", { questionIndex: 0, option: "A) The range between the open and the close" }],
        ["a numeric option", { questionIndex: 0, option: 1 }],
        ["a negative index", { questionIndex: -1, option: "A" }],
        ["a fractional index", { questionIndex: 0.5, option: "A" }],
        ["an index as a string", { questionIndex: "0", option: "A" }],
        ["a huge index", { questionIndex: 1e20, option: "A" }],
        ["a missing option", { questionIndex: 0 }],
        ["a missing index", { option: "A" }],
        ["an empty object", {}],
        ["an array", [0, "A"]],
        ["null index", { questionIndex: null, option: "A" }],
      ])("%s", async (_name, payload) => {
        const response = await answer(learner(), "beginner", payload);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual({ error: { code: "VALIDATION", message: expect.any(String), requestId: expect.any(String) } });
        expect(await attemptCount(learner().id)).toBe(0);
      });

      it.each<[string, InjectOptions]>([
        ["no body", { method: "POST", url: "/api/programs/beginner/quiz/answers" }],
        [
          "invalid JSON",
          {
            method: "POST",
            url: "/api/programs/beginner/quiz/answers",
            headers: { "content-type": "application/json" },
            payload: '{"questionIndex": 0, "option": ',
          },
        ],
        [
          "JSON null",
          {
            method: "POST",
            url: "/api/programs/beginner/quiz/answers",
            headers: { "content-type": "application/json" },
            payload: "null",
          },
        ],
        [
          "a text/plain body",
          {
            method: "POST",
            url: "/api/programs/beginner/quiz/answers",
            headers: { "content-type": "text/plain" },
            payload: "questionIndex=0&option=A",
          },
        ],
      ])("%s", async (_name, options) => {
        const response = await call(learner(), options);
        expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, response.body).toBeLessThan(500);
        expect(response.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String), requestId: expect.any(String) } });
        expect(await attemptCount(learner().id)).toBe(0);
      });
    });
  });

  describe("GET /api/progress", () => {
    /** A program's progress as the summary sends it, from the seeded content. */
    function expected(track: Track, watched: number[], quizPassed: boolean, lastStudiedAt: unknown = null) {
      const seed = seedOf(track);
      const unwatched = seed.modules.findIndex((_, index) => !watched.includes(index));
      const next =
        unwatched >= 0
          ? { lessonId: moduleId(track, unwatched), title: seed.modules[unwatched]?.title, kind: "video" }
          : quizPassed
            ? null
            : { lessonId: moduleId(track, 0), title: seed.quiz.title, kind: "quiz" };
      const steps = seed.modules.length + 1;
      return {
        watched: watched.length,
        total: seed.modules.length,
        quizPassed,
        percent: Math.floor(((watched.length + (quizPassed ? 1 : 0)) * 100) / steps),
        next,
        lastStudiedAt,
        complete: watched.length === seed.modules.length && quizPassed,
      };
    }

    async function passQuiz(learner: TestUser, track: Track) {
      for (const [questionIndex, question] of seedOf(track).quiz.questions.entries()) {
        const response = await answer(learner, track, { questionIndex, option: question.answer });
        expect(response.json()).toMatchObject({ correct: true });
      }
    }

    it("gives every program the plan opens: videos watched, percent of the steps and the next one", async () => {
      const learner = user("summary");
      const before = await getProgress(learner);
      expect(before.statusCode).toBe(200);
      expect(before.headers["cache-control"]).toBe("no-store");
      expect(before.json()).toEqual({
        programs: { beginner: expected("beginner", [], false), intermediate: expected("intermediate", [], false) },
        next: expect.any(Object),
      });

      const startedAt = Date.now();
      await watch(learner, "beginner", moduleId("beginner", 0));
      await watch(learner, "beginner", moduleId("beginner", 2));
      await watch(learner, "beginner", moduleId("beginner", 2));
      await watch(learner, "intermediate", moduleId("intermediate", 1));
      const studied = expect.any(String);
      expect((await getProgress(learner)).json()).toEqual({
        programs: {
          beginner: expected("beginner", [0, 2], false, studied),
          intermediate: expected("intermediate", [1], false, studied),
        },
        next: expect.any(Object),
      });
      const { beginner } = (await getProgress(learner)).json().programs;
      expect(beginner.percent).toBe(50);
      expect(Date.parse(beginner.lastStudiedAt)).toBeGreaterThanOrEqual(startedAt - 1000);

      // Every video watched: the quiz is what is left, under the first lesson.
      await watch(learner, "beginner", moduleId("beginner", 1));
      const videosDone = (await getProgress(learner)).json().programs.beginner;
      expect(videosDone).toEqual(expected("beginner", [0, 1, 2], false, studied));
      expect(videosDone).toMatchObject({ percent: 75, next: { kind: "quiz", lessonId: moduleId("beginner", 0) } });

      await passQuiz(learner, "beginner");
      const passed = (await getProgress(learner)).json().programs.beginner;
      expect(passed).toEqual(expected("beginner", [0, 1, 2], true, studied));
      expect(passed).toMatchObject({ percent: 100, next: null });
      expect(Date.parse(passed.lastStudiedAt)).toBeGreaterThanOrEqual(Date.parse(videosDone.lastStudiedAt));

      // The attempt's first answers count: a wrong answer after them leaves the quiz passed.
      await answer(learner, "beginner", { questionIndex: 0, option: "D" });
      expect((await getProgress(learner)).json().programs.beginner).toEqual(expected("beginner", [0, 1, 2], true, studied));
    });

    it("passing the quiz before the last video leaves that video as the next step", async () => {
      const learner = user("summaryQuizFirst");
      await watch(learner, "beginner", moduleId("beginner", 0));
      await passQuiz(learner, "beginner");
      expect((await getProgress(learner)).json().programs.beginner).toEqual(
        expected("beginner", [0], true, expect.any(String)),
      );
      expect((await getProgress(learner)).json().programs.beginner.percent).toBe(50);
    });

    it("leaves out the programs the plan does not open, even with progress kept from an ended plan", async () => {
      const learner = user("expiredIntermediate");
      await t.database.db
        .insert(userProgress)
        .values({ userId: learner.id, programId: "intermediate", data: { [moduleId("intermediate", 0)]: true } })
        .onConflictDoNothing();
      const response = (await getProgress(learner)).json();
      expect(Object.keys(response.programs)).toEqual(["beginner"]);
      expect(JSON.stringify(response)).not.toContain(seedOf("intermediate").modules[1]?.title);
    });

    it("counts only watched ids of modules that exist", async () => {
      const learner = user("summaryAdminEdited");
      await replaceProgress(
        learner.id,
        "beginner",
        JSON.stringify({
          [moduleId("beginner", 0)]: true,
          [moduleId("beginner", 1)]: false,
          [moduleId("beginner", 2)]: "true",
          [moduleId("intermediate", 0)]: true,
          [randomUUID()]: true,
          removed: true,
        }),
      );
      expect((await getProgress(learner)).json()).toEqual({
        programs: { beginner: expected("beginner", [0], false, expect.any(String)) },
        next: expect.any(Object),
      });
      expect((await getTrack(learner, "beginner")).json().watched).toEqual([moduleId("beginner", 0)]);
    });

    it("counts an entry an admin set to text as nothing watched", async () => {
      const learner = user("summaryAdminEdited");
      await watch(learner, "beginner", moduleId("beginner", 0));
      await replaceProgress(learner.id, "beginner", '"some text"');
      expect((await getProgress(learner)).json()).toEqual({ programs: { beginner: expected("beginner", [], false) }, next: expect.any(Object) });
    });

    it("gives a program without a progress entry from its start", async () => {
      const learner = user("summaryEmpty");
      await t.database.db.delete(userProgress).where(eq(userProgress.userId, learner.id));
      expect((await getProgress(learner)).json()).toEqual({ programs: { beginner: expected("beginner", [], false) }, next: expect.any(Object) });
    });

    it("a program without a quiz counts its videos alone", async () => {
      const learner = user("summaryEmptyProgram");
      await watch(learner, "advanced", moduleId("advanced", 0));
      await t.database.db.delete(quizzes).where(eq(quizzes.programId, "advanced"));
      t.services.catalog.invalidate();
      try {
        const advanced = (await getProgress(learner)).json().programs.advanced;
        const videos = seedOf("advanced").modules.length;
        expect(advanced).toMatchObject({
          watched: 1,
          total: videos,
          quizPassed: null,
          percent: Math.floor(100 / videos),
          next: { lessonId: moduleId("advanced", 1), kind: "video" },
        });
      } finally {
        await t.database.db.insert(quizzes).values({ programId: "advanced", ...seedOf("advanced").quiz });
        t.services.catalog.invalidate();
      }
    });
  });

  it("learner responses are never cached", async () => {
    const learner = user("noStore");
    const responses = await Promise.all([
      getTrack(learner, "beginner"),
      getTrack(learner, "advanced"),
      watch(learner, "beginner", moduleId("beginner", 0)),
      getProgress(learner),
    ]);
    for (const response of responses) expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("the plan of a learner is read at each request, not fixed at sign-in", async () => {
    const learner = user("upgrade");
    expect((await getTrack(learner, "intermediate")).statusCode).toBe(403);
    await t.database.db.execute(
      sql`update users set subscription_plan = 'intermediate', subscription_status = 'active',
          subscription_end = now() + interval '1 month' where id = ${learner.id}`,
    );
    expect((await getTrack(learner, "intermediate")).statusCode).toBe(200);
  });
});

