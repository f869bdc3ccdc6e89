import { asc, eq, inArray, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import type { Db } from "./client.ts";
import { illustrativeBars } from "../../shared/trading/illustrative-bars.ts";
import { config, modules, priceBars, priceDataSets, programs, quizzes } from "./schema.ts";
import { SEED_PROGRAMS } from "./seed-content.ts";
import { seedDatabase } from "./seed.ts";
import { renderLessonNotes } from "../features/catalog/lesson-notes.ts";
import { checkedExercise } from "../features/exercises/exercises.seam.ts";

const SEEDED_IDS = ["beginner", "intermediate", "advanced"];

/** The whole catalogue, in a stable order, for before/after comparisons. */
async function catalogue(db: Db) {
  return {
    programs: await db.select().from(programs).orderBy(asc(programs.id)),
    modules: await db
      .select()
      .from(modules)
      .orderBy(asc(modules.programId), asc(modules.position)),
    quizzes: await db.select().from(quizzes).orderBy(asc(quizzes.programId)),
  };
}

async function listedProgramIds(t: TestApp): Promise<string[]> {
  // These tests change rows behind the app's back; only admin routes clear its program cache.
  t.services.catalog.invalidate();
  const response = await t.app.inject({ method: "GET", url: "/api/programs" });
  expect(response.statusCode).toBe(200);
  return response.json<{ programs: { id: string }[] }>().programs.map((program) => program.id);
}

describe("seedDatabase", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it("starts from an empty catalogue with createTestApp({ seed: false })", async () => {
    expect(await listedProgramIds(t)).toEqual([]);
    expect(await catalogue(t.database.db)).toEqual({ programs: [], modules: [], quizzes: [] });
    expect(await t.database.db.select().from(config)).toEqual([]);
  });

  it("seeds an empty database once, however often it runs", async () => {
    const db = t.database.db;
    expect(await seedDatabase(db)).toEqual({ seeded: true });
    const first = await catalogue(db);
    expect(await seedDatabase(db)).toEqual({ seeded: false });
    expect(await catalogue(db)).toEqual(first);

    expect(first.programs.map((program) => program.id).sort()).toEqual([...SEEDED_IDS].sort());
    for (const seed of SEED_PROGRAMS) {
      const programModules = first.modules.filter((module) => module.programId === seed.id);
      expect(programModules.map((module) => module.position)).toEqual(
        seed.modules.map((_, position) => position),
      );
      expect(programModules.map(({ title, youtubeId, exercise }) => ({ title, youtubeId, exercise }))).toEqual(
        seed.modules.map(({ title, youtubeId, exercise }) => ({ title, youtubeId, exercise: exercise ?? null })),
      );
    }
    expect(first.modules).toHaveLength(
      SEED_PROGRAMS.reduce((total, seed) => total + seed.modules.length, 0),
    );
    expect(first.quizzes.map((quiz) => quiz.programId).sort()).toEqual([...SEEDED_IDS].sort());
    expect(await listedProgramIds(t)).toEqual(SEEDED_IDS);
  });

  it("seeds one data set of price bars for the demo's exercises, labelled illustrative, once", async () => {
    const db = t.database.db;
    expect(await seedDatabase(db)).toEqual({ seeded: false });
    const sets = await db.select().from(priceDataSets);
    expect(sets.map(({ name, instrument, pipSize, timeframe, source, illustrative, barCount }) => ({ name, instrument, pipSize, timeframe, source, illustrative, barCount }))).toEqual([
      { name: "EURUSD H1 (illustrative, not real prices)", instrument: "EURUSD", pipSize: "0.0001", timeframe: "H1", source: "generated", illustrative: true, barCount: 600 },
    ]);
    const [set] = sets;
    const bars = await db.select().from(priceBars).where(eq(priceBars.dataSetId, set?.id ?? "")).orderBy(asc(priceBars.position));
    expect(bars.map(({ time, open, high, low, close }) => ({ time, open, high, low, close }))).toEqual(illustrativeBars());
  });

  it("seeds the demo's exercises on the illustrative set, each as the Programs tab would save it", async () => {
    const db = t.database.db;
    const [set] = await db.select({ id: priceDataSets.id }).from(priceDataSets);
    const seeded = await db.select({ title: modules.title, exercise: modules.exercise, dataSetId: modules.exerciseDataSetId }).from(modules).where(isNotNull(modules.exercise));
    expect(seeded.map(({ title, exercise }) => ({ title, kind: exercise?.kind }))).toEqual([
      { title: "Practice: mark the support", kind: "level" },
      { title: "Practice: trade the breakout", kind: "replay" },
    ]);
    for (const { exercise, dataSetId } of seeded) {
      if (!exercise || !set) throw new Error("an exercise without its settings");
      expect(dataSetId).toBe(set.id);
      // Saving it again in the Programs tab would keep it as it is: every field passes the checks.
      await expect(db.transaction((tx) => checkedExercise(tx, { ...exercise, dataSetId: set.id }))).resolves.toEqual({ ...exercise, dataSetId: set.id });
    }
  });

  it("seeds lesson notes whose HTML is what the Programs tab renders from them, linking the calculators the lesson uses", () => {
    const withNotes = SEED_PROGRAMS.flatMap((program) => program.modules).filter((module) => module.notes !== undefined);
    expect(withNotes.map((module) => module.title)).toEqual(["Risk management", "Building a trading plan"]);
    for (const module of withNotes) {
      expect(module.notesHtml).toBe(renderLessonNotes(module.notes ?? ""));
      expect(module.notesHtml).toMatch(/<a href="\/tools\?calc=[a-z-]+">/);
    }
  });

  it("seeds quizzes whose options are lettered and whose answer is one of the letters", async () => {
    const rows = await t.database.db.select().from(quizzes);
    expect(rows).toHaveLength(3);
    for (const quiz of rows) {
      expect(quiz.title).toMatch(/\S/);
      expect(quiz.questions.length).toBeGreaterThan(0);
      for (const question of quiz.questions) {
        expect(question.question).toMatch(/\S/);
        expect(question.options.length).toBeGreaterThanOrEqual(2);
        for (const option of question.options) expect(option).toMatch(/^[A-D]\) /);
        const letters = question.options.map((option) => option[0]);
        expect(new Set(letters).size).toBe(letters.length);
        expect(letters).toContain(question.answer);
      }
    }
  });

  it("leaves an administrator's edits alone when it runs again", async () => {
    const db = t.database.db;
    await db
      .update(programs)
      .set({ title: "Beginner Program (2025 edition)" })
      .where(eq(programs.id, "beginner"));
    const [doomed] = await db
      .select({ id: modules.id })
      .from(modules)
      .where(eq(modules.programId, "intermediate"))
      .orderBy(asc(modules.position))
      .limit(1);
    if (!doomed) throw new Error("the seed has no intermediate module");
    await db.delete(modules).where(eq(modules.id, doomed.id));
    const edited = await catalogue(db);

    expect(await seedDatabase(db)).toEqual({ seeded: false });
    expect(await catalogue(db)).toEqual(edited);
    expect(edited.programs.find((program) => program.id === "beginner")?.title).toBe(
      "Beginner Program (2025 edition)",
    );
    expect(edited.modules.some((module) => module.id === doomed.id)).toBe(false);
  });

  it("does not bring deleted programs back", async () => {
    const db = t.database.db;
    await db.delete(programs).where(inArray(programs.id, SEEDED_IDS));
    expect(await seedDatabase(db)).toEqual({ seeded: false });
    expect(await catalogue(db)).toEqual({ programs: [], modules: [], quizzes: [] });
    expect(await listedProgramIds(t)).toEqual([]);
  });

  it("records that it ran, with the subscription lock off", async () => {
    const rows = await t.database.db.select().from(config).orderBy(asc(config.key));
    expect(rows.map(({ key, value }) => ({ key, value }))).toEqual([
      { key: "seed", value: { version: 1 } },
      { key: "subscription", value: { locked: false } },
    ]);
  });
});

describe("seedDatabase beside an administrator's program", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it("keeps a program an administrator made first under a seed id", async () => {
    const db = t.database.db;
    await db.insert(programs).values({
      id: "beginner",
      level: "beginner",
      title: "Our Own Beginner Course",
      duration: "6 weeks",
      order: 1,
    });
    expect(await seedDatabase(db)).toEqual({ seeded: true });
    const seeded = await catalogue(db);
    const beginner = seeded.programs.find((program) => program.id === "beginner");
    expect(beginner).toMatchObject({ title: "Our Own Beginner Course", duration: "6 weeks" });
    expect(seeded.modules.filter((module) => module.programId === "beginner")).toEqual([]);
    expect(seeded.quizzes.map((quiz) => quiz.programId).sort()).toEqual(["advanced", "intermediate"]);
  });

  it("seeds once when two processes seed at the same time", async () => {
    const db = t.database.db;
    // Back to an empty database.
    await db.delete(programs).where(inArray(programs.id, SEEDED_IDS));
    await db.delete(config).where(inArray(config.key, ["seed", "subscription"]));
    expect(await catalogue(db)).toEqual({ programs: [], modules: [], quizzes: [] });

    const results = await Promise.all([seedDatabase(db), seedDatabase(db), seedDatabase(db)]);
    expect(results.filter((result) => result.seeded)).toHaveLength(1);
    expect(await listedProgramIds(t)).toEqual(SEEDED_IDS);
    const seeded = await catalogue(db);
    expect(seeded.quizzes).toHaveLength(3);
    expect(seeded.modules).toHaveLength(
      SEED_PROGRAMS.reduce((total, seed) => total + seed.modules.length, 0),
    );
  });
});
