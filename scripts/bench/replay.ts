// Scoring replay trades under load (docs/performance.md, "Trading"): 50 learners at once send their
// trade on the demo's replay exercise, on PostgreSQL, to the built app in a process of its own, as
// autocannon measures every route of the bench (50 connections); then a bare Fastify hello-world
// the same way, the ceiling of this machine. Each request is a learner's first answer (an attempt is
// scored once), from learners copied from one signed in with an Intermediate plan.
import { sql } from "drizzle-orm";
import { openDatabase } from "../../src/server/db/client.ts";
import { copiedLearners, signedInLearner } from "./learners.ts";
import { runLoad, type LoadResult } from "./load.ts";
import { createScratchDatabase, dropScratchDatabase } from "./postgres.ts";
import { BENCH_AUTH_SECRET, startApp, startHelloWorld, type Running } from "./processes.ts";

/** A trade on the seeded replay (src/server/testing/catalog.ts, PASSING_SEEDED_ANSWERS). */
const TRADE = JSON.stringify({ kind: "replay", attempt: 1, direction: "buy", stop: "1.0880", target: "1.0990", riskPercent: "1" });

export type ReplayTiming = { connections: number; learners: number; score: LoadResult; hello: LoadResult };

/**
 * Trades sent by `connections` learners at once for `durationS` seconds (after a warm-up), each
 * request a learner's first answer, so every one is scored (an attempt is scored once); then the
 * hello-world at as many connections.
 */
export async function measureReplayScoring(adminUrl: string, connections = 50, durationS = 5): Promise<ReplayTiming> {
  const url = await createScratchDatabase(adminUrl);
  let app: Running | null = null;
  let hello: Running | null = null;
  try {
    app = await startApp({ kind: "postgres", url });
    const base = app.base;
    const template = await signedInLearner(base, "replay");
    const token = decodeURIComponent(template.split("ta.session_token=")[1]?.split(";")[0] ?? "").split(".")[0] ?? "";
    const setPlan = async () => {
      const opened = await openDatabase({ kind: "postgres", url });
      try {
        await opened.db.execute(sql`update users set subscription_plan = 'intermediate', subscription_status = 'active',
          subscription_start = now(), subscription_end = now() + interval '30 days'
          where id = (select user_id from sessions where token = ${token}) or id like 'bench-%'`);
      } finally {
        await opened.close();
      }
    };
    // The template's plan is copied with it; its paid period is set on every copy after.
    await setPlan();
    const cookies = await copiedLearners({ kind: "postgres", url }, template, LEARNERS, BENCH_AUTH_SECRET);
    await setPlan();
    const track = await fetch(`${base}/api/programs/intermediate`, { headers: { cookie: cookies[0] ?? "" } });
    const modules = ((await track.json()) as { modules?: { id: string; exercise?: string }[] }).modules ?? [];
    const replay = modules.find((module) => module.exercise === "replay");
    if (!replay) throw new Error(`the intermediate program has no replay exercise (${track.status})`);

    let next = 0;
    const running = app;
    const score = await runLoad(
      {
        label: "scoring a replay",
        url: `${base}/api/programs/intermediate/modules/${replay.id}/exercise/submissions`,
        method: "POST",
        requestAt: () => ({ cookie: cookies[next++ % cookies.length] ?? "", body: TRADE }),
        settleUrl: `${base}/api/health`,
      },
      { connections, durationS, warmupS: 1 },
      () => running.cpuSeconds(),
    );
    if (next > cookies.length) throw new Error(`${next} trades for ${cookies.length} learners: some were second answers`);
    await app.stop();
    app = null;

    hello = await startHelloWorld();
    const ceiling = hello;
    const helloResult = await runLoad({ label: "hello-world", url: `${hello.base}/` }, { connections, durationS, warmupS: 1 }, () => ceiling.cpuSeconds());
    return { connections, learners: next, score, hello: helloResult };
  } finally {
    await app?.stop();
    await hello?.stop();
    await dropScratchDatabase(adminUrl);
  }
}

/** Enough learners for every trade of the run to be a first answer, at a few thousand a second. */
const LEARNERS = 30_000;
