// The Programs tab's API: what an administrator saves is what the list, the quiz editor and the
// learners then see. (401/403 for every admin route are checked in admin-guard.api.test.ts.)
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_MESSAGES,
  type AdminProgram,
  type AdminQuiz,
  type CreateProgramInput,
  type ProgramFields,
} from "../../../shared/contracts/admin.ts";
import type { TrackDetail } from "../../../shared/contracts/learning.ts";
import type { Track } from "../../../shared/plans.ts";
import { auditLog, modules, programs, quizAttempts, quizzes, userProgress } from "../../db/schema.ts";
import { SEED_PROGRAMS } from "../../db/seed-content.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(51);

const VIDEO = "dQw4w9WgXcQ";
const OTHER_VIDEO = "a-b_c-d_e-f";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const invalid = (message: string) => ({ error: { code: "VALIDATION", message, requestId: expect.any(String) } });
const NOT_FOUND = { error: { code: "PROGRAM_NOT_FOUND", message: ADMIN_MESSAGES.programNotFound, requestId: expect.any(String) } };

/** A complete Save Program form; `overrides` replace fields. */
function programForm(overrides: Partial<ProgramFields> = {}): ProgramFields {
  return {
    title: "Options Trading",
    duration: "6 weeks",
    priceUsd: 50,
    order: 3,
    description: ["Calls and puts", "The Greeks"],
    modules: [{ title: "What an option is", description: "Rights, not obligations.", youtubeId: VIDEO }],
    ...overrides,
  };
}

const QUIZ: AdminQuiz = {
  title: "Options Quiz",
  questions: [
    { question: "What does a call give you?", options: ["A) The right to buy", "B) The duty to sell"], answer: "A" },
    { question: "Which Greek measures time decay?", options: ["A) Delta", "B) Theta", "C) Vega"], answer: "B" },
  ],
};

/** Every object key anywhere in a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, child]) => [key, ...allKeys(child)]);
  }
  return [];
}

describe("admin programs API", () => {
  let t: TestApp;
  let user: (key: "admin" | "learner" | "cascadeA" | "cascadeB") => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, {
      admin: { plan: "admin" },
      learner: { plan: "advanced" },
      cascadeA: { plan: "advanced" },
      cascadeB: { plan: "advanced" },
    });
  });
  afterAll(() => t.close());

  function call(who: TestUser, options: InjectOptions) {
    return t.app.inject({ ...options, headers: { ...options.headers, cookie: who.cookie } });
  }
  const admin = (options: InjectOptions) => call(user("admin"), options);

  async function listPrograms(): Promise<AdminProgram[]> {
    const response = await admin({ method: "GET", url: "/api/admin/programs" });
    expect(response.statusCode).toBe(200);
    return response.json<{ programs: AdminProgram[] }>().programs;
  }

  async function programOf(track: Track): Promise<AdminProgram> {
    const program = (await listPrograms()).find((p) => p.id === track);
    if (!program) throw new Error(`no program ${track}`);
    return program;
  }

  const createProgram = (payload: CreateProgramInput | Record<string, unknown>) =>
    admin({ method: "POST", url: "/api/admin/programs", payload });
  const updateProgram = (id: string, payload: ProgramFields) =>
    admin({ method: "PUT", url: `/api/admin/programs/${encodeURIComponent(id)}`, payload });
  const deleteProgram = (id: string) => admin({ method: "DELETE", url: `/api/admin/programs/${encodeURIComponent(id)}` });
  /** Publishes what is a draft in the program: what learners see of an admin's additions. */
  async function publish(id: string) {
    const response = await admin({ method: "POST", url: `/api/admin/programs/${encodeURIComponent(id)}/publish` });
    expect(response.statusCode, response.body).toBe(200);
  }
  const getQuiz = (id: string) => admin({ method: "GET", url: `/api/admin/programs/${encodeURIComponent(id)}/quiz` });
  const saveQuiz = (id: string, payload: unknown) =>
    admin({ method: "PUT", url: `/api/admin/programs/${encodeURIComponent(id)}/quiz`, payload: payload as object });

  async function trackAsLearner(who: TestUser, track: Track) {
    return call(who, { method: "GET", url: `/api/programs/${track}` });
  }

  async function learnerTrack(who: TestUser, track: Track): Promise<TrackDetail> {
    const response = await trackAsLearner(who, track);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TrackDetail>();
  }

  /** The learner watches the track's first video and answers its first question with A. */
  async function watchAndAnswer(who: TestUser, track: Track) {
    const detail = await learnerTrack(who, track);
    const moduleId = detail.quiz?.moduleId;
    if (!moduleId) throw new Error(`${track} has no quiz`);
    const watched = await call(who, { method: "POST", url: `/api/programs/${track}/modules/${moduleId}/watched`, payload: {} });
    expect(watched.statusCode).toBe(200);
    const answered = await call(who, {
      method: "POST",
      url: `/api/programs/${track}/quiz/answers`,
      payload: { questionIndex: 0, option: "A" },
    });
    expect(answered.statusCode).toBe(200);
  }

  async function auditEntries(action: string) {
    return t.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));
  }

  it("lists the seeded programs by display order, with their modules and question counts", async () => {
    const listed = await listPrograms();
    expect(listed.map((p) => p.id)).toEqual(["beginner", "intermediate", "advanced"]);
    for (const seed of SEED_PROGRAMS) {
      const program = listed.find((p) => p.id === seed.id);
      const moduleRows = await t.database.db
        .select({ id: modules.id })
        .from(modules)
        .where(eq(modules.programId, seed.id))
        .orderBy(asc(modules.position));
      expect(program).toEqual({
        id: seed.id,
        level: seed.id,
        archived: false,
        draft: false,
        title: seed.title,
        duration: seed.duration,
        priceUsd: seed.priceUsdCents === null ? null : seed.priceUsdCents / 100,
        order: seed.order,
        description: seed.description,
        modules: seed.modules.map((module, index) => ({
          title: module.title,
          description: module.description,
          youtubeId: module.youtubeId,
          id: moduleRows[index]?.id,
          notes: module.notes ?? "",
          freePreview: false,
          draft: false,
          attachments: [],
          exercise: module.exercise ? { ...module.exercise, dataSetId: expect.any(String) } : null,
        })),
        questionCount: seed.quiz.questions.length,
        draftQuestionCount: 0,
        updatedAt: expect.any(String),
      });
    }
    expect(listed.find((p) => p.id === "intermediate")?.priceUsd).toBe(35);
  });

  describe("Save Program refuses what the form must not send", () => {
    it.each<[string, Record<string, unknown>, string]>([
      ["a blank id", { id: "  " }, ADMIN_MESSAGES.programRequired],
      ["a blank title", { title: "" }, ADMIN_MESSAGES.programRequired],
      ["a title of spaces", { title: "   " }, ADMIN_MESSAGES.programRequired],
      ["a blank duration", { duration: "" }, ADMIN_MESSAGES.programRequired],
      ["an id in capitals", { id: "Advanced" }, ADMIN_MESSAGES.programIdInvalid],
      ["an id with spaces", { id: "risk management" }, ADMIN_MESSAGES.programIdInvalid],
      ["an id that leaves its path", { id: "../admin" }, ADMIN_MESSAGES.programIdInvalid],
      ["an id the site's addresses keep", { id: "preview" }, ADMIN_MESSAGES.programIdReserved("preview")],
      ["a level's own id in another level", { id: "advanced", level: "beginner" }, ADMIN_MESSAGES.levelOfSeededId("advanced")],
      ["no level", { level: undefined }, ADMIN_MESSAGES.levelRequired],
      ["a level that is not one", { level: "expert" }, ADMIN_MESSAGES.levelRequired],
      ["a negative price", { priceUsd: -1 }, ADMIN_MESSAGES.priceInvalid],
      ["a price as text", { priceUsd: "35" }, ADMIN_MESSAGES.priceInvalid],
      ["a fractional order", { order: 1.5 }, ADMIN_MESSAGES.orderInvalid],
      ["a module without a title", { modules: [{ title: " ", youtubeId: VIDEO }] }, ADMIN_MESSAGES.moduleRequired],
      ["a module without a video", { modules: [{ title: "Intro", youtubeId: "" }] }, ADMIN_MESSAGES.moduleRequired],
      ["a video that is not YouTube's", { modules: [{ title: "Intro", youtubeId: "https://vimeo.com/123" }] }, ADMIN_MESSAGES.youtubeIdInvalid],
      ["a malformed video id", { modules: [{ title: "Intro", youtubeId: "dQw4w9" }] }, ADMIN_MESSAGES.youtubeIdInvalid],
    ])("on create: %s", async (_name, overrides, message) => {
      const response = await createProgram({ id: "advanced", level: "advanced", ...programForm(), ...overrides });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalid(message));
    });

    it("on edit: the same field rules", async () => {
      const before = await programOf("beginner");
      const cases: [Partial<ProgramFields>, string][] = [
        [{ title: "" }, ADMIN_MESSAGES.programRequired],
        [{ duration: " " }, ADMIN_MESSAGES.programRequired],
        [{ priceUsd: -0.01 }, ADMIN_MESSAGES.priceInvalid],
        [{ modules: [{ title: "Intro", youtubeId: "watch?v=nope" }] }, ADMIN_MESSAGES.youtubeIdInvalid],
      ];
      for (const [overrides, message] of cases) {
        const response = await updateProgram("beginner", programForm(overrides));
        expect(response.json(), JSON.stringify(overrides)).toEqual(invalid(message));
        expect(response.statusCode).toBe(400);
      }
      expect(await programOf("beginner")).toEqual(before);
    });

    it("answers 409 for an id that already has a program, and changes nothing", async () => {
      const before = await programOf("beginner");
      const response = await createProgram({ id: "beginner", level: "beginner", ...programForm() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: { code: "PROGRAM_EXISTS", message: ADMIN_MESSAGES.programExists, requestId: expect.any(String) } });
      expect(await programOf("beginner")).toEqual(before);
    });

    it("refuses a module id of another program, or an unknown one, and changes nothing", async () => {
      const beginner = await programOf("beginner");
      const intermediate = await programOf("intermediate");
      const foreign = beginner.modules[0]?.id;
      const own = intermediate.modules.map(({ id, title, description, youtubeId, exercise }) => ({ id, title, description, youtubeId, exercise }));
      for (const id of [foreign, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const response = await updateProgram(
          "intermediate",
          programForm({ title: "Changed", modules: [...own, { id, title: "Borrowed", youtubeId: VIDEO }] }),
        );
        expect(response.statusCode, String(id)).toBe(400);
        expect(response.json()).toEqual(invalid(ADMIN_MESSAGES.moduleNotInProgram));
      }
      const twice = await updateProgram("intermediate", programForm({ modules: [...own, ...own] }));
      expect(twice.json()).toEqual(invalid(ADMIN_MESSAGES.moduleNotInProgram));
      expect(await programOf("intermediate")).toEqual(intermediate);
      expect(await programOf("beginner")).toEqual(beginner);
    });
  });

  it("answers 404 for a program that does not exist", async () => {
    for (const response of [
      await updateProgram("expert", programForm()),
      await deleteProgram("expert"),
      await getQuiz("expert"),
      await saveQuiz("expert", QUIZ),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
    const blank = await saveQuiz(" ", QUIZ);
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual(invalid(ADMIN_MESSAGES.quizIdRequired));
  });

  it("edits a program: existing modules keep their ids and learners' progress, new ones get ids", async () => {
    const learner = user("learner");
    const publicList = async () =>
      (await t.app.inject({ url: "/api/programs" })).json<{ programs: { id: string; title: string }[] }>().programs;
    expect((await publicList()).find((p) => p.id === "intermediate")?.title).toBe("Intermediate Program");
    const before = await programOf("intermediate");
    const [first, second, third] = before.modules;
    if (!first || !second || !third) throw new Error("the seeded intermediate program has three modules");
    for (const module of [first, second]) {
      const response = await call(learner, {
        method: "POST",
        url: `/api/programs/intermediate/modules/${module.id}/watched`,
        payload: {},
      });
      expect(response.statusCode).toBe(200);
    }

    const response = await updateProgram("intermediate", {
      title: "Intermediate Program, 2nd edition",
      duration: "5 weeks",
      priceUsd: 19.99,
      order: null,
      description: ["Risk", "  ", " Trends "],
      modules: [
        { ...third, title: "Market structure, revised" },
        first,
        { title: "Trading journals", description: "Why you write every trade down.", youtubeId: `https://youtu.be/${VIDEO}?t=3` },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    // Everyone's program list shows the change at once, though it is served from memory.
    expect((await publicList()).find((p) => p.id === "intermediate")?.title).toBe("Intermediate Program, 2nd edition");
    const { program } = response.json<{ program: AdminProgram }>();
    const added = program.modules[2];
    expect(program).toMatchObject({
      id: "intermediate",
      title: "Intermediate Program, 2nd edition",
      duration: "5 weeks",
      priceUsd: 19.99,
      order: 99,
      description: ["Risk", "Trends"],
      questionCount: 3,
      modules: [
        { ...third, title: "Market structure, revised" },
        first,
        { title: "Trading journals", description: "Why you write every trade down.", youtubeId: VIDEO },
      ],
    });
    expect(added?.id).toMatch(UUID);
    expect([first.id, second.id, third.id]).not.toContain(added?.id);
    expect(await programOf("intermediate")).toEqual(program);
    // No display order: after the numbered programs.
    expect((await listPrograms()).map((p) => p.id)).toEqual(["beginner", "advanced", "intermediate"]);
    const [stored] = await t.database.db
      .select({ cents: programs.priceUsdCents })
      .from(programs)
      .where(eq(programs.id, "intermediate"));
    expect(stored?.cents).toBe(1999);
    // The lesson added is a draft: learners see it once it is published.
    expect(added?.draft).toBe(true);
    expect((await learnerTrack(learner, "intermediate")).modules.map((m) => m.id)).toEqual([third.id, first.id]);
    await publish("intermediate");

    const detail = await learnerTrack(learner, "intermediate");
    expect(detail.modules.map((m) => m.id)).toEqual(program.modules.map((m) => m.id));
    expect(detail.watched).toEqual([first.id]);
    const progress = await call(learner, { method: "GET", url: "/api/progress" });
    // The learner's place follows the new order: the first video they have not watched.
    expect(progress.json().programs.intermediate).toMatchObject({
      watched: 1,
      total: 3,
      next: { lessonId: third.id, title: "Market structure, revised", kind: "video" },
    });

    const [entry] = await auditEntries("program.updated");
    expect(entry).toMatchObject({
      actorId: user("admin").id,
      subjectUserId: null,
      reason: "admin",
      changes: {
        programId: "intermediate",
        title: { from: "Intermediate Program", to: "Intermediate Program, 2nd edition" },
        // The third video, and the two exercises after it.
        modules: { kept: 2, added: 1, removed: 3 },
      },
    });
  });

  it("reorders modules by the order of the list", async () => {
    const before = await programOf("beginner");
    const reversed = [...before.modules].reverse();
    const response = await updateProgram("beginner", {
      title: before.title,
      duration: before.duration,
      priceUsd: before.priceUsd,
      order: before.order,
      description: before.description,
      modules: reversed,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ program: AdminProgram }>().program.modules).toEqual(reversed);
    expect((await programOf("beginner")).modules).toEqual(reversed);
    expect((await learnerTrack(user("learner"), "beginner")).modules).toEqual(
      reversed.map(({ id, title, description, youtubeId, freePreview }) => ({ id, title, description, youtubeId, freePreview })),
    );
  });

  it("shows an advanced learner the modules and quiz an admin saved, never the answers", async () => {
    const saved = await updateProgram(
      "advanced",
      programForm({
        title: "Advanced Program",
        modules: [
          { title: "Options basics", description: "Calls and puts.", youtubeId: `https://www.youtube.com/watch?v=${VIDEO}` },
          { title: "The Greeks", youtubeId: `https://www.youtube.com/embed/${OTHER_VIDEO}` },
        ],
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const quiz = await saveQuiz("advanced", QUIZ);
    expect(quiz.statusCode, quiz.body).toBe(200);
    await publish("advanced");

    const response = await trackAsLearner(user("learner"), "advanced");
    const detail = response.json<TrackDetail>();
    expect(detail.modules.map(({ title, description, youtubeId }) => ({ title, description, youtubeId }))).toEqual([
      { title: "Options basics", description: "Calls and puts.", youtubeId: VIDEO },
      { title: "The Greeks", description: "", youtubeId: OTHER_VIDEO },
    ]);
    expect(detail.quiz).toMatchObject({
      title: "Options Quiz",
      moduleId: detail.modules[0]?.id,
      unlocked: false,
      // In the attempt's order, each option with its letter (docs/product.md, "Quiz attempts").
      questions: QUIZ.questions.map(({ question, options }) => ({ question, options: expect.arrayContaining(options), explanation: null })),
    });
    expect(allKeys(response.json())).not.toContain("answer");
    expect((await programOf("advanced")).questionCount).toBe(2);
  });

  describe("the quiz", () => {
    it("normalises each answer to its option's letter and names a blank title after the program", async () => {
      const options = ["A) Buy", "B) Sell", "C) Wait"];
      const response = await saveQuiz("beginner", {
        title: "  ",
        questions: [
          { question: "  First?  ", options, answer: "b)" },
          { question: "Second?", options, answer: "b" },
          { question: "Third?", options: ["a) Buy", "b) Sell"], answer: "B" },
          { question: "Fourth?", options, answer: "C) Wait" },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
      const expected: AdminQuiz = {
        title: "Beginner Program Quiz",
        // Questions the stored quiz had not published: drafts (docs/data.md, "Drafts").
        questions: [
          { question: "First?", options, answer: "B", draft: true },
          { question: "Second?", options, answer: "B", draft: true },
          { question: "Third?", options: ["a) Buy", "b) Sell"], answer: "B", draft: true },
          { question: "Fourth?", options, answer: "C", draft: true },
        ],
        passMark: null,
        retryWaitMinutes: 10,
      };
      expect(response.json()).toEqual(expected);
      expect((await getQuiz("beginner")).json()).toEqual(expected);
      expect((await programOf("beginner")).questionCount).toBe(4);

      const [entry] = await auditEntries("quiz.saved");
      expect(entry).toMatchObject({
        actorId: user("admin").id,
        subjectUserId: null,
        reason: "admin",
        changes: { programId: "beginner", title: "Beginner Program Quiz", questions: 4 },
      });
      await publish("beginner");
      expect((await getQuiz("beginner")).json()).toMatchObject({ questions: expected.questions.map(({ draft: _, ...question }) => question) });
    });

    it("shows the admin the answers", async () => {
      const response = await getQuiz("advanced");
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ...QUIZ, passMark: null, retryWaitMinutes: 10 });
    });

    it.each<[string, unknown, string]>([
      ["a blank question", { question: " ", options: ["A) Yes"], answer: "A" }, ADMIN_MESSAGES.questionRequired],
      ["no options", { question: "Why?", options: [], answer: "A" }, ADMIN_MESSAGES.questionRequired],
      ["a blank option", { question: "Why?", options: ["A) Yes", " "], answer: "A" }, ADMIN_MESSAGES.questionRequired],
      ["a blank answer", { question: "Why?", options: ["A) Yes"], answer: "" }, ADMIN_MESSAGES.questionRequired],
      ["an option without its letter", { question: "Why?", options: ["A) Yes", "No"], answer: "A" }, ADMIN_MESSAGES.optionFormat],
      ["an option with a dot", { question: "Why?", options: ["A. Yes"], answer: "A" }, ADMIN_MESSAGES.optionFormat],
      ["an answer no option has", { question: "Why?", options: ["A) Yes", "B) No"], answer: "C" }, ADMIN_MESSAGES.answerNotOption],
      ["an answer that is not a letter", { question: "Why?", options: ["A) Yes", "B) No"], answer: "Yes" }, ADMIN_MESSAGES.answerNotOption],
    ])("refuses %s and keeps the stored quiz", async (_name, question, message) => {
      const before = (await getQuiz("advanced")).json();
      const response = await saveQuiz("advanced", { title: "Broken", questions: [...QUIZ.questions, question] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalid(message));
      expect((await getQuiz("advanced")).json()).toEqual(before);
    });
  });

  it("deletes a program with its modules, quiz and every learner's progress and answers", async () => {
    const learners = [user("cascadeA"), user("cascadeB")];
    for (const learner of learners) {
      await watchAndAnswer(learner, "advanced");
      await watchAndAnswer(learner, "beginner");
    }
    const ids = learners.map((l) => l.id);
    const db = t.database.db;
    const rowsOf = async (track: Track) => ({
      programs: await db.select().from(programs).where(eq(programs.id, track)),
      modules: await db.select().from(modules).where(eq(modules.programId, track)),
      quizzes: await db.select().from(quizzes).where(eq(quizzes.programId, track)),
      progress: await db
        .select()
        .from(userProgress)
        .where(and(eq(userProgress.programId, track), inArray(userProgress.userId, ids))),
      attempts: await db
        .select()
        .from(quizAttempts)
        .where(and(eq(quizAttempts.programId, track), inArray(quizAttempts.userId, ids))),
    });
    const advancedBefore = await rowsOf("advanced");
    expect(advancedBefore.progress).toHaveLength(2);
    expect(advancedBefore.attempts).toHaveLength(2);
    const beginnerBefore = await rowsOf("beginner");
    const intermediateBefore = await rowsOf("intermediate");

    const response = await deleteProgram("advanced");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });

    expect(await rowsOf("advanced")).toEqual({ programs: [], modules: [], quizzes: [], progress: [], attempts: [] });
    expect(await rowsOf("beginner")).toEqual(beginnerBefore);
    expect(await rowsOf("intermediate")).toEqual(intermediateBefore);
    expect((await listPrograms()).map((p) => p.id)).toEqual(["beginner", "intermediate"]);
    expect((await trackAsLearner(user("cascadeA"), "advanced")).statusCode).toBe(404);
    expect((await getQuiz("advanced")).json()).toEqual(NOT_FOUND);

    const [entry] = await auditEntries("program.deleted");
    expect(entry).toMatchObject({
      actorId: user("admin").id,
      subjectUserId: null,
      reason: "admin",
      changes: {
        programId: "advanced",
        title: "Advanced Program",
        modules: advancedBefore.modules.length,
        progressEntries: expect.any(Number),
        quizAttempts: expect.any(Number),
      },
    });
    expect((await deleteProgram("advanced")).json()).toEqual(NOT_FOUND);
  });

  it("creates a program again after it was deleted, with no quiz yet", async () => {
    expect((await deleteProgram("intermediate")).statusCode).toBe(200);
    const borrowed = (await programOf("beginner")).modules[0]?.id;
    const refused = await createProgram({
      id: "intermediate",
      level: "intermediate",
      ...programForm({ modules: [{ id: borrowed, title: "Borrowed", youtubeId: VIDEO }] }),
    });
    expect(refused.json()).toEqual(invalid(ADMIN_MESSAGES.moduleNotInProgram));
    expect((await listPrograms()).map((p) => p.id)).toEqual(["beginner"]);

    const response = await createProgram({
      id: " intermediate ",
      level: "intermediate",
      title: "Swing Trading",
      duration: "4 weeks",
      priceUsd: null,
      order: null,
      description: [],
      modules: [{ title: "Holding for days", youtubeId: `youtube.com/shorts/${VIDEO}` }],
    });
    expect(response.statusCode, response.body).toBe(201);
    const { program } = response.json<{ program: AdminProgram }>();
    expect(program).toEqual({
      id: "intermediate",
      level: "intermediate",
      archived: false,
      draft: true,
      title: "Swing Trading",
      duration: "4 weeks",
      priceUsd: null,
      order: 99,
      description: [],
      modules: [
        { id: expect.stringMatching(UUID), title: "Holding for days", description: "", youtubeId: VIDEO, notes: "", freePreview: false, draft: true, attachments: [], exercise: null },
      ],
      questionCount: 0,
      draftQuestionCount: 0,
      updatedAt: expect.any(String),
    });
    expect(await programOf("intermediate")).toEqual(program);
    expect((await getQuiz("intermediate")).json()).toEqual({ title: "", questions: [], passMark: null, retryWaitMinutes: 10 });
    // A new program is a draft: "Program not found." to learners until it is published.
    expect((await trackAsLearner(user("learner"), "intermediate")).statusCode).toBe(404);
    await publish("intermediate");

    const detail = await learnerTrack(user("learner"), "intermediate");
    expect(detail).toMatchObject({ watched: [], quiz: null });
    expect(detail.modules.map((m) => m.id)).toEqual(program.modules.map((m) => m.id));

    const [entry] = await auditEntries("program.created");
    expect(entry).toMatchObject({
      actorId: user("admin").id,
      subjectUserId: null,
      reason: "admin",
      changes: { programId: "intermediate", level: "intermediate", title: "Swing Trading", modules: 1 },
    });

    const again = await createProgram({ id: "intermediate", level: "intermediate", ...programForm() });
    expect(again.statusCode).toBe(409);
  });
});
