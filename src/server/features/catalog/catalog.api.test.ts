import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { modules, programs } from "../../db/schema.ts";
import { SEED_PROGRAMS } from "../../db/seed-content.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { createCatalogCache } from "./catalog.service.ts";

const PUBLIC_FIELDS = ["description", "duration", "id", "level", "moduleCount", "order", "priceUsd", "title"];

type ProgramBody = Record<string, unknown>;

/** Every object key anywhere in a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, child]) => [key, ...allKeys(child)]);
  }
  return [];
}

describe("GET /api/programs", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function listPrograms(): Promise<ProgramBody[]> {
    // These tests change rows behind the app's back; only admin routes clear its program cache.
    t.services.catalog.invalidate();
    const response = await t.app.inject({ method: "GET", url: "/api/programs" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    const body = response.json<{ programs: ProgramBody[] }>();
    expect(Object.keys(body)).toEqual(["programs"]);
    return body.programs;
  }

  /** Adds a program for one test and removes it (and its modules) afterwards. */
  async function addProgram(values: typeof programs.$inferInsert) {
    await t.database.db.insert(programs).values(values);
    onTestFinished(async () => {
      await t.database.db.delete(programs).where(eq(programs.id, values.id));
    });
  }

  it("serves the list from memory: a row changed behind the app's back shows after the cache is cleared", async () => {
    const before = await listPrograms();
    await t.database.db.update(programs).set({ title: "Changed behind the app" }).where(eq(programs.id, "beginner"));
    onTestFinished(async () => {
      await t.database.db.update(programs).set({ title: "Beginner Program" }).where(eq(programs.id, "beginner"));
    });
    const cached = await t.app.inject({ method: "GET", url: "/api/programs" });
    expect(cached.json<{ programs: ProgramBody[] }>().programs).toEqual(before);
    expect((await listPrograms()).find((p) => p.id === "beginner")?.title).toBe("Changed behind the app");
  });

  it("lists the three seeded programs sorted by order", async () => {
    const list = await listPrograms();
    expect(list.map((program) => program.id)).toEqual(["beginner", "intermediate", "advanced"]);
    expect(list.map((program) => program.order)).toEqual([1, 2, 3]);
  });

  it("answers exactly the public fields of each program", async () => {
    const list = await listPrograms();
    for (const program of list) {
      expect(Object.keys(program).sort()).toEqual(PUBLIC_FIELDS);
    }
    const beginner = SEED_PROGRAMS[0];
    expect(list[0]).toEqual({
      id: "beginner",
      level: "beginner",
      title: beginner?.title,
      duration: "4 weeks",
      priceUsd: null,
      description: beginner?.description,
      order: 1,
      moduleCount: beginner?.modules.length,
    });
  });

  it("gives prices in US dollars: none for beginner, 35 and 50 for the others", async () => {
    const prices = Object.fromEntries(
      (await listPrograms()).map((program) => [program.id, program.priceUsd]),
    );
    expect(prices).toEqual({ beginner: null, intermediate: 35, advanced: 50 });
  });

  it("counts each program's modules", async () => {
    const counts = Object.fromEntries(
      (await listPrograms()).map((program) => [program.id, program.moduleCount]),
    );
    expect(counts).toEqual(
      Object.fromEntries(SEED_PROGRAMS.map((program) => [program.id, program.modules.length])),
    );
    expect(Object.values(counts).every((count) => typeof count === "number" && count > 0)).toBe(
      true,
    );
  });

  it("leaks no video ids, modules, quizzes or answers", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/programs" });
    const text = response.body;
    const keys = allKeys(response.json());
    for (const forbidden of ["youtubeId", "modules", "videos", "quiz", "questions", "answer"]) {
      expect(keys).not.toContain(forbidden);
    }
    for (const program of SEED_PROGRAMS) {
      for (const module of program.modules) if (module.youtubeId) expect(text).not.toContain(module.youtubeId);
      expect(text).not.toContain(program.quiz.title);
      for (const question of program.quiz.questions) {
        expect(text).not.toContain(question.question);
        for (const option of question.options) expect(text).not.toContain(option);
      }
    }
  });

  it("puts a program with order 0 first", async () => {
    await addProgram({
      id: "foundations",
      level: "beginner",
      title: "Foundations",
      duration: "1 week",
      priceUsdCents: 1250,
      description: ["Before you start"],
      order: 0,
    });
    const list = await listPrograms();
    expect(list.map((program) => program.id)).toEqual([
      "foundations",
      "beginner",
      "intermediate",
      "advanced",
    ]);
    expect(list[0]).toMatchObject({ order: 0, priceUsd: 12.5, moduleCount: 0 });
  });

  it("counts no modules for a program without any", async () => {
    await addProgram({ id: "empty", level: "advanced", title: "Empty Program", duration: "4 weeks", order: 5 });
    const list = await listPrograms();
    expect(list.at(-1)).toEqual({
      id: "empty",
      level: "advanced",
      title: "Empty Program",
      duration: "4 weeks",
      priceUsd: null,
      description: [],
      order: 5,
      moduleCount: 0,
    });
  });

  it("places a program without an explicit order last (default 99)", async () => {
    await addProgram({ id: "later", level: "intermediate", title: "Later", duration: "4 weeks" });
    const list = await listPrograms();
    expect(list.at(-1)).toMatchObject({ id: "later", order: 99 });
  });

  it("follows a module deleted from the data store", async () => {
    const [first] = await t.database.db
      .select({ id: modules.id })
      .from(modules)
      .where(eq(modules.programId, "beginner"))
      .limit(1);
    if (!first) throw new Error("the seed has no beginner module");
    const before = (await listPrograms()).find((program) => program.id === "beginner");
    await t.database.db.delete(modules).where(eq(modules.id, first.id));
    const after = (await listPrograms()).find((program) => program.id === "beginner");
    expect(after?.moduleCount).toBe(Number(before?.moduleCount) - 1);
  });
});

describe("the catalog cache when the database cannot be read", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("keeps serving the last catalog it read, but never one an admin change cleared", async () => {
    const cache = createCatalogCache(t.database.db, 10_000);
    const before = await cache.read(0);
    expect(before.summaries.map((p) => p.id)).toEqual(["beginner", "intermediate", "advanced"]);

    await t.database.db.execute(sql`alter table programs rename to programs_hidden`);
    try {
      expect(await cache.read(60_000)).toBe(before);
      expect(await cache.read(120_000)).toBe(before);
      cache.invalidate();
      await expect(cache.read(120_001)).rejects.toThrow();
    } finally {
      await t.database.db.execute(sql`alter table programs_hidden rename to programs`);
    }
    const after = await cache.read(120_002);
    expect(after).not.toBe(before);
    expect(after.summaries).toEqual(before.summaries);
  });
});
