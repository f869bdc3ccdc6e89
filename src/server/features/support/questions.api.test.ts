// Lesson questions (docs/product.md, "Questions and mentorship"): who may read and post under a
// lesson, what the administrators do, the limits in words, the asker's email and the pages.
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUPPORT_LIMITS, SUPPORT_MESSAGES, type LessonQuestion, type QuestionPage } from "../../../shared/contracts/support.ts";
import type { Track } from "../../../shared/plans.ts";
import { auditLog, jobs, lessonQuestions, modules } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, mailsTo, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { LESSON_ANSWER_JOB } from "./questions.service.ts";

const nextIp = ipAllocator(140);

const USERS = {
  freeLearner: {},
  otherFree: {},
  chatty: {},
  paging: {},
  intermediateLearner: { plan: "intermediate" },
  expired: { plan: "intermediate", status: "expired" },
  teacher: { plan: "admin" },
  advancedLearner: { plan: "advanced" },
} as const;

describe("lesson questions", () => {
  let t: TestApp;
  let user: (key: keyof typeof USERS) => TestUser;
  const lessons = {} as Record<Track, string>;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, USERS);
    for (const track of ["beginner", "intermediate"] as const) {
      const [first] = await t.database.db
        .select({ id: modules.id })
        .from(modules)
        .where(eq(modules.programId, track))
        .orderBy(asc(modules.position))
        .limit(1);
      if (!first) throw new Error(`no ${track} module`);
      lessons[track] = first.id;
    }
  });
  afterAll(() => t.close());

  const questionsUrl = (track: string, moduleId = lessons[track as Track]) => `/api/programs/${track}/modules/${moduleId}/questions`;

  const ask = (who: TestUser, body: unknown, track: string = "beginner", moduleId?: string) =>
    t.app.inject({ method: "POST", url: questionsUrl(track, moduleId), headers: { cookie: who.cookie }, payload: { body } });

  const answer = (who: TestUser, questionId: string, body: unknown) =>
    t.app.inject({ method: "POST", url: `/api/questions/${questionId}/answers`, headers: { cookie: who.cookie }, payload: { body } });

  const list = (who: TestUser, track = "beginner", page = 1) =>
    t.app.inject({ url: `${questionsUrl(track)}?page=${page}`, headers: { cookie: who.cookie } });

  async function asked(who: TestUser, body: string, track: Track = "beginner"): Promise<LessonQuestion> {
    const response = await ask(who, body, track);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ question: LessonQuestion }>().question;
  }

  function expectError(response: { statusCode: number; body: string; json: () => unknown }, status: number, code: string, message: string) {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toEqual({ error: { code, message, requestId: expect.any(String) } });
  }

  it("lets a free learner ask under a Beginner lesson and read it back, with the answers of others marked", async () => {
    const question = await asked(user("freeLearner"), "  What is a pip?  ");
    expect(question).toMatchObject({ body: "What is a pip?", author: "Test Learner", staff: false, mine: true, pinned: false, answers: [] });

    const fromTeam = await answer(user("teacher"), question.id, "The smallest price move of a pair.");
    expect(fromTeam.statusCode, fromTeam.body).toBe(201);
    const fromLearner = await answer(user("otherFree"), question.id, "Also called a point.");
    expect(fromLearner.statusCode, fromLearner.body).toBe(201);

    const page = (await list(user("otherFree"))).json<QuestionPage>();
    const shown = page.questions.find((q) => q.id === question.id);
    expect(shown).toMatchObject({ mine: false, answers: [
      { body: "The smallest price move of a pair.", staff: true, mine: false },
      { body: "Also called a point.", staff: false, mine: true },
    ] });
  });

  it("keeps a free learner out of Intermediate lessons: no reading, asking or answering (403, in words)", async () => {
    const question = await asked(user("intermediateLearner"), "How do I size risk on a flag?", "intermediate");
    for (const response of [
      await list(user("freeLearner"), "intermediate"),
      await ask(user("freeLearner"), "May I ask?", "intermediate"),
      await answer(user("freeLearner"), question.id, "I think..."),
      // A paid plan that has run out counts as free.
      await ask(user("expired"), "Still here?", "intermediate"),
    ]) {
      expectError(response, 403, "PREMIUM_ONLY", SUPPORT_MESSAGES.notOpen);
    }
    expect((await list(user("intermediateLearner"), "intermediate")).statusCode).toBe(200);
  });

  it("answers 404 for a program or a video that is not there, and 401 signed out", async () => {
    expectError(await ask(user("freeLearner"), "Hello?", "expert"), 404, "PROGRAM_NOT_FOUND", "Program not found.");
    expectError(
      await ask(user("freeLearner"), "Hello?", "beginner", lessons.intermediate),
      404,
      "MODULE_NOT_FOUND",
      "This video is not part of the program.",
    );
    expectError(await answer(user("freeLearner"), "00000000-0000-4000-8000-000000000000", "Hi"), 404, "QUESTION_NOT_FOUND", SUPPORT_MESSAGES.questionNotFound);
    expect((await t.app.inject({ url: questionsUrl("beginner") })).statusCode).toBe(401);
  });

  it("refuses an empty or too long question or answer, in words, and stores nothing", async () => {
    const question = await asked(user("otherFree"), "Is there a glossary?");
    expectError(await ask(user("otherFree"), "   "), 400, "VALIDATION", SUPPORT_MESSAGES.questionRequired);
    expectError(await ask(user("otherFree"), undefined), 400, "VALIDATION", SUPPORT_MESSAGES.questionRequired);
    expectError(await ask(user("otherFree"), "x".repeat(SUPPORT_LIMITS.post + 1)), 400, "VALIDATION", SUPPORT_MESSAGES.postTooLong);
    expect(SUPPORT_MESSAGES.postTooLong).toBe("Please keep it to 2,000 characters or fewer.");
    expectError(await answer(user("otherFree"), question.id, ""), 400, "VALIDATION", SUPPORT_MESSAGES.answerRequired);
    expectError(await answer(user("otherFree"), question.id, "y".repeat(SUPPORT_LIMITS.post + 1)), 400, "VALIDATION", SUPPORT_MESSAGES.postTooLong);
    expect((await ask(user("otherFree"), "z".repeat(SUPPORT_LIMITS.post))).statusCode).toBe(201);
  });

  it("takes 5 posts in 10 minutes from a learner; the sixth is a 429 saying when to try again, and is not stored", async () => {
    const question = await asked(user("chatty"), "First");
    for (const body of ["Second", "Third"]) expect((await ask(user("chatty"), body)).statusCode).toBe(201);
    for (const body of ["One more", "And another"]) expect((await answer(user("chatty"), question.id, body)).statusCode).toBe(201);

    const refused = await ask(user("chatty"), "Sixth");
    expect(refused.statusCode, refused.body).toBe(429);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(SUPPORT_LIMITS.postWindowSeconds);
    expect(refused.json().error).toMatchObject({ code: "TOO_MANY_POSTS", message: SUPPORT_MESSAGES.tooManyPosts(retryAfter * 1000) });
    expect(refused.json().error.message).toMatch(/^You have posted 5 times in 10 minutes\. Please try again in \d+ minutes?\.$/);
    expect((await answer(user("chatty"), question.id, "Sixth answer")).statusCode).toBe(429);
    const rows = await t.database.db.select().from(lessonQuestions).where(eq(lessonQuestions.userId, user("chatty").id));
    expect(rows).toHaveLength(3);
    // The team is not counted.
    for (let i = 0; i < SUPPORT_LIMITS.postsPerWindow + 1; i++) {
      expect((await answer(user("teacher"), question.id, `Team answer ${i}`)).statusCode).toBe(201);
    }
  });

  it("emails the asker when someone else answers, not when they answer themselves", async () => {
    const asker = user("otherFree");
    const question = await asked(asker, "Which broker for practice?");
    const own = await answer(asker, question.id, "Answering myself: a demo account.");
    expect(own.statusCode).toBe(201);
    const team = await answer(user("teacher"), question.id, "Any broker's demo account works.");
    const queued = await t.database.db.select().from(jobs).where(eq(jobs.kind, LESSON_ANSWER_JOB));
    const payloads = queued.map((job) => job.payload);
    expect(payloads).toContainEqual({ answerId: team.json().answer.id });
    expect(payloads).not.toContainEqual({ answerId: own.json().answer.id });

    await t.services.jobs.runDue();
    const [mail] = (await mailsTo(t, asker.email)).filter((m) => m.text.includes("Any broker's demo account works."));
    expect(mail?.subject).toMatch(/^New answer to your question on "/);
    expect(mail?.text).toContain("The Academy team answered your question");
    expect(mail?.text).toContain(`/program/beginner/${lessons.beginner}`);
  });

  it("lets only administrators pin and remove; pinned questions come first, removals are audited", async () => {
    const pinnedOne = await asked(user("freeLearner"), "Pin me");
    await asked(user("freeLearner"), "Newer, not pinned");
    const pinUrl = `/api/admin/questions/${pinnedOne.id}/pin`;

    for (const response of [
      await t.app.inject({ method: "PUT", url: pinUrl, headers: { cookie: user("freeLearner").cookie }, payload: { pinned: true } }),
      await t.app.inject({ method: "DELETE", url: `/api/admin/questions/${pinnedOne.id}`, headers: { cookie: user("intermediateLearner").cookie } }),
    ]) {
      expectError(response, 403, "FORBIDDEN", "Administrators only.");
    }

    const pinned = await t.app.inject({ method: "PUT", url: pinUrl, headers: { cookie: user("teacher").cookie }, payload: { pinned: true } });
    expect(pinned.statusCode, pinned.body).toBe(200);
    const [first] = (await list(user("freeLearner"))).json<QuestionPage>().questions;
    expect(first).toMatchObject({ id: pinnedOne.id, pinned: true });

    const withAnswer = await asked(user("freeLearner"), "Remove my answer");
    const reply = (await answer(user("intermediateLearner"), withAnswer.id, "Spam")).json().answer;
    const removeAnswer = await t.app.inject({ method: "DELETE", url: `/api/admin/answers/${reply.id}`, headers: { cookie: user("teacher").cookie } });
    expect(removeAnswer.statusCode, removeAnswer.body).toBe(200);
    const remove = await t.app.inject({ method: "DELETE", url: `/api/admin/questions/${pinnedOne.id}`, headers: { cookie: user("teacher").cookie } });
    expect(remove.statusCode, remove.body).toBe(200);
    const again = await t.app.inject({ method: "DELETE", url: `/api/admin/questions/${pinnedOne.id}`, headers: { cookie: user("teacher").cookie } });
    expectError(again, 404, "QUESTION_NOT_FOUND", SUPPORT_MESSAGES.questionNotFound);

    const shown = (await list(user("freeLearner"))).json<QuestionPage>().questions;
    expect(shown.map((q) => q.id)).not.toContain(pinnedOne.id);
    expect(shown.find((q) => q.id === withAnswer.id)?.answers).toEqual([]);
    const audit = await t.database.db
      .select({ action: auditLog.action, subject: auditLog.subjectUserId })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, user("teacher").id)));
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "answer.remove", subject: user("intermediateLearner").id },
        { action: "question.remove", subject: user("freeLearner").id },
      ]),
    );
  });

  it("sends a lesson's questions a page at a time, newest first, and the admin's list with the unanswered first", async () => {
    const paging = user("paging");
    const [intermediateModule] = await t.database.db
      .select({ id: modules.id })
      .from(modules)
      .where(eq(modules.programId, "intermediate"))
      .orderBy(asc(modules.position))
      .offset(1)
      .limit(1);
    if (!intermediateModule) throw new Error("the intermediate program has one video only");
    // A lesson of its own, written directly: the posting limit is tested above.
    const total = SUPPORT_LIMITS.questionsPage + 3;
    const base = Date.now() + 1000;
    await t.database.db.insert(lessonQuestions).values(
      Array.from({ length: total }, (_, i) => ({
        moduleId: intermediateModule.id,
        programId: "intermediate",
        userId: paging.id,
        body: `Question ${i}`,
        createdAt: new Date(base + i * 1000),
      })),
    );
    const url = `/api/programs/intermediate/modules/${intermediateModule.id}/questions`;
    const get = async (page: number) =>
      (await t.app.inject({ url: `${url}?page=${page}`, headers: { cookie: user("teacher").cookie } })).json<QuestionPage>();
    const first = await get(1);
    expect(first.questions).toHaveLength(SUPPORT_LIMITS.questionsPage);
    expect(first.hasMore).toBe(true);
    expect(first.questions[0]?.body).toBe(`Question ${total - 1}`);
    const second = await get(2);
    expect(second).toMatchObject({ hasMore: false });
    expect(second.questions.map((q) => q.body)).toEqual(["Question 2", "Question 1", "Question 0"]);

    const admin = await t.app.inject({ url: "/api/admin/questions", headers: { cookie: user("teacher").cookie } });
    expect(admin.statusCode, admin.body).toBe(200);
    const listed = admin.json<{ total: number; questions: { unanswered: boolean; track: string; lessonTitle: string }[] }>();
    expect(listed.questions).toHaveLength(20);
    expect(listed.total).toBeGreaterThan(total);
    const firstAnswered = listed.questions.findIndex((q) => !q.unanswered);
    if (firstAnswered >= 0) expect(listed.questions.slice(firstAnswered).every((q) => !q.unanswered)).toBe(true);
    expect(listed.questions[0]).toMatchObject({ unanswered: true, track: "intermediate", lessonTitle: expect.any(String) });
  });

  it("puts the questions of learners on the Advanced plan first among the unanswered (priority support)", async () => {
    const older = await asked(user("advancedLearner"), "How do I size a position for a gold trade?");
    await asked(user("freeLearner"), "A newer question from a free learner");
    const admin = await t.app.inject({ url: "/api/admin/questions", headers: { cookie: user("teacher").cookie } });
    const listed = admin.json<{ questions: { id: string; unanswered: boolean; priority: boolean }[] }>().questions;
    expect(listed[0]).toMatchObject({ id: older.id, unanswered: true, priority: true });
    expect(listed.filter((q) => q.priority).map((q) => q.id)).toEqual([older.id]);
  });
});
