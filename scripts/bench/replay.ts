// Scoring replay trades when 50 learners trade at once (docs/performance.md, "Trading"), on
// PostgreSQL, against the built app in a process of its own. Each round, 50 learners open the
// demo's replay exercise (as a learner does before trading: their session and the exercise are
// read then), and then all 50 send their trade at the same moment, each over a connection already
// open; the time each waits for its score is kept. Each learner answers once (an attempt is scored
// once), so every round has learners of its own, copied from one signed in with an Intermediate
// plan. Beside it, 50 requests at once to a bare Fastify hello-world, the same way: the ceiling of
// this machine.
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../src/server/db/client.ts";
import { copiedLearners, signedInLearner } from "./learners.ts";
import { createScratchDatabase, dropScratchDatabase } from "./postgres.ts";
import { BENCH_AUTH_SECRET, startApp, startHelloWorld, type Running } from "./processes.ts";

/** A trade on the seeded replay (src/server/testing/catalog.ts, PASSING_SEEDED_ANSWERS). */
const TRADE = JSON.stringify({ kind: "replay", attempt: 1, direction: "buy", stop: "1.0880", target: "1.0990", riskPercent: "1" });

export type Burst = { samplesMs: number[]; cpuMsPerRequest: number };
export type ReplayTiming = { learners: number; rounds: number; score: Burst; hello: Burst };

export function percentile(samples: readonly number[], share: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? 0;
}

type Call = { method: "GET" | "POST"; path: string; cookie?: string; body?: string };

/** One request over the agent's open connections: its status and how long its answer took. */
function timedCall(agent: Agent, base: string, call: Call): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { origin: base };
    if (call.cookie) headers.cookie = call.cookie;
    if (call.body) headers["content-type"] = "application/json";
    const outgoing = request(`${base}${call.path}`, { method: call.method, agent, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    outgoing.on("error", reject);
    outgoing.end(call.body);
  });
}

/** The requests at once, each answered `expected`; their times. */
async function burst(agent: Agent, base: string, calls: Call[], expected: number): Promise<number[]> {
  const answers = await Promise.all(calls.map((call) => timedCall(agent, base, call)));
  const wrong = answers.find((answer) => answer.status !== expected);
  if (wrong) throw new Error(`${calls[0]?.method} ${calls[0]?.path}: expected ${expected}, got ${wrong.status}`);
  return answers.map((answer) => answer.ms);
}

/** Opens `count` connections to `base` and keeps them, so that no measured request opens one. */
async function openConnections(count: number, base: string, path: string): Promise<Agent> {
  const agent = new Agent({ keepAlive: true, maxSockets: count });
  await burst(agent, base, Array.from({ length: count }, () => ({ method: "GET", path })), 200);
  return agent;
}

/** The template learner, and every copy of it, on the Intermediate plan for 30 days. */
async function setIntermediatePlan(url: string, template: string): Promise<void> {
  const token = decodeURIComponent(template.split("ta.session_token=")[1]?.split(";")[0] ?? "").split(".")[0] ?? "";
  const opened = await openDatabase({ kind: "postgres", url });
  try {
    await opened.db.execute(sql`update users set subscription_plan = 'intermediate', subscription_status = 'active',
      subscription_start = now(), subscription_end = now() + interval '30 days'
      where id = (select user_id from sessions where token = ${token}) or id like 'bench-%'`);
  } finally {
    await opened.close();
  }
}

export async function measureReplayScoring(adminUrl: string, learners = 50, rounds = 10): Promise<ReplayTiming> {
  const url = await createScratchDatabase(adminUrl);
  let app: Running | null = null;
  let hello: Running | null = null;
  try {
    app = await startApp({ kind: "postgres", url });
    const base = app.base;
    const template = await signedInLearner(base, "replay");
    // The template's plan is copied with it; its paid period is set on every copy after.
    await setIntermediatePlan(url, template);
    const cookies = await copiedLearners({ kind: "postgres", url }, template, learners * (rounds + 1), BENCH_AUTH_SECRET);
    await setIntermediatePlan(url, template);
    const track = await fetch(`${base}/api/programs/intermediate`, { headers: { cookie: cookies[0] ?? "" } });
    const modules = ((await track.json()) as { modules?: { id: string; exercise?: string }[] }).modules ?? [];
    const replay = modules.find((module) => module.exercise === "replay");
    if (!replay) throw new Error(`the intermediate program has no replay exercise (${track.status})`);
    const exercise = `/api/programs/intermediate/modules/${replay.id}/exercise`;

    const agent = await openConnections(learners, base, "/api/health");
    const samplesMs: number[] = [];
    let cpuMs = 0;
    // The first round warms the server up, and is not counted.
    for (let round = 0; round <= rounds; round++) {
      const group = cookies.slice(round * learners, (round + 1) * learners);
      await burst(agent, base, group.map((cookie) => ({ method: "GET", path: exercise, cookie })), 200);
      const cpuBefore = app.cpuSeconds();
      const times = await burst(agent, base, group.map((cookie) => ({ method: "POST", path: `${exercise}/submissions`, cookie, body: TRADE })), 200);
      if (round > 0) {
        samplesMs.push(...times);
        cpuMs += (app.cpuSeconds() - cpuBefore) * 1000;
      }
    }
    agent.destroy();
    await app.stop();
    app = null;

    hello = await startHelloWorld();
    const helloAgent = await openConnections(learners, hello.base, "/");
    const helloMs: number[] = [];
    let helloCpuMs = 0;
    for (let round = 0; round <= rounds; round++) {
      const cpuBefore = hello.cpuSeconds();
      const times = await burst(helloAgent, hello.base, Array.from({ length: learners }, () => ({ method: "GET", path: "/" })), 200);
      if (round > 0) {
        helloMs.push(...times);
        helloCpuMs += (hello.cpuSeconds() - cpuBefore) * 1000;
      }
    }
    helloAgent.destroy();
    return {
      learners,
      rounds,
      score: { samplesMs, cpuMsPerRequest: cpuMs / samplesMs.length },
      hello: { samplesMs: helloMs, cpuMsPerRequest: helloCpuMs / helloMs.length },
    };
  } finally {
    await app?.stop();
    await hello?.stop();
    await dropScratchDatabase(adminUrl);
  }
}
