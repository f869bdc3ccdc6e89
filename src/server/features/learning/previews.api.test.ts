// What a locked program shows of itself (docs/product.md, "Previews"): its curriculum to anyone
// signed in, and the lessons an admin opened as free previews, whole; nothing else of it.
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminProgram } from "../../../shared/contracts/admin.ts";
import { LEARNING_MESSAGES, type LessonContent, type ProgramPreview } from "../../../shared/contracts/learning.ts";
import { SEED_PROGRAMS } from "../../db/seed-content.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(174);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

describe("free previews of a locked program", () => {
  let t: TestApp;
  let user: (key: "admin" | "free" | "advanced") => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, { admin: { plan: "admin" }, free: { plan: "legacyFree" }, advanced: { plan: "advanced" } });
  });
  afterAll(() => t.close());

  const call = (who: TestUser | null, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...options.headers, ...(who ? { cookie: who.cookie } : {}) } });

  async function intermediate(): Promise<AdminProgram> {
    const response = await call(user("admin"), { method: "GET", url: "/api/admin/programs" });
    const program = response.json<{ programs: AdminProgram[] }>().programs.find((p) => p.id === "intermediate");
    if (!program) throw new Error("no intermediate program");
    return program;
  }

  const preview = async (who: TestUser) => {
    const response = await call(who, { method: "GET", url: "/api/programs/intermediate/preview" });
    expect(response.statusCode).toBe(200);
    return response.json<ProgramPreview>();
  };

  it("shows anyone signed in the curriculum and the quiz's size, never a closed lesson's video or a question", async () => {
    const seed = SEED_PROGRAMS.find((p) => p.id === "intermediate");
    const shown = await preview(user("free"));
    expect(shown.open).toBe(false);
    expect(shown.program.title).toBe(seed?.title);
    expect(shown.lessons.map((l) => l.title)).toEqual(seed?.modules.map((m) => m.title));
    expect(shown.lessons.every((l) => !l.freePreview && l.youtubeId === null && l.description === "")).toBe(true);
    expect(shown.quiz).toEqual({ title: seed?.quiz.title, questionCount: seed?.quiz.questions.length });
    const body = JSON.stringify(shown);
    for (const module of seed?.modules ?? []) if (module.youtubeId) expect(body).not.toContain(module.youtubeId);
    for (const question of seed?.quiz.questions ?? []) expect(body).not.toContain(question.question);

    expect((await preview(user("advanced"))).open).toBe(true);
    expect((await call(null, { method: "GET", url: "/api/programs/intermediate/preview" })).statusCode).toBe(401);
    const unknown = await call(user("free"), { method: "GET", url: "/api/programs/expert/preview" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { message: LEARNING_MESSAGES.notFound } });
  });

  it("opens a lesson an admin marks as a free preview, its notes and files, and nothing else of the program", async () => {
    const program = await intermediate();
    const [first, second] = program.modules;
    const saved = await call(user("admin"), {
      method: "PUT",
      url: "/api/admin/programs/intermediate",
      payload: {
        title: program.title,
        duration: program.duration,
        priceUsd: program.priceUsd,
        order: program.order,
        description: program.description,
        modules: program.modules.map((m, index) => (index === 0 ? { ...m, freePreview: true, notes: "## Why patterns work" } : m)),
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const upload = await call(user("admin"), {
      method: "POST",
      url: `/api/admin/programs/intermediate/modules/${first?.id}/attachments?name=patterns.pdf`,
      headers: { "content-type": "application/octet-stream" },
      payload: PDF,
    });
    expect(upload.statusCode).toBe(201);

    const shown = await preview(user("free"));
    expect(shown.lessons[0]).toMatchObject({ id: first?.id, freePreview: true, youtubeId: first?.youtubeId, description: first?.description });
    expect(shown.lessons[1]).toMatchObject({ id: second?.id, freePreview: false, youtubeId: null });

    const lesson = await call(user("free"), { method: "GET", url: `/api/programs/intermediate/modules/${first?.id}` });
    expect(lesson.statusCode).toBe(200);
    const content = lesson.json<LessonContent>();
    expect(content.notesHtml).toBe("<h2>Why patterns work</h2>");
    const file = await call(user("free"), { method: "GET", url: content.attachments[0]?.url ?? "" });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PDF)).toBe(true);

    // Everything else stays premium, in the spec's words.
    for (const url of [
      "/api/programs/intermediate",
      `/api/programs/intermediate/modules/${second?.id}`,
    ]) {
      const refused = await call(user("free"), { method: "GET", url });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toMatchObject({ error: { message: LEARNING_MESSAGES.premiumOnly } });
    }
    const watched = await call(user("free"), { method: "POST", url: `/api/programs/intermediate/modules/${first?.id}/watched`, payload: {} });
    expect(watched.statusCode).toBe(403);
    const answer = await call(user("free"), { method: "POST", url: "/api/programs/intermediate/quiz/answers", payload: { questionIndex: 0, option: "A" } });
    expect(answer.statusCode).toBe(403);
  });
});
