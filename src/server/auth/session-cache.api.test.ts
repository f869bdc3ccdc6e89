// Signed-in reads served from memory stay correct (docs/performance.md, "Caching signed-in
// reads"): a session that ends, a plan that changes and progress written by another instance or
// behind the app's back are seen at once, on this instance and on another one on the database.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, userProgress, users } from "../db/schema.ts";
import { createTestUsers, ipAllocator, signOut, type TestUser } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const CACHE_ON = { SIGNED_IN_CACHE: "on" };

describe("signed-in reads kept in memory", () => {
  let t: TestApp;
  let other: TestApp;
  let user: (key: "learner" | "leaver" | "admin" | "watcher") => TestUser;
  const nextIp = ipAllocator(71);

  beforeAll(async () => {
    t = await createTestApp({ env: CACHE_ON });
    // A second instance on the same database, as several machines run it.
    other = await createTestApp({ env: CACHE_ON, database: t.database });
    user = await createTestUsers(t, nextIp, { learner: {}, leaver: {}, admin: { plan: "admin" }, watcher: {} });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  /** The session cookie's name and its value (`token.signature`), decoded. */
  function sessionCookieOf(caller: TestUser) {
    const pair = caller.cookie.split("; ").find((part) => part.includes("session_token="));
    if (!pair) throw new Error("no session cookie");
    const [cookieName = "", encoded = ""] = pair.split("=");
    return { cookieName, value: decodeURIComponent(encoded) };
  }

  const read = (app: TestApp, caller: TestUser, track = "beginner") =>
    app.app.inject({ method: "GET", url: `/api/programs/${track}`, headers: { cookie: caller.cookie } });

  /**
   * Reads until `settled` holds: at once on PGlite, within a moment on PostgreSQL, where the notice
   * arrives on the listening connection. Each retry waits on a timer, so the event loop reaches
   * that connection's socket; the deadline only bounds a failure under a loaded machine.
   */
  async function readSoon<T>(readOnce: () => Promise<T>, settled: (value: T) => boolean): Promise<T> {
    const started = Date.now();
    let value = await readOnce();
    while (!settled(value) && Date.now() - started < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      value = await readOnce();
    }
    return value;
  }

  const statusSoon = (app: TestApp, caller: TestUser, track: string, expected: number) =>
    readSoon(async () => (await read(app, caller, track)).statusCode, (status) => status === expected);

  it("keeps a session and a learner's standing once read", async () => {
    const learner = user("learner");
    expect((await read(t, learner)).statusCode).toBe(200);
    expect(t.services.sessions.cache.size).toBeGreaterThan(0);
    expect(t.services.standingCache.size).toBeGreaterThan(0);
  });

  it("refuses a kept session's token under a wrong signature or none: the cookie is checked before anything is kept", async () => {
    const learner = user("learner");
    expect((await read(t, learner)).statusCode).toBe(200);
    const { cookieName, value } = sessionCookieOf(learner);
    const dot = value.lastIndexOf(".");
    const first = value[dot + 1] === "A" ? "B" : "A"; // the signature's first character, changed
    const forged = [
      `${value.slice(0, dot + 1)}${first}${value.slice(dot + 2)}`,
      value.slice(0, dot),
      `${value.slice(0, dot)}.`,
      `${value[0] === "A" ? "B" : "A"}${value.slice(1)}`,
    ];
    for (const forgery of forged) {
      const answer = await read(t, { ...learner, cookie: `${cookieName}=${encodeURIComponent(forgery)}` });
      expect(answer.statusCode, forgery).toBe(401);
    }
    expect((await read(t, learner)).statusCode).toBe(200);
  });

  it("refuses a signed-out session at once, on this instance and on the other", async () => {
    const leaver = user("leaver");
    expect((await read(t, leaver)).statusCode).toBe(200);
    expect((await read(other, leaver)).statusCode).toBe(200);
    expect((await signOut(t, leaver.cookie)).statusCode).toBe(200);
    expect((await read(t, leaver)).statusCode).toBe(401);
    expect(await statusSoon(other, leaver, "beginner", 401)).toBe(401);
  });

  it("sees a plan an administrator gives, on both instances", async () => {
    const learner = user("learner");
    expect((await read(t, learner, "intermediate")).statusCode).toBe(403);
    expect((await read(other, learner, "intermediate")).statusCode).toBe(403);
    const response = await t.app.inject({
      method: "PUT",
      url: `/api/admin/users/${learner.id}/plan`,
      headers: { cookie: user("admin").cookie, origin: t.services.env.appUrl },
      payload: { plan: "intermediate" },
    });
    expect(response.statusCode).toBe(200);
    expect((await read(t, learner, "intermediate")).statusCode).toBe(200);
    expect(await statusSoon(other, learner, "intermediate", 200)).toBe(200);
  });

  it("sees a change written behind the app's back: a plan ended, a session removed", async () => {
    const learner = user("learner");
    expect((await read(t, learner, "intermediate")).statusCode).toBe(200);
    await t.database.db.update(users).set({ subscriptionPlan: "legacyFree" }).where(eq(users.id, learner.id));
    expect(await statusSoon(t, learner, "intermediate", 403)).toBe(403);
    expect(await statusSoon(other, learner, "intermediate", 403)).toBe(403);
    await t.database.db.delete(sessions).where(eq(sessions.userId, learner.id));
    expect(await statusSoon(t, learner, "beginner", 401)).toBe(401);
    expect(await statusSoon(other, learner, "beginner", 401)).toBe(401);
  });

  it("shows a video marked watched on one instance in the next read on the other", async () => {
    const watcher = user("watcher");
    const before = (await read(other, watcher)).json<{ watched: string[]; modules: { id: string }[] }>();
    expect(before.watched).toEqual([]);
    const first = before.modules[0]?.id ?? "";
    const marked = await t.app.inject({
      method: "POST",
      url: `/api/programs/beginner/modules/${first}/watched`,
      headers: { cookie: watcher.cookie, origin: t.services.env.appUrl },
      payload: {},
    });
    expect(marked.statusCode).toBe(200);
    expect((await read(t, watcher)).json<{ watched: string[] }>().watched).toEqual([first]);
    const watched = await readSoon(
      async () => (await read(other, watcher)).json<{ watched: string[] }>().watched,
      (ids) => ids.length > 0,
    );
    expect(watched).toEqual([first]);
    const [row] = await t.database.db.select().from(userProgress).where(eq(userProgress.userId, watcher.id));
    expect(row?.startedAt).toBeInstanceOf(Date);
  });

  it("shows a quiz answer given on one instance in the next read on the other", async () => {
    // The answer's own transaction announces nothing; the server announces it once committed.
    const watcher = user("watcher");
    const track = (await read(other, watcher)).json<{ quiz: { questions: { options: string[] }[] } | null }>();
    expect(track.quiz?.questions.length).toBeGreaterThan(0);
    const answered = await t.app.inject({
      method: "POST",
      url: "/api/programs/beginner/quiz/answers",
      headers: { cookie: watcher.cookie, origin: t.services.env.appUrl },
      payload: { questionIndex: 0, option: "A" },
    });
    expect(answered.statusCode).toBe(200);
    type Answers = { quiz: { answers: { questionIndex: number; option: string }[] } };
    const answersOn = async (app: TestApp) => (await read(app, watcher)).json<Answers>().quiz.answers;
    expect(await answersOn(t)).toEqual([expect.objectContaining({ questionIndex: 0, option: "A" })]);
    expect(await readSoon(() => answersOn(other), (answers) => answers.length > 0)).toEqual([
      expect.objectContaining({ questionIndex: 0, option: "A" }),
    ]);
  });
});
