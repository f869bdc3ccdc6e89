// Certificates owed (docs/product.md, "Completion and certificates"): a learner whom an
// administrator's save makes complete, or who completed before certificates existed, is certified
// by the job that follows, once, with the email; a revoked certificate is not issued again.
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminProgram } from "../../../shared/contracts/admin.ts";
import { certificates } from "../../db/schema.ts";
import { loadCatalog } from "../catalog/catalog.service.ts";
import { SEED_PROGRAMS } from "../../db/seed-content.ts";
import { createTestUsers, ipAllocator, mailsTo, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { issueOwedCertificates } from "./certificates.ts";

const nextIp = ipAllocator(26);

const USERS = {
  admin: { plan: "admin" },
  allButLast: {},
  unfinished: {},
  revoked: {},
  twoRight: {},
  progressEdited: {},
  earlyFinisher: {},
  pagedFirst: {},
  pagedSecond: {},
  pagedStuck: {},
} satisfies Record<string, TestUserPlan>;

const QUESTIONS = SEED_PROGRAMS.find((program) => program.id === "beginner")?.quiz.questions ?? [];
const SUBJECT = "Your Trading Academy certificate: Beginner Program";

describe("certificates owed", () => {
  let t: TestApp;
  let user: (key: keyof typeof USERS) => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, USERS);
  });
  afterAll(() => t.close());

  const call = (caller: TestUser, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...options.headers, cookie: caller.cookie } });
  const admin = (options: InjectOptions) => call(user("admin"), options);

  async function beginner(): Promise<AdminProgram> {
    const list = await admin({ method: "GET", url: "/api/admin/programs" });
    const program = list.json<{ programs: AdminProgram[] }>().programs.find((entry) => entry.id === "beginner");
    if (!program) throw new Error("no Beginner program");
    return program;
  }

  async function study(learner: TestUser, { videos, rightAnswers }: { videos: number; rightAnswers: number }) {
    const { modules } = await beginner();
    for (const module of modules.slice(0, videos)) {
      const watched = await call(learner, { method: "POST", url: `/api/programs/beginner/modules/${module.id}/watched`, payload: {} });
      expect(watched.statusCode, watched.body).toBe(200);
    }
    for (const [questionIndex, question] of QUESTIONS.entries()) {
      const option = questionIndex < rightAnswers ? question.answer : question.answer === "A" ? "B" : "A";
      const answered = await call(learner, { method: "POST", url: "/api/programs/beginner/quiz/answers", payload: { questionIndex, option } });
      expect(answered.statusCode, answered.body).toBe(200);
    }
    // A completing answer starts the job runner to send its email; the test's own runs start after.
    await t.services.jobs.runDue();
  }

  const completionOf = async (learner: TestUser) =>
    (await call(learner, { method: "GET", url: "/api/programs/beginner" })).json().completion;
  const certificatesOf = (learner: TestUser) => t.database.db.select().from(certificates).where(eq(certificates.userId, learner.id));
  const certificateMails = async (learner: TestUser) =>
    (await mailsTo(t, learner.email)).filter((mail) => mail.subject === SUBJECT);

  it("an admin's removal of the one video a learner had not watched certifies them, once, with the email", async () => {
    const videos = (await beginner()).modules.length;
    await study(user("allButLast"), { videos: videos - 1, rightAnswers: QUESTIONS.length });
    await study(user("unfinished"), { videos: videos - 2, rightAnswers: QUESTIONS.length });
    await study(user("revoked"), { videos, rightAnswers: QUESTIONS.length });
    const [revoked] = await certificatesOf(user("revoked"));
    const revoke = await admin({ method: "POST", url: `/api/admin/certificates/${revoked?.id}/revoke`, payload: { reason: "Shared answers" } });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect((await completionOf(user("allButLast"))).complete).toBe(false);

    const { title, duration, priceUsd, order, description, modules } = await beginner();
    const form = { title, duration, priceUsd, order, description, modules: modules.slice(0, -1) };
    const save = () => admin({ method: "PUT", url: "/api/admin/programs/beginner", payload: form });
    expect((await save()).statusCode).toBe(200);
    await t.services.jobs.runDue();

    const completion = await completionOf(user("allButLast"));
    expect(completion).toMatchObject({ complete: true, certificateId: expect.stringMatching(/^TA-/) });
    expect(await certificateMails(user("allButLast"))).toHaveLength(1);
    expect(await certificatesOf(user("unfinished"))).toEqual([]);
    expect(await certificatesOf(user("revoked"))).toEqual([expect.objectContaining({ id: revoked?.id, revokedAt: expect.any(Date) })]);

    expect((await save()).statusCode).toBe(200);
    await t.services.jobs.runDue();
    expect(await certificatesOf(user("allButLast"))).toEqual([expect.objectContaining({ id: completion.certificateId })]);
    expect(await certificateMails(user("allButLast"))).toHaveLength(1);
  });

  it("a lower pass mark certifies the learners it passes", async () => {
    await study(user("twoRight"), { videos: (await beginner()).modules.length, rightAnswers: QUESTIONS.length - 1 });
    expect((await completionOf(user("twoRight"))).complete).toBe(false);

    const quiz = await admin({ method: "GET", url: "/api/admin/programs/beginner/quiz" });
    const saved = await admin({
      method: "PUT",
      url: "/api/admin/programs/beginner/quiz",
      payload: { ...quiz.json<object>(), passMark: QUESTIONS.length - 1 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await t.services.jobs.runDue();

    expect(await completionOf(user("twoRight"))).toMatchObject({ complete: true, certificateId: expect.stringMatching(/^TA-/) });
    expect(await certificateMails(user("twoRight"))).toHaveLength(1);
  });

  it("an admin's Edit Progress that marks the last video watched certifies the learner", async () => {
    const learner = user("progressEdited");
    const { modules } = await beginner();
    await study(learner, { videos: 1, rightAnswers: QUESTIONS.length });
    expect((await completionOf(learner)).complete).toBe(false);
    const progress = { beginner: Object.fromEntries(modules.map((module) => [module.id, true])) };
    const edited = await admin({ method: "PUT", url: `/api/admin/users/${learner.id}/progress`, payload: { progress } });
    expect(edited.statusCode, edited.body).toBe(200);
    await t.services.jobs.runDue();

    expect(await completionOf(learner)).toMatchObject({ complete: true, certificateId: expect.stringMatching(/^TA-/) });
    expect(await certificateMails(learner)).toHaveLength(1);
  });

  it("migration 0013 queues the job that certifies learners who completed before certificates existed", async () => {
    const learner = user("earlyFinisher");
    await study(learner, { videos: (await beginner()).modules.length, rightAnswers: QUESTIONS.length });
    // As the database stood before certificates: complete, and no certificate ever.
    await t.database.db.delete(certificates).where(eq(certificates.userId, learner.id));
    expect((await completionOf(learner)).certificateId).toBeNull();

    await t.database.db.execute(sql.raw(readFileSync("drizzle/0013_owed_certificates.sql", "utf8")));
    await t.services.jobs.runDue();

    expect(await completionOf(learner)).toMatchObject({ complete: true, certificateId: expect.stringMatching(/^TA-/) });
    expect(await certificatesOf(learner)).toHaveLength(1);
  });

  it("reads the candidates a page at a time: every learner owed one is certified, whatever the page size", async () => {
    const videos = (await beginner()).modules.length;
    const owed = [user("pagedFirst"), user("pagedSecond")];
    for (const learner of owed) {
      await study(learner, { videos, rightAnswers: QUESTIONS.length });
      await t.database.db.delete(certificates).where(eq(certificates.userId, learner.id));
    }
    // Between them, or around them, in the order of the pages: one who watched every video and
    // has not passed the quiz.
    await study(user("pagedStuck"), { videos, rightAnswers: 0 });
    const track = (await loadCatalog(t.database.db)).tracks.get("beginner");
    if (!track) throw new Error("no Beginner track");

    expect(await issueOwedCertificates(t.database.db, track, { pageSize: 1 })).toBe(2);
    for (const learner of owed) expect(await certificatesOf(learner)).toHaveLength(1);
    expect(await certificatesOf(user("pagedStuck"))).toEqual([]);
    expect(await issueOwedCertificates(t.database.db, track, { pageSize: 1 })).toBe(0);
  });
});
