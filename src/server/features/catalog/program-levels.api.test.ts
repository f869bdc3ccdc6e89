// Any number of programs per level (docs/data.md, "Content"): a plan opens levels, so a program an
// administrator adds opens exactly as its level's seeded one does; archiving takes a program out of
// the catalogue and nothing away from its learners.
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Learner } from "../../../shared/contracts/admin-learner.ts";
import { ADMIN_MESSAGES, type AdminProgram } from "../../../shared/contracts/admin.ts";
import type { ProgramList } from "../../../shared/contracts/catalog.ts";
import { LEARNING_MESSAGES, type ProgramProgress, type TrackDetail } from "../../../shared/contracts/learning.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(175);
const VIDEO = "dQw4w9WgXcQ";

type Who = "admin" | "free" | "intermediate" | "advanced";

describe("programs in levels", () => {
  let t: TestApp;
  let user: (key: Who) => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, {
      admin: { plan: "admin" },
      free: { plan: "legacyFree" },
      intermediate: { plan: "intermediate" },
      advanced: { plan: "advanced" },
    });
  });
  afterAll(() => t.close());

  const call = (who: TestUser, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...options.headers, cookie: who.cookie } });

  async function create(id: string, level: string, title: string) {
    const response = await call(user("admin"), {
      method: "POST",
      url: "/api/admin/programs",
      payload: {
        id,
        level,
        title,
        duration: "2 weeks",
        priceUsd: null,
        order: 10,
        description: ["Position sizing"],
        modules: [
          { title: "Sizing a position", youtubeId: VIDEO },
          { title: "The stop you can live with", notes: "## Where the stop goes" },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const published = await call(user("admin"), { method: "POST", url: `/api/admin/programs/${id}/publish` });
    expect(published.statusCode, published.body).toBe(200);
    return published.json<{ program: AdminProgram }>().program;
  }

  const catalogue = async (who: TestUser) =>
    (await call(who, { method: "GET", url: "/api/programs" })).json<ProgramList>().programs;
  const open = (who: TestUser, id: string) => call(who, { method: "GET", url: `/api/programs/${id}` });
  const progress = async (who: TestUser) =>
    (await call(who, { method: "GET", url: "/api/progress" })).json<{ programs: Record<string, ProgramProgress> }>().programs;
  const archive = (id: string, archived: boolean) =>
    call(user("admin"), { method: "POST", url: `/api/admin/programs/${id}/archive`, payload: { archived } });

  it("opens a second program of a level to the plans that open the level, and no other", async () => {
    const program = await create("risk-management", "intermediate", "Risk Management Bootcamp");
    expect(program).toMatchObject({ id: "risk-management", level: "intermediate", archived: false });

    const listed = (await catalogue(user("free"))).find((p) => p.id === "risk-management");
    expect(listed).toMatchObject({ level: "intermediate", title: "Risk Management Bootcamp", moduleCount: 2 });

    const refused = await open(user("free"), "risk-management");
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { message: LEARNING_MESSAGES.premiumOnly } });
    const preview = await call(user("free"), { method: "GET", url: "/api/programs/risk-management/preview" });
    expect(preview.json()).toMatchObject({ open: false, lessons: [{ title: "Sizing a position" }, { title: "The stop you can live with" }] });

    for (const who of ["intermediate", "advanced", "admin"] as const) {
      const response = await open(user(who), "risk-management");
      expect(response.statusCode, who).toBe(200);
      expect(response.json<TrackDetail>().program).toMatchObject({ id: "risk-management", level: "intermediate" });
    }
    expect(Object.keys(await progress(user("free")))).not.toContain("risk-management");
    expect(Object.keys(await progress(user("intermediate")))).toContain("risk-management");
  });

  it("takes a program in Advanced to a certificate for an Advanced learner, never for an Intermediate one", async () => {
    const program = await create("crypto-basics", "advanced", "Crypto Basics");
    expect((await open(user("intermediate"), "crypto-basics")).statusCode).toBe(403);
    const [first, second] = program.modules;
    for (const module of [first, second]) {
      const intermediate = await call(user("intermediate"), { method: "POST", url: `/api/programs/crypto-basics/modules/${module?.id}/watched` });
      expect(intermediate.statusCode).toBe(403);
    }
    let answer;
    for (const module of [first, second]) {
      answer = await call(user("advanced"), { method: "POST", url: `/api/programs/crypto-basics/modules/${module?.id}/watched` });
      expect(answer.statusCode, answer.body).toBe(200);
    }
    expect(answer?.json()).toMatchObject({ completion: { complete: true, certificateId: expect.any(String) } });
  });

  it("archives a program out of the catalogue; who started it keeps opening it with their progress and certificate", async () => {
    const program = await create("trading-psychology", "beginner", "Trading Psychology");
    const [first, second] = program.modules;
    for (const module of [first, second]) {
      const watched = await call(user("free"), { method: "POST", url: `/api/programs/trading-psychology/modules/${module?.id}/watched` });
      expect(watched.statusCode).toBe(200);
    }
    const before = (await open(user("free"), "trading-psychology")).json<TrackDetail>();
    expect(before.completion).toMatchObject({ complete: true, certificateId: expect.any(String) });

    const archived = await archive("trading-psychology", true);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json<{ program: AdminProgram }>().program.archived).toBe(true);
    expect((await catalogue(user("free"))).map((p) => p.id)).not.toContain("trading-psychology");
    // Still the admin's to edit, and in the audit.
    const listed = (await call(user("admin"), { method: "GET", url: "/api/admin/programs" })).json<{ programs: AdminProgram[] }>();
    expect(listed.programs.find((p) => p.id === "trading-psychology")?.archived).toBe(true);

    const after = await open(user("free"), "trading-psychology");
    expect(after.statusCode).toBe(200);
    expect(after.json<TrackDetail>()).toMatchObject({ watched: before.watched, completion: before.completion });
    const certificate = await call(user("free"), { method: "GET", url: `/api/certificates/${before.completion.certificateId}` });
    expect(certificate.statusCode).toBe(200);
    // Listed to the learner who started it, not to one who never did.
    expect(Object.keys(await progress(user("free")))).toContain("trading-psychology");
    expect(Object.keys(await progress(user("advanced")))).not.toContain("trading-psychology");
    const learner = (await call(user("admin"), { method: "GET", url: `/api/admin/users/${user("free").id}` })).json<Learner>();
    expect(learner.programs.find((p) => p.track === "trading-psychology")).toMatchObject({ complete: true });

    expect((await archive("trading-psychology", false)).statusCode).toBe(200);
    expect((await catalogue(user("free"))).map((p) => p.id)).toContain("trading-psychology");
    const audit = (await call(user("admin"), { method: "GET", url: "/api/admin/audit" })).json<{ entries: { action: string }[] }>();
    expect(audit.entries.map((entry) => entry.action)).toEqual(expect.arrayContaining(["program.archived", "program.restored"]));
  });

  it("refuses an id that is taken, or that an address cannot hold, and archives no unknown program", async () => {
    const taken = await call(user("admin"), {
      method: "POST",
      url: "/api/admin/programs",
      payload: { id: "risk-management", level: "advanced", title: "Again", duration: "1 week", priceUsd: null, order: null, description: [], modules: [] },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: { message: ADMIN_MESSAGES.programExists } });
    const unknown = await archive("no-such-program", true);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { message: ADMIN_MESSAGES.programNotFound } });
    const byLearner = await call(user("advanced"), { method: "POST", url: "/api/admin/programs/risk-management/archive", payload: { archived: true } });
    expect(byLearner.statusCode).toBe(403);
    expect((await catalogue(user("free"))).map((p) => p.id)).toContain("risk-management");
  });
});
