// The learner page's read (docs/admin.md, "Learner page"): one learner's profile, plan and its
// history, payments with refunds, progress per program, quiz answers, certificates, questions and
// audit entries, each list newest first and capped with its count; an id that is no user's is 404.
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEARNER_LIMITS, LEARNER_MESSAGES, type Learner } from "../../../shared/contracts/admin-learner.ts";
import { auditLog, certificates, lessonAnswers, lessonQuestions, modules, payments, quizAttempts, quizSittings, quizzes, refunds, users } from "../../db/schema.ts";
import { NUL_MESSAGE } from "../../plugins/input-guard.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { placeOnWaitlist } from "../../testing/waitlist.ts";

const nextIp = ipAllocator(171);
const MINUTE = 60_000;

describe("the learner page", () => {
  let t: TestApp;
  let user: (key: "admin" | "ama" | "kojo" | "fresh") => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, { admin: { plan: "admin" }, ama: {}, kojo: {}, fresh: {} });
  });
  afterAll(() => t.close());

  function read(id: string, cookie = user("admin").cookie) {
    return t.app.inject({ url: `/api/admin/users/${id}`, headers: { cookie } });
  }

  async function learner(id: string): Promise<Learner> {
    const response = await read(encodeURIComponent(id));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Learner>();
  }

  function adminCall(method: "PUT" | "POST", url: string, payload?: object) {
    return t.app.inject({ method, url, headers: { cookie: user("admin").cookie }, ...(payload ? { payload } : {}) });
  }

  it("shows a new learner with every section empty, and the programs not started", async () => {
    const page = await learner(user("fresh").id);
    expect(page.profile).toEqual({
      id: user("fresh").id,
      name: "Test Learner",
      email: "fresh@example.com",
      emailVerified: true,
      provider: "email",
      signInMethods: ["credential"],
      createdAt: expect.any(String),
      lastActiveAt: expect.toBeOneOf([null, expect.any(String)]),
    });
    expect(page.plan).toEqual({ plan: "legacyFree", status: "inactive", start: null, end: null, queued: null, waitlist: null, canAdmit: false });
    for (const list of [page.planHistory, page.payments, page.quizAttempts, page.questions, page.audit]) {
      expect(list).toEqual({ total: 0, entries: [] });
    }
    expect(page.certificates).toEqual([]);
    expect(page.programs.map((program) => program.track)).toEqual(["beginner", "intermediate", "advanced"]);
    for (const program of page.programs) {
      expect(program).toMatchObject({ watched: 0, startedAt: null, complete: false, certificateId: null });
      expect(program.videos).toBeGreaterThan(0);
    }
  });

  it("answers 404 in the error shape for an id that is no user's, however odd", async () => {
    const odd = ["nobody", "x".repeat(65), "%C3%A9l%C3%A8ve", "%20", "tab%09id", "ama%40example.com", "..%2F..%2Fsummary", "'%3B%20drop%20table%20users%3B--"];
    for (const id of odd) {
      const response = await read(id);
      expect(response.statusCode, id).toBe(404);
      expect(response.json(), id).toEqual({ error: { code: "USER_NOT_FOUND", message: LEARNER_MESSAGES.notFound, requestId: expect.any(String) } });
    }
    // A NUL byte is refused for every route by the input guard, before any handler.
    for (const id of ["%00", "a%00b"]) {
      const response = await read(id);
      expect(response.statusCode, id).toBe(400);
      expect(response.json().error.message, id).toBe(NUL_MESSAGE);
    }
  });

  it("is for administrators only: a learner cannot read another's page", async () => {
    const response = await read(user("kojo").id, user("ama").cookie);
    expect(response.statusCode).toBe(403);
  });

  describe("a learner with a history", () => {
    const ama = () => user("ama");
    let beginnerVideos: string[];
    let questionCount: number;

    beforeAll(async () => {
      const db = t.database.db;
      const id = ama().id;
      beginnerVideos = (await db.select({ id: modules.id }).from(modules).where(eq(modules.programId, "beginner")).orderBy(asc(modules.position))).map(
        (row) => row.id,
      );
      const [quiz] = await db.select().from(quizzes).where(eq(quizzes.programId, "beginner"));
      questionCount = quiz?.questions.length ?? 0;
      const base = Date.now() - 24 * 60 * MINUTE;
      const at = (minutes: number) => new Date(base + minutes * MINUTE);

      // Payments: an old failed one, a successful one partly refunded, and one of another learner.
      const payment = (reference: string, userId: string, status: "success" | "failed", minutes: number, refundedMinor = 0) => ({
        reference,
        userId,
        userEmail: `${userId}@example.com`,
        kind: "subscription" as const,
        plan: "intermediate" as const,
        amountMinor: 54_000,
        refundedMinor,
        priceUsdCents: 3500,
        exchangeRate: "15.430000",
        status,
        createdAt: at(minutes),
        paidAt: status === "success" ? at(minutes) : null,
      });
      const [, paid] = await db
        .insert(payments)
        .values([payment("LTF-AMA-1", id, "failed", 1), payment("LTF-AMA-2", id, "success", 2, 10_000), payment("LTF-KOJO-1", user("kojo").id, "success", 3)])
        .returning({ id: payments.id });
      if (!paid) throw new Error("no payment");
      await db.insert(refunds).values({
        paymentId: paid.id,
        amountMinor: 10_000,
        status: "processed",
        actorId: user("admin").id,
        reason: "asked nicely",
        createdAt: at(4),
        processedAt: at(5),
      });

      // Audit: a partial refund (no plan change), an expiry, and an entry about someone else.
      await db.insert(auditLog).values([
        { actorId: user("admin").id, subjectUserId: id, action: "payment.refunded", reason: "refund of payment LTF-AMA-2", changes: { refund: { amountMinor: 10_000 } }, createdAt: at(6) },
        { actorId: null, subjectUserId: id, action: "subscription.expired", reason: "the paid month ended", changes: { plan: "intermediate", end: at(7).toISOString() }, createdAt: at(7) },
        { actorId: user("admin").id, subjectUserId: user("kojo").id, action: "plan.set", reason: "admin", changes: {}, createdAt: at(8) },
      ]);

      // The beginner program completed: every video ticked by the admin, every question right.
      expect((await adminCall("PUT", `/api/admin/users/${id}/progress`, { progress: { beginner: Object.fromEntries(beginnerVideos.map((video) => [video, true])) } })).statusCode).toBe(200);
      // More answers than the page shows: a first attempt of wrong answers, then a second attempt
      // with every question right (docs/product.md, "Quiz attempts").
      const answerCount = LEARNER_LIMITS.quizAttempts + 5;
      const answers = Array.from({ length: answerCount }, (_, n) => ({
        userId: id,
        programId: "beginner",
        attempt: n >= answerCount - questionCount ? 2 : 1,
        questionIndex: n % questionCount,
        option: `option ${n}`,
        correct: n >= answerCount - questionCount,
        createdAt: at(10 + n),
      }));
      await db.insert(quizAttempts).values(answers);
      const firstAnswers = (correct: boolean) => Object.fromEntries(Array.from({ length: questionCount }, (_, index) => [String(index), correct]));
      await db.insert(quizSittings).values([
        { userId: id, programId: "beginner", number: 1, startedAt: at(10), firstAnswers: firstAnswers(false), answeredAt: at(9 + questionCount) },
        { userId: id, programId: "beginner", number: 2, startedAt: at(10 + answerCount - questionCount), firstAnswers: firstAnswers(true), answeredAt: at(9 + answerCount) },
      ]);
      await db.insert(certificates).values({ id: "TA-AMA0000001", userId: id, holderName: "Test Learner", programId: "beginner", programTitle: "Beginner Program" });

      // A question under the first lesson, with two answers.
      const [question] = await db
        .insert(lessonQuestions)
        .values({ moduleId: beginnerVideos[0] ?? "", programId: "beginner", userId: id, body: "What is a pip?", createdAt: at(100) })
        .returning({ id: lessonQuestions.id });
      if (!question) throw new Error("no question");
      await db.insert(lessonAnswers).values([
        { questionId: question.id, userId: user("admin").id, body: "The smallest move." },
        { questionId: question.id, userId: user("kojo").id, body: "Thanks!" },
      ]);

      // A paid waitlist place, and the admin's plan change.
      await placeOnWaitlist(db, [{ userId: id, plan: "advanced" }]);
      await db.update(users).set({ waitlistPaid: true, advancedPaid: true }).where(eq(users.id, id));
      expect((await adminCall("PUT", `/api/admin/users/${id}/plan`, { plan: "intermediate" })).statusCode).toBe(200);
    });

    it("shows the plan, the waitlist place, and that the learner can be admitted", async () => {
      const { plan } = await learner(ama().id);
      expect(plan).toMatchObject({ plan: "intermediate", status: "active", start: expect.any(String), end: expect.any(String), queued: null, canAdmit: true });
      expect(plan.waitlist).toMatchObject({ track: "advanced", paid: true, admitted: false, admittedAt: null });
    });

    it("lists the learner's payments newest first, each with its refunds, and no one else's", async () => {
      const { payments: list } = await learner(ama().id);
      expect(list.total).toBe(2);
      expect(list.entries.map((payment) => [payment.reference, payment.status, payment.refundedMinor])).toEqual([
        ["LTF-AMA-2", "success", 10_000],
        ["LTF-AMA-1", "failed", 0],
      ]);
      expect(list.entries[0]?.refunds).toEqual([
        { id: expect.any(String), amountMinor: 10_000, status: "processed", reason: "asked nicely", createdAt: expect.any(String), processedAt: expect.any(String) },
      ]);
      expect(list.entries[1]?.refunds).toEqual([]);
    });

    it("shows each program's progress by learning's rule: the beginner program complete, with its certificate", async () => {
      const { programs } = await learner(ama().id);
      const beginner = programs.find((program) => program.track === "beginner");
      expect(beginner).toEqual({
        track: "beginner",
        title: expect.any(String),
        videos: beginnerVideos.length,
        watched: beginnerVideos.length,
        startedAt: expect.any(String),
        quiz: {
          questions: questionCount,
          correct: questionCount,
          passMark: expect.any(Number),
          passed: true,
          // Every attempt, scored (docs/product.md, "Quiz attempts").
          attempts: [
            expect.objectContaining({ number: 1, score: 0, total: questionCount, finished: true, passed: false }),
            expect.objectContaining({ number: 2, score: questionCount, total: questionCount, finished: true, passed: true }),
          ],
        },
        complete: true,
        certificateId: "TA-AMA0000001",
      });
      expect(programs.find((program) => program.track === "advanced")).toMatchObject({ watched: 0, startedAt: null, complete: false });
    });

    it("shows the latest quiz answers, newest first, capped, with how many there are", async () => {
      const { quizAttempts: list } = await learner(ama().id);
      expect(list.total).toBe(LEARNER_LIMITS.quizAttempts + 5);
      expect(list.entries).toHaveLength(LEARNER_LIMITS.quizAttempts);
      expect(list.entries[0]).toMatchObject({ track: "beginner", option: `option ${LEARNER_LIMITS.quizAttempts + 4}`, correct: true });
      expect(list.entries.at(-1)?.option).toBe("option 5");
    });

    it("shows the certificates and the questions asked, with their answer count", async () => {
      const page = await learner(ama().id);
      expect(page.certificates).toEqual([expect.objectContaining({ id: "TA-AMA0000001", programId: "beginner", revokedAt: null })]);
      expect(page.questions).toEqual({
        total: 1,
        entries: [{ id: expect.any(String), track: "beginner", moduleId: beginnerVideos[0], lessonTitle: expect.any(String), body: "What is a pip?", pinned: false, answers: 2, createdAt: expect.any(String) }],
      });
    });

    it("tells the plan's history from the audit log: changes of plan only, newest first, with who made them", async () => {
      const { planHistory } = await learner(ama().id);
      expect(planHistory.entries.map((entry) => entry.action)).toEqual(["plan.set", "subscription.expired"]);
      expect(planHistory.entries[0]).toMatchObject({
        actorId: user("admin").id,
        actorEmail: "admin@example.com",
        from: { plan: "legacyFree", status: "inactive", end: null },
        to: { plan: "intermediate", status: "active", end: expect.any(String) },
      });
      expect(planHistory.entries[1]).toMatchObject({ actorEmail: null, from: { plan: "intermediate" }, to: { plan: "intermediate", status: "expired" } });
      expect(planHistory.total).toBe(2);
    });

    it("lists every audit entry about the learner, and none about anyone else", async () => {
      const { audit } = await learner(ama().id);
      expect(audit.entries.map((entry) => entry.action)).toEqual(["plan.set", "progress.edited", "subscription.expired", "payment.refunded"]);
      expect(audit.total).toBe(4);
      expect(audit.entries[0]).toMatchObject({ actorEmail: "admin@example.com", reason: "admin" });
    });

    it("shows an admission at once: the waitlist place admitted, the plan it gave, and its history entry", async () => {
      expect((await adminCall("POST", `/api/admin/users/${ama().id}/admit`)).statusCode).toBe(200);
      const page = await learner(ama().id);
      expect(page.plan).toMatchObject({ plan: "advanced", status: "active", canAdmit: false });
      expect(page.plan.waitlist).toMatchObject({ admitted: true, admittedAt: expect.any(String) });
      expect(page.planHistory.entries[0]).toMatchObject({ action: "waitlist.admitted", to: { plan: "advanced", status: "active" } });
      expect(page.planHistory.total).toBe(3);
    });
  });
});
