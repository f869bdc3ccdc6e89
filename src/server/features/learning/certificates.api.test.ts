// Completion and certificates (docs/product.md, "Completion and certificates"): when a program is
// complete, the certificate its completing write issues (once), its public verification, and an
// administrator's revocation.
import { eq, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_MESSAGES } from "../../../shared/contracts/admin.ts";
import type { Track } from "../../../shared/plans.ts";
import { auditLog, certificates, jobs, quizSittings, users } from "../../db/schema.ts";
import { SEED_PROGRAMS } from "../../db/seed-content.ts";
import { createTestUsers, ipAllocator, linkIn, mailsTo, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { completeLesson } from "../../testing/catalog.ts";
import { CERTIFICATE_JOB } from "./certificates.ts";

const nextIp = ipAllocator(25);

const USERS = {
  admin: { plan: "admin" },
  allCorrect: {},
  quizFirst: {},
  customMark: { plan: "advanced" },
  retake: { plan: "advanced" },
  noQuiz: { plan: "advanced" },
  twiceAtOnce: {},
  lastTwoAtOnce: {},
  lastAnswersAtOnce: {},
  repeat: {},
  spacedName: {},
  verified: {},
  revoked: {},
} satisfies Record<string, TestUserPlan>;
type UserKey = keyof typeof USERS;

const questionsOf = (track: Track) => SEED_PROGRAMS.find((program) => program.id === track)?.quiz.questions ?? [];

/** A letter among the question's options that is not its answer. */
function wrongOption(track: Track, index: number): string {
  const question = questionsOf(track)[index];
  const letters = question?.options.map((option) => option.charAt(0)) ?? [];
  const wrong = letters.find((letter) => letter !== question?.answer);
  if (!wrong) throw new Error(`question ${index} of ${track} has no wrong option`);
  return wrong;
}

const NUMBER = /^TA-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{10}$/;

describe("completion and certificates API", () => {
  let t: TestApp;
  let user: (key: UserKey) => TestUser;
  const moduleIds = {} as Record<Track, string[]>;
  const lessons = {} as Record<Track, { id: string; exercise?: "replay" | "level" }[]>;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, USERS);
    for (const track of ["beginner", "intermediate", "advanced"] as const) {
      const detail = await getTrack(user("admin"), track);
      lessons[track] = detail.json<{ modules: { id: string; exercise?: "replay" | "level" }[] }>().modules;
      moduleIds[track] = lessons[track].map((module) => module.id);
    }
  });
  afterAll(() => t.close());

  function call(caller: TestUser | null, options: InjectOptions) {
    return t.app.inject({ ...options, headers: { ...options.headers, ...(caller ? { cookie: caller.cookie } : {}) } });
  }
  const getTrack = (caller: TestUser, track: Track) => call(caller, { method: "GET", url: `/api/programs/${track}` });
  const watch = (caller: TestUser, track: Track, moduleId: string) =>
    call(caller, { method: "POST", url: `/api/programs/${track}/modules/${moduleId}/watched`, payload: {} });
  const answer = (caller: TestUser, track: Track, questionIndex: number, option: string) =>
    call(caller, { method: "POST", url: `/api/programs/${track}/quiz/answers`, payload: { questionIndex, option } });
  const verify = (id: string) => t.app.inject({ method: "GET", url: `/api/certificates/${encodeURIComponent(id)}` });
  const putQuiz = (track: Track, body: object) =>
    call(user("admin"), { method: "PUT", url: `/api/admin/programs/${track}/quiz`, payload: body });

  async function watchAll(caller: TestUser, track: Track) {
    let last;
    // An exercise is passed rather than watched (docs/trading.md, "Exercises").
    for (const lesson of lessons[track]) {
      last = await completeLesson(t, caller.cookie, track, lesson);
      expect(last.statusCode, last.body).toBe(200);
    }
    return last;
  }

  async function answerAllCorrectly(caller: TestUser, track: Track, except: number[] = []) {
    let last;
    for (const [index, question] of questionsOf(track).entries()) {
      if (except.includes(index)) continue;
      last = await answer(caller, track, index, question.answer);
      expect(last.statusCode, last.body).toBe(200);
    }
    return last;
  }

  async function certificatesOf(caller: TestUser) {
    return t.database.db.select().from(certificates).where(eq(certificates.userId, caller.id));
  }

  async function certificateJobs(id: string) {
    const rows = await t.database.db.select().from(jobs).where(eq(jobs.kind, CERTIFICATE_JOB));
    return rows.filter((row) => (row.payload as { certificateId?: string }).certificateId === id);
  }

  describe("when a program is complete", () => {
    it("by default, every video watched and every question right; the passing answer issues the certificate", async () => {
      const learner = user("allCorrect");
      const watched = await watchAll(learner, "beginner");
      expect(watched?.json().completion).toEqual({
        complete: false,
        quizPassed: false,
        passMark: questionsOf("beginner").length,
        certificateId: null,
      });
      const last = questionsOf("beginner").length - 1;
      await answerAllCorrectly(learner, "beginner", [last]);
      expect((await getTrack(learner, "beginner")).json().completion.complete).toBe(false);
      expect(await certificatesOf(learner)).toEqual([]);

      const passing = await answer(learner, "beginner", last, questionsOf("beginner")[last]?.answer ?? "");
      expect(passing.statusCode, passing.body).toBe(200);
      const { completion } = passing.json();
      expect(completion).toMatchObject({ complete: true, quizPassed: true, certificateId: expect.stringMatching(NUMBER) });
      expect((await getTrack(learner, "beginner")).json().completion).toEqual(completion);

      const [certificate] = await certificatesOf(learner);
      expect(certificate).toMatchObject({
        id: completion.certificateId,
        holderName: "Test Learner",
        programId: "beginner",
        programTitle: "Beginner Program",
        revokedAt: null,
      });

      // An email announces it, with the certificate's public link.
      await t.services.jobs.runDue();
      const [mail] = await mailsTo(t, learner.email);
      expect(mail?.subject).toBe("Your Trading Academy certificate: Beginner Program");
      expect(mail?.text).toContain(completion.certificateId);
      expect(linkIn(mail?.text ?? "", `/certificates/${completion.certificateId}`).pathname).toBe(
        `/certificates/${completion.certificateId}`,
      );
    });

    it("the last video watched completes a program whose quiz was passed first", async () => {
      const learner = user("quizFirst");
      const [first, ...rest] = moduleIds.beginner;
      await watch(learner, "beginner", first ?? "");
      await answerAllCorrectly(learner, "beginner");
      const afterQuiz = (await getTrack(learner, "beginner")).json().completion;
      expect(afterQuiz).toMatchObject({ complete: false, quizPassed: true, certificateId: null });
      for (const id of rest.slice(0, -1)) await watch(learner, "beginner", id);
      const last = await watch(learner, "beginner", rest.at(-1) ?? "");
      expect(last.json().completion).toMatchObject({ complete: true, certificateId: expect.stringMatching(NUMBER) });
      expect(await certificatesOf(learner)).toHaveLength(1);
    });

    it("with the admin's pass mark, that many questions right pass the quiz", async () => {
      const quiz = { title: "", questions: questionsOf("intermediate") };
      expect(quiz.questions.length).toBeGreaterThan(2);
      const saved = await putQuiz("intermediate", { ...quiz, passMark: 2 });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().passMark).toBe(2);
      try {
        const learner = user("customMark");
        await watchAll(learner, "intermediate");
        const one = await answer(learner, "intermediate", 0, questionsOf("intermediate")[0]?.answer ?? "");
        expect(one.json().completion).toMatchObject({ complete: false, quizPassed: false, passMark: 2 });
        await answer(learner, "intermediate", 1, wrongOption("intermediate", 1));
        const two = await answer(learner, "intermediate", 2, questionsOf("intermediate")[2]?.answer ?? "");
        expect(two.json().completion).toMatchObject({ complete: true, quizPassed: true, passMark: 2 });
        expect(await certificatesOf(learner)).toHaveLength(1);
      } finally {
        await putQuiz("intermediate", { ...quiz, passMark: null });
      }
    });

    it("an attempt counts each question's first answer: a wrong one stays wrong, a new attempt can pass", async () => {
      const learner = user("retake");
      const track = "advanced";
      const right = (index: number) => questionsOf(track)[index]?.answer ?? "";
      await watchAll(learner, track);
      // Wrong, then right: the first answer is the one scored (docs/product.md, "Quiz attempts").
      await answer(learner, track, 0, wrongOption(track, 0));
      expect((await answer(learner, track, 0, right(0))).json()).toMatchObject({ correct: true, message: "Correct" });
      const rest = await answerAllCorrectly(learner, track, [0]);
      expect(rest?.json().completion).toMatchObject({ complete: false, quizPassed: false });
      expect(rest?.json().attempts).toEqual([expect.objectContaining({ number: 1, score: 2, total: 3, finished: true, passed: false, review: [0] })]);
      expect(await certificatesOf(learner)).toEqual([]);

      // The wait over, a new attempt with every first answer right passes and issues the certificate.
      await t.database.db
        .update(quizSittings)
        .set({ answeredAt: sql`${quizSittings.answeredAt} - interval '1 hour'` })
        .where(eq(quizSittings.userId, learner.id));
      const started = await call(learner, { method: "POST", url: `/api/programs/${track}/quiz/attempts`, payload: {} });
      expect(started.statusCode, started.body).toBe(201);
      const retake = await answerAllCorrectly(learner, track);
      const { certificateId } = retake?.json<{ completion: { certificateId: string } }>().completion ?? {};
      expect(retake?.json().completion).toMatchObject({ complete: true, quizPassed: true, certificateId: expect.stringMatching(NUMBER) });
      // A later wrong click still says Incorrect, and changes neither the score nor the certificate.
      const wrongAgain = await answer(learner, track, 1, wrongOption(track, 1));
      expect(wrongAgain.json()).toMatchObject({ correct: false, message: "Incorrect" });
      expect(wrongAgain.json().completion).toMatchObject({ complete: true, quizPassed: true, certificateId });
      expect(wrongAgain.json().attempts.at(-1)).toMatchObject({ number: 2, score: 3, passed: true });
      expect(await certificatesOf(learner)).toHaveLength(1);
    });

    it("a program without a quiz is complete once every video is watched", async () => {
      const quiz = { title: "", questions: questionsOf("advanced") };
      expect((await putQuiz("advanced", { title: "", questions: [] })).statusCode).toBe(200);
      try {
        const learner = user("noQuiz");
        const detail = (await getTrack(learner, "advanced")).json();
        expect(detail.quiz).toBeNull();
        expect(detail.completion).toEqual({ complete: false, quizPassed: false, passMark: 0, certificateId: null });
        const last = await watchAll(learner, "advanced");
        expect(last?.json().completion).toMatchObject({ complete: true, certificateId: expect.stringMatching(NUMBER) });
      } finally {
        await putQuiz("advanced", quiz);
      }
    });
  });

  describe("issuing", () => {
    it("two requests completing the program at once issue one certificate and one email", async () => {
      const learner = user("twiceAtOnce");
      const [first, ...others] = moduleIds.beginner;
      await watch(learner, "beginner", first ?? "");
      await answerAllCorrectly(learner, "beginner");
      for (const id of others.slice(0, -1)) await watch(learner, "beginner", id);
      const last = others.at(-1) ?? "";
      const responses = await Promise.all([watch(learner, "beginner", last), watch(learner, "beginner", last)]);
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      const rows = await certificatesOf(learner);
      expect(rows).toHaveLength(1);
      expect(responses.map((r) => r.json().completion.certificateId)).toEqual([rows[0]?.id, rows[0]?.id]);
      expect(await certificateJobs(rows[0]?.id ?? "")).toHaveLength(1);
    });

    it("the last video and the passing answer at once: the certificate is issued, once", async () => {
      const learner = user("lastTwoAtOnce");
      const track = "beginner";
      const ids = moduleIds[track];
      for (const id of ids.slice(0, -1)) await watch(learner, track, id);
      const lastQuestion = questionsOf(track).length - 1;
      await answerAllCorrectly(learner, track, [lastQuestion]);
      const responses = await Promise.all([
        watch(learner, track, ids.at(-1) ?? ""),
        answer(learner, track, lastQuestion, questionsOf(track)[lastQuestion]?.answer ?? ""),
      ]);
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      const rows = await certificatesOf(learner);
      expect(rows).toHaveLength(1);
      expect((await getTrack(learner, track)).json().completion.certificateId).toBe(rows[0]?.id);
    });

    it("the last two passing answers at once: the certificate is issued, once", async () => {
      const learner = user("lastAnswersAtOnce");
      const track = "beginner";
      await watchAll(learner, track);
      const questions = questionsOf(track);
      const lastTwo = [questions.length - 2, questions.length - 1];
      await answerAllCorrectly(learner, track, lastTwo);
      const responses = await Promise.all(lastTwo.map((index) => answer(learner, track, index, questions[index]?.answer ?? "")));
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      const rows = await certificatesOf(learner);
      expect(rows).toHaveLength(1);
      // The answer that completed the program says so; whichever it was, the track shows it.
      expect(responses.filter((response) => response.json().completion.certificateId === rows[0]?.id).length).toBeGreaterThanOrEqual(1);
      expect((await getTrack(learner, track)).json().completion.certificateId).toBe(rows[0]?.id);
      expect(await certificateJobs(rows[0]?.id ?? "")).toHaveLength(1);
    });

    it("the certificate bears the account's name without the spaces around it, and its email is queued with it", async () => {
      const learner = user("spacedName");
      // As a provider's profile may give it: a no-break space before, a tab after.
      await t.database.db.update(users).set({ name: "\u00a0 Ama  Mensah\t" }).where(eq(users.id, learner.id));
      await watchAll(learner, "beginner");
      const id = (await answerAllCorrectly(learner, "beginner"))?.json().completion.certificateId;
      expect(id).toMatch(NUMBER);
      expect(await certificatesOf(learner)).toEqual([expect.objectContaining({ id, holderName: "Ama  Mensah" })]);
      expect(await certificateJobs(id)).toHaveLength(1);
    });

    it("repeating a write after completion issues nothing more", async () => {
      const learner = user("repeat");
      await watchAll(learner, "beginner");
      await answerAllCorrectly(learner, "beginner");
      await watchAll(learner, "beginner");
      await answerAllCorrectly(learner, "beginner");
      expect(await certificatesOf(learner)).toHaveLength(1);
    });
  });

  describe("verification", () => {
    let id = "";
    beforeAll(async () => {
      const learner = user("verified");
      await watchAll(learner, "beginner");
      id = (await answerAllCorrectly(learner, "beginner"))?.json().completion.certificateId;
    });

    it("anyone may check a certificate by its number, briefly cached", async () => {
      const response = await verify(id);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        id,
        holderName: "Test Learner",
        programTitle: "Beginner Program",
        issuedAt: expect.any(String),
        revokedAt: null,
      });
      expect(response.headers["cache-control"]).toBe("public, max-age=60");
      // As a person may type it: lower case, O for 0 and I or L for 1.
      const typed = id.toLowerCase().replace(/0/g, "o").replace(/1/g, "l");
      expect((await verify(typed)).json().id).toBe(id);
    });

    it.each(["TA-0000000000", "TA-not-a-number", "x".repeat(64)])("an unknown number %s answers 404", async (unknown) => {
      const response = await verify(unknown);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        error: { code: "CERTIFICATE_NOT_FOUND", message: "No such certificate.", requestId: expect.any(String) },
      });
    });
  });

  describe("revocation", () => {
    let id = "";
    let learner: TestUser;
    const revoke = (caller: TestUser | null, certificate: string, payload: object) =>
      call(caller, { method: "POST", url: `/api/admin/certificates/${encodeURIComponent(certificate)}/revoke`, payload });
    const listOf = (caller: TestUser | null, userId: string) =>
      call(caller, { method: "GET", url: `/api/admin/users/${userId}/certificates` });

    beforeAll(async () => {
      learner = user("revoked");
      await watchAll(learner, "beginner");
      id = (await answerAllCorrectly(learner, "beginner"))?.json().completion.certificateId;
    });

    it("only an admin sees a user's certificates and revokes one", async () => {
      expect((await listOf(null, learner.id)).statusCode).toBe(401);
      expect((await listOf(learner, learner.id)).statusCode).toBe(403);
      expect((await revoke(null, id, { reason: "Fraud" })).statusCode).toBe(401);
      const refused = await revoke(learner, id, { reason: "Fraud" });
      expect(refused.statusCode).toBe(403);
      expect((await verify(id)).json().revokedAt).toBeNull();

      const list = await listOf(user("admin"), learner.id);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().certificates).toEqual([
        expect.objectContaining({ id, programId: "beginner", revokedAt: null, revokeReason: null }),
      ]);
    });

    it("a reason is required, and kept within 500 characters", async () => {
      for (const [payload, message] of [
        [{ reason: "  " }, "Give a reason for revoking the certificate."],
        [{}, expect.any(String)],
        [{ reason: "x".repeat(501) }, "Keep the reason under 500 characters."],
      ] as const) {
        const response = await revoke(user("admin"), id, payload);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error.message).toEqual(message);
      }
      expect((await verify(id)).json().revokedAt).toBeNull();
    });

    it("an admin revokes with a reason: audited, and the public page says revoked", async () => {
      const admin = user("admin");
      const response = await revoke(admin, id, { reason: "Issued in error" });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id, revokedAt: expect.any(String), revokeReason: "Issued in error" });
      expect((await verify(id)).json()).toMatchObject({ id, revokedAt: expect.any(String) });

      const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "certificate.revoked"));
      expect(entries).toEqual([
        expect.objectContaining({
          actorId: admin.id,
          subjectUserId: learner.id,
          reason: "Issued in error",
          changes: { certificate: id, program: "beginner" },
        }),
      ]);

      const again = await revoke(admin, id, { reason: "Twice" });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe("This certificate is already revoked.");
      const unknown = await revoke(admin, "TA-0000000000", { reason: "Nothing" });
      expect(unknown.statusCode).toBe(404);
    });

    it("a revoked certificate is not issued again by repeating a write", async () => {
      await watchAll(learner, "beginner");
      await answerAllCorrectly(learner, "beginner");
      const rows = await certificatesOf(learner);
      expect(rows).toHaveLength(1);
      expect((await getTrack(learner, "beginner")).json().completion).toMatchObject({ complete: true, certificateId: null });
    });
  });

  describe("the admin's pass mark", () => {
    const quiz = () => ({ title: "", questions: questionsOf("beginner") });

    it.each([0, -1, 1.5, questionsOf("beginner").length + 1, "2"])("refuses %s", async (passMark) => {
      const response = await putQuiz("beginner", { ...quiz(), passMark });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.message).toBe(ADMIN_MESSAGES.passMarkInvalid);
    });

    it("is read back, and empty means every question", async () => {
      const admin = user("admin");
      expect((await putQuiz("beginner", { ...quiz(), passMark: 1 })).json().passMark).toBe(1);
      const read = await call(admin, { method: "GET", url: "/api/admin/programs/beginner/quiz" });
      expect(read.json().passMark).toBe(1);
      expect((await putQuiz("beginner", quiz())).json().passMark).toBeNull();
    });
  });
});
