// Where a learner stopped in a lesson's video (docs/product.md, "Lesson player"): saved per learner
// and lesson, returned for the track, only for programs the learner's plan opens, bounded to a day.
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Track } from "../../../shared/plans.ts";
import { lessonPositions } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { seededModuleIds } from "../../testing/catalog.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(71);

const error = (code: string, message: string) => ({ error: { code, message, requestId: expect.any(String) } });
const PREMIUM_ONLY = error("PREMIUM_ONLY", "Available to Premium users only");
const NOT_FOUND = error("PROGRAM_NOT_FOUND", "Program not found.");
const MODULE_NOT_FOUND = error("MODULE_NOT_FOUND", "This video is not part of the program.");

describe("lesson positions API", () => {
  let t: TestApp;
  let moduleId: (track: Track, index: number) => string;
  let user: (key: "free" | "advanced" | "other" | "bounds" | "admin") => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    moduleId = await seededModuleIds(t);
    user = await createTestUsers(t, nextIp, {
      free: { plan: "legacyFree" },
      advanced: { plan: "advanced" },
      other: { plan: "advanced" },
      bounds: {},
      admin: { plan: "admin" },
    });
  });
  afterAll(() => t.close());

  function call(learner: TestUser | null, options: InjectOptions) {
    return t.app.inject({ ...options, headers: { ...options.headers, ...(learner ? { cookie: learner.cookie } : {}) } });
  }
  const save = (learner: TestUser | null, track: string, module: string, payload: unknown) =>
    call(learner, {
      method: "PUT",
      url: `/api/programs/${encodeURIComponent(track)}/modules/${encodeURIComponent(module)}/position`,
      payload: payload as object,
    });
  const positions = (learner: TestUser | null, track: string) =>
    call(learner, { method: "GET", url: `/api/programs/${encodeURIComponent(track)}/positions` });

  async function storedRows(userId: string) {
    return t.database.db
      .select({ moduleId: lessonPositions.moduleId, seconds: lessonPositions.seconds })
      .from(lessonPositions)
      .where(eq(lessonPositions.userId, userId));
  }

  it("a saved position is returned for the track, overwritten by the next, and kept per learner", async () => {
    const learner = user("advanced");
    const first = moduleId("beginner", 0);
    const second = moduleId("beginner", 1);
    expect((await positions(learner, "beginner")).json()).toEqual({ positions: {} });

    const saved = await save(learner, "beginner", first, { seconds: 95 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ seconds: 95 });
    expect((await save(learner, "beginner", second, { seconds: 12 })).statusCode).toBe(200);
    expect((await save(learner, "beginner", first, { seconds: 130 })).statusCode).toBe(200);
    expect((await save(learner, "advanced", moduleId("advanced", 0), { seconds: 7 })).statusCode).toBe(200);

    const read = await positions(learner, "beginner");
    expect(read.statusCode).toBe(200);
    expect(read.headers["cache-control"]).toBe("no-store");
    expect(read.json()).toEqual({ positions: { [first]: 130, [second]: 12 } });
    expect((await positions(learner, "advanced")).json()).toEqual({ positions: { [moduleId("advanced", 0)]: 7 } });
    expect(await storedRows(learner.id)).toHaveLength(3);
    // Another learner's lessons start at the beginning.
    expect((await positions(user("other"), "beginner")).json()).toEqual({ positions: {} });
  });

  it("a program the learner's plan does not open is refused (403), as every learning route refuses it", async () => {
    const learner = user("free");
    for (const track of ["intermediate", "advanced"] as const) {
      const saved = await save(learner, track, moduleId(track, 0), { seconds: 30 });
      expect(saved.statusCode).toBe(403);
      expect(saved.json()).toEqual(PREMIUM_ONLY);
      const read = await positions(learner, track);
      expect(read.statusCode).toBe(403);
      expect(read.json()).toEqual(PREMIUM_ONLY);
    }
    expect(await storedRows(learner.id)).toEqual([]);
  });

  it("an unknown program, a lesson of another program or no lesson at all is 404, and nothing is stored", async () => {
    const learner = user("admin");
    expect((await save(learner, "expert", moduleId("beginner", 0), { seconds: 5 })).json()).toEqual(NOT_FOUND);
    expect((await positions(learner, "expert")).json()).toEqual(NOT_FOUND);
    for (const module of [moduleId("advanced", 0), "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const saved = await save(learner, "beginner", module, { seconds: 5 });
      expect(saved.statusCode, module).toBe(404);
      expect(saved.json()).toEqual(MODULE_NOT_FOUND);
    }
    expect(await storedRows(learner.id)).toEqual([]);
  });

  it("a position is whole seconds from 0 to 24 hours: anything else is a 400 that stores nothing", async () => {
    const learner = user("bounds");
    const lesson = moduleId("beginner", 0);
    for (const seconds of [0, 86_400]) {
      const saved = await save(learner, "beginner", lesson, { seconds });
      expect(saved.statusCode, String(seconds)).toBe(200);
      expect((await positions(learner, "beginner")).json()).toEqual({ positions: { [lesson]: seconds } });
    }
    for (const payload of [{ seconds: -1 }, { seconds: 86_401 }, { seconds: 12.5 }, { seconds: "60" }, {}, { seconds: 1e12 }]) {
      const saved = await save(learner, "beginner", lesson, payload);
      expect(saved.statusCode, JSON.stringify(payload)).toBe(400);
      expect(saved.json().error.code).toBe("VALIDATION");
    }
    expect(await storedRows(learner.id)).toEqual([{ moduleId: lesson, seconds: 86_400 }]);
  });

  it("a visitor is asked to sign in", async () => {
    expect((await save(null, "beginner", moduleId("beginner", 0), { seconds: 5 })).statusCode).toBe(401);
    expect((await positions(null, "beginner")).statusCode).toBe(401);
  });
});
