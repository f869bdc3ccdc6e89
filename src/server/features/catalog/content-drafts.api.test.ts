// Drafts (docs/data.md, "Drafts"): what an administrator adds, a program, a lesson or a quiz
// question, is a draft no learner sees until it is published; administrators preview it as
// learners will. Completion once reached is kept, and Publish says how many completed learners it
// touches before it puts anything in front of them.
import type { InjectOptions } from "fastify";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_MESSAGES, type AdminProgram, type AdminQuiz, type PublishSummary } from "../../../shared/contracts/admin.ts";
import type { ProgramList } from "../../../shared/contracts/catalog.ts";
import { LEARNING_MESSAGES, type TrackDetail } from "../../../shared/contracts/learning.ts";
import { quizzes } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(176);
const VIDEO = "dQw4w9WgXcQ";

describe("drafts and publishing", () => {
  let t: TestApp;
  let user: (key: "admin" | "finisher" | "newcomer") => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, {
      admin: { plan: "admin" },
      finisher: { plan: "advanced" },
      newcomer: { plan: "advanced" },
    });
  });
  afterAll(() => t.close());

  const call = (who: TestUser, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...options.headers, cookie: who.cookie } });
  const admin = (options: InjectOptions) => call(user("admin"), options);
  const listed = async () => (await call(user("newcomer"), { method: "GET", url: "/api/programs" })).json<ProgramList>().programs.map((p) => p.id);
  const summary = async (id: string) => (await admin({ method: "GET", url: `/api/admin/programs/${id}/publish` })).json<PublishSummary>();
  const publish = (id: string) => admin({ method: "POST", url: `/api/admin/programs/${id}/publish` });
  const track = (who: TestUser, id: string) => call(who, { method: "GET", url: `/api/programs/${id}` });

  async function adminProgram(id: string): Promise<AdminProgram> {
    const programs = (await admin({ method: "GET", url: "/api/admin/programs" })).json<{ programs: AdminProgram[] }>().programs;
    const program = programs.find((p) => p.id === id);
    if (!program) throw new Error(`no program ${id}`);
    return program;
  }

  async function saveModules(id: string, change: (modules: AdminProgram["modules"]) => object[]) {
    const program = await adminProgram(id);
    const { title, duration, priceUsd, order, description } = program;
    const response = await admin({
      method: "PUT",
      url: `/api/admin/programs/${id}`,
      payload: { title, duration, priceUsd, order, description, modules: change(program.modules) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ program: AdminProgram }>().program;
  }

  it("keeps a new program out of learners' sight until it is published, and lets the admin preview it", async () => {
    const created = await admin({
      method: "POST",
      url: "/api/admin/programs",
      payload: {
        id: "swing-trading",
        level: "advanced",
        title: "Swing Trading",
        duration: "3 weeks",
        priceUsd: null,
        order: 20,
        description: [],
        modules: [{ title: "Holding for days", youtubeId: VIDEO }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const program = created.json<{ program: AdminProgram }>().program;
    expect(program).toMatchObject({ draft: true, modules: [{ draft: true }] });

    expect(await listed()).not.toContain("swing-trading");
    for (const path of ["", "/preview", `/modules/${program.modules[0]?.id}`]) {
      const refused = await call(user("newcomer"), { method: "GET", url: `/api/programs/swing-trading${path}` });
      expect(refused.statusCode, path).toBe(404);
      expect(refused.json()).toMatchObject({ error: { message: LEARNING_MESSAGES.notFound } });
    }
    const preview = await track(user("admin"), "swing-trading");
    expect(preview.statusCode).toBe(200);
    expect(preview.json<TrackDetail>().modules).toEqual([expect.objectContaining({ title: "Holding for days", draft: true })]);

    expect(await summary("swing-trading")).toEqual({ program: true, lessons: 1, questions: 0, completedLearners: 0 });
    const published = await publish("swing-trading");
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json<{ program: AdminProgram }>().program).toMatchObject({ draft: false, modules: [{ draft: false }] });
    expect(await listed()).toContain("swing-trading");
    const opened = (await track(user("newcomer"), "swing-trading")).json<TrackDetail>();
    expect(opened.modules.map((m) => m.title)).toEqual(["Holding for days"]);
    expect(opened.modules[0]).not.toHaveProperty("draft");

    const again = await publish("swing-trading");
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: { message: ADMIN_MESSAGES.nothingToPublish } });
  });

  it("hides a lesson and a question added to a published program until published; the finished stay complete", async () => {
    // The finisher completes Swing Trading: its one lesson, no quiz.
    const [lesson] = (await adminProgram("swing-trading")).modules;
    const watched = await call(user("finisher"), { method: "POST", url: `/api/programs/swing-trading/modules/${lesson?.id}/watched` });
    expect(watched.json()).toMatchObject({ completion: { complete: true, certificateId: expect.any(String) } });
    const certificateId = (await track(user("finisher"), "swing-trading")).json<TrackDetail>().completion.certificateId;

    const edited = await saveModules("swing-trading", (modules) => [...modules, { title: "Exits that hold", youtubeId: "", notes: "## Trail the stop" }]);
    const added = edited.modules[1];
    expect(added).toMatchObject({ title: "Exits that hold", draft: true });
    const quiz: AdminQuiz = {
      title: "Swing Quiz",
      questions: [{ question: "How long is a swing trade held?", options: ["A) Minutes", "B) Days"], answer: "B" }],
    };
    expect((await admin({ method: "PUT", url: "/api/admin/programs/swing-trading/quiz", payload: quiz })).statusCode).toBe(200);

    // Learners: the program as it was.
    const seen = (await track(user("newcomer"), "swing-trading")).json<TrackDetail>();
    expect(seen.modules.map((m) => m.title)).toEqual(["Holding for days"]);
    expect(seen.quiz).toBeNull();
    for (const options of [
      { method: "GET" as const, url: `/api/programs/swing-trading/modules/${added?.id}` },
      { method: "POST" as const, url: `/api/programs/swing-trading/modules/${added?.id}/watched` },
    ]) {
      expect((await call(user("newcomer"), options)).statusCode, options.url).toBe(404);
    }
    // The admin previews both.
    const previewed = (await track(user("admin"), "swing-trading")).json<TrackDetail>();
    expect(previewed.modules.map((m) => [m.title, m.draft ?? false])).toEqual([
      ["Holding for days", false],
      ["Exits that hold", true],
    ]);
    expect(previewed.quiz?.questions).toHaveLength(1);

    expect(await summary("swing-trading")).toEqual({ program: false, lessons: 1, questions: 1, completedLearners: 1 });
    expect((await publish("swing-trading")).statusCode).toBe(200);

    // Published: the newcomer sees it all; the finisher stays complete with the same certificate.
    const after = (await track(user("newcomer"), "swing-trading")).json<TrackDetail>();
    expect(after.modules.map((m) => m.title)).toEqual(["Holding for days", "Exits that hold"]);
    expect(after.quiz?.questions).toHaveLength(1);
    const finisher = (await track(user("finisher"), "swing-trading")).json<TrackDetail>();
    expect(finisher.completion).toMatchObject({ complete: true, certificateId });
    expect(finisher.watched).toEqual([lesson?.id]);
    const newcomerWatched = await call(user("newcomer"), { method: "POST", url: `/api/programs/swing-trading/modules/${lesson?.id}/watched` });
    expect(newcomerWatched.json()).toMatchObject({ completion: { complete: false, certificateId: null } });
  });

  it("keeps a published question published when the quiz is saved again, and marks a new one a draft", async () => {
    const stored = (await admin({ method: "GET", url: "/api/admin/programs/swing-trading/quiz" })).json<AdminQuiz>();
    const next: AdminQuiz = {
      ...stored,
      questions: [
        // Sent back marked as a draft: the server decides, by the question as stored.
        ...stored.questions.map((question) => ({ ...question, draft: true })),
        { question: "Where does the stop go?", options: ["A) Under the swing low", "B) Nowhere"], answer: "A", draft: false },
      ],
    };
    const saved = (await admin({ method: "PUT", url: "/api/admin/programs/swing-trading/quiz", payload: next })).json<AdminQuiz>();
    expect(saved.questions.map((q) => q.draft ?? false)).toEqual([false, true]);
    expect((await track(user("newcomer"), "swing-trading")).json<TrackDetail>().quiz?.questions).toHaveLength(1);
    expect((await adminProgram("swing-trading")).draftQuestionCount).toBe(1);
  });

  it("refuses to publish a question without a correct option, and publishes nothing", async () => {
    const [row] = await t.database.db.select({ questions: quizzes.questions }).from(quizzes).where(eq(quizzes.programId, "swing-trading"));
    const broken = { question: "Which one?", options: ["A) This", "B) That"], answer: "", draft: true as const };
    await t.database.db
      .update(quizzes)
      .set({ questions: [...(row?.questions ?? []), broken] })
      .where(eq(quizzes.programId, "swing-trading"));
    t.services.catalog.invalidate();

    const refused = await publish("swing-trading");
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { message: ADMIN_MESSAGES.publishNoAnswer("Which one?") } });
    expect(await summary("swing-trading")).toMatchObject({ questions: 2 });
    expect((await track(user("newcomer"), "swing-trading")).json<TrackDetail>().quiz?.questions).toHaveLength(1);
  });

  it("lets no learner publish or read what would be published", async () => {
    for (const method of ["GET", "POST"] as const) {
      const response = await call(user("newcomer"), { method, url: "/api/admin/programs/swing-trading/publish" });
      expect(response.statusCode).toBe(403);
    }
    const unknown = await publish("no-such-program");
    expect(unknown.statusCode).toBe(404);
  });
});
