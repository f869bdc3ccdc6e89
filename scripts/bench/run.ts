// `npm run bench`: measures the app against the budgets of docs/performance.md and writes the
// figures, with the machine they were taken on, to docs/benchmarks.md.
//
// Usage: node --import tsx scripts/bench/run.ts [options]   (npm run bench builds first)
// It runs the built app (dist/) as child processes on loopback ports, on PGlite (a temporary data
// folder) and on PostgreSQL (a scratch database ta_bench, dropped at the end).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { dashboardSection, parseAdminTimings, runScript, type AdminTimings } from "./admin.ts";
import {
  CHROMIUM_FLAGS,
  LIGHTHOUSE_CATEGORIES,
  measureBundle,
  measureFile,
  runLighthouse,
  type Bundle,
  type BundleFile,
  type LighthousePage,
  type LighthouseResult,
} from "./frontend.ts";
import { copiedLearners, signedInLearner, signedInLearners, trackShape } from "./learners.ts";
import { autocannonVersion, medianRound, runBeside, runLoad, type LoadResult, type LoadTarget, type Loaded } from "./load.ts";
import { describeMachine, type Machine } from "./machine.ts";
import { createScratchDatabase, dropScratchDatabase, postgresVersion, SCRATCH_DATABASE } from "./postgres.ts";
import { BENCH_AUTH_SECRET, projectRoot, startApp, startHelloWorld, usePortsFrom, type Database, type Running } from "./processes.ts";
import {
  budgetRow,
  decimal,
  duration,
  integer,
  kilobytes,
  notMeasured,
  percent,
  seconds,
  table,
  verdict,
  type BudgetLine,
  type Cell,
  type Section,
} from "./report.ts";
import { measureStartup, type StartupResult } from "./startup.ts";
import { measureBarsParse, tradingSection } from "./trading.ts";
import { measureReplayScoring, type ReplayTiming } from "./replay.ts";

const SECTIONS = ["api", "lighthouse", "admin", "startup", "postgres", "trading"] as const;
type Skippable = (typeof SECTIONS)[number];

const ROUTES = {
  programs: "GET /api/programs",
  shell: "GET / (SPA shell)",
  track: "GET /api/programs/beginner (signed in)",
  watched: "POST /api/programs/beginner/modules/:id/watched (signed in)",
  quiz: "POST /api/programs/beginner/quiz/answers (signed in)",
  prices: "GET /api/prices",
} as const;
type RouteName = keyof typeof ROUTES;
const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

const USAGE = `Usage: node --import tsx scripts/bench/run.ts [options]

Options:
  --duration S         seconds of load per round (default 5)
  --rounds N           rounds per route, each after a round of the ceiling; the median
                       round of each is kept (default 3)
  --connections LIST   concurrent connections, each count a pass of its own over
                       every route (default 100,50)
  --warmup S           unmeasured seconds of load before a route's first round (default 2)
  --learners N         signed-in learners sharing the connections (default 20)
  --quiz-learners N    learners the quiz answers go round, copied in the database from
                       a signed-in one (default 18000; 5 answers a minute per question)
  --lighthouse-runs N  Lighthouse runs per page, the median kept (default 1)
  --startup-runs N     starts on an existing database, per database (default 3)
  --users N            users seeded for the admin timings (default 100000)
  --postgres-url URL   a PostgreSQL database to connect to for creating ${SCRATCH_DATABASE}
                       (default $BENCH_POSTGRES_URL or postgres://root@127.0.0.1:5432/test)
  --chromium PATH      Chromium for Lighthouse (default $CHROMIUM_PATH or /usr/bin/chromium)
  --web-dir DIR        built browser app to measure (default dist/web)
  --out FILE           the report (default docs/benchmarks.md)
  --ports FIRST        the servers' loopback ports, one after another from FIRST
                       (default: any free port)
  --skip LIST          leave out some of: ${SECTIONS.join(", ")} (comma-separated)
  --routes LIST        load only some of: ${Object.keys(ROUTES).join(", ")} (default all; the
                       others' budgets are reported not measured)`;

/** The run's load settings: every route is measured once at each of `connections`. */
type LoadPlan = { connections: number[]; durationS: number; warmupS: number; rounds: number };

type Options = {
  load: LoadPlan;
  learners: number;
  quizLearners: number;
  lighthouseRuns: number;
  startupRuns: number;
  users: number;
  postgresUrl: string;
  chromium: string;
  webDir: string;
  out: string;
  skip: Set<Skippable>;
  routes: Set<RouteName>;
  firstPort: number | null;
};

function positive(name: string, value: string, allowZero = false): number {
  const number = Number(value.replaceAll(/[_,]/g, ""));
  if (!Number.isInteger(number) || number < (allowZero ? 0 : 1)) {
    throw new Error(`--${name} must be a whole number${allowZero ? "" : " above 0"}\n\n${USAGE}`);
  }
  return number;
}

function parseOptions(argv: string[]): Options | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      duration: { type: "string", default: "5" },
      rounds: { type: "string", default: "3" },
      connections: { type: "string", default: "100,50" },
      warmup: { type: "string", default: "2" },
      learners: { type: "string", default: "20" },
      "quiz-learners": { type: "string", default: "18000" },
      "lighthouse-runs": { type: "string", default: "1" },
      "startup-runs": { type: "string", default: "3" },
      users: { type: "string", default: "100000" },
      "postgres-url": {
        type: "string",
        default: process.env.BENCH_POSTGRES_URL ?? "postgres://root@127.0.0.1:5432/test",
      },
      chromium: { type: "string", default: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
      "web-dir": { type: "string", default: join(projectRoot, "dist", "web") },
      out: { type: "string", default: join(projectRoot, "docs", "benchmarks.md") },
      skip: { type: "string", default: "" },
      routes: { type: "string", default: Object.keys(ROUTES).join(",") },
      ports: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return "help";
  const skip = new Set<Skippable>();
  for (const name of values.skip.split(",").map((entry) => entry.trim()).filter(Boolean)) {
    const known = SECTIONS.find((section) => section === name);
    if (!known) throw new Error(`--skip: unknown section "${name}"\n\n${USAGE}`);
    skip.add(known);
  }
  const routes = new Set<RouteName>();
  for (const name of values.routes.split(",").map((entry) => entry.trim()).filter(Boolean)) {
    const known = ROUTE_NAMES.find((route) => route === name);
    if (!known) throw new Error(`--routes: unknown route "${name}"\n\n${USAGE}`);
    routes.add(known);
  }
  return {
    load: {
      durationS: positive("duration", values.duration),
      connections: [...new Set(values.connections.split(",").map((count) => positive("connections", count.trim())))],
      warmupS: positive("warmup", values.warmup, true),
      rounds: positive("rounds", values.rounds),
    },
    learners: positive("learners", values.learners),
    quizLearners: positive("quiz-learners", values["quiz-learners"]),
    lighthouseRuns: positive("lighthouse-runs", values["lighthouse-runs"]),
    startupRuns: positive("startup-runs", values["startup-runs"]),
    users: positive("users", values.users),
    postgresUrl: values["postgres-url"],
    chromium: values.chromium,
    webDir: values["web-dir"],
    out: values.out,
    skip,
    routes,
    firstPort: values.ports === undefined ? null : positive("ports", values.ports),
  };
}

const runStarted = performance.now();
/** Progress lines carry the time since the start ("[02:15]"); tables are printed as they are. */
const log = (line: string) => {
  const elapsed = Math.round((performance.now() - runStarted) / 1000);
  const stamp = `[${String(Math.floor(elapsed / 60)).padStart(2, "0")}:${String(elapsed % 60).padStart(2, "0")}]`;
  console.log(line.startsWith("\n") ? `\n${stamp} ${line.slice(1)}` : `${stamp} ${line}`);
};
/** A path as the report shows it: relative to the project when inside it. */
const shown = (path: string) => {
  const inside = relative(projectRoot, path);
  return inside && !inside.startsWith("..") ? inside : path;
};
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Prints a section as soon as it is measured; it goes into the report at the end too. */
function show(section: Section): Section {
  console.log(`\n## ${section.title}\n\n${section.markdown}\n`);
  return section;
}

// ---------------------------------------------------------------------------------------------
// Measurements kept for the report

type DbLabel = "PGlite" | "PostgreSQL";

/**
 * A route's figures at one connection count: its median round, the median of the ceiling's rounds
 * measured beside it (null without a ceiling), and every round's req/s of each.
 */
type RouteResult = LoadResult & {
  connections: number;
  ceiling: LoadResult | null;
  rounds: number[];
  ceilingRounds: number[];
};

type AppRun = {
  label: DbLabel;
  firstStartMs: number | null;
  load: RouteResult[];
  loadError: string | null;
  startup: StartupResult | null;
  startupError: string | null;
};


function logResult(label: string, result: RouteResult): void {
  const share = result.ceiling ? ` (${percent(result.requestsPerS / result.ceiling.requestsPerS)} of the ceiling beside it)` : "";
  log(
    `  ${label} at ${result.connections}: ${integer(result.requestsPerS)} req/s${share}, p50 ${result.p50Ms} ms, ` +
      `p99 ${result.p99Ms} ms, ${decimal(result.cpuMsPerRequest, 3)} ms CPU/request; rounds ` +
      `${result.rounds.map(integer).join(", ")}, ceiling ${result.ceilingRounds.map(integer).join(", ") || "none"}` +
      (result.non2xx || result.errors ? `, non-2xx ${result.non2xx} (${result.otherStatuses}), errors ${result.errors}` : ""),
  );
}

/**
 * Every route at each connection count of the plan, in rounds beside the ceiling's, the server's
 * CPU time read around each; each result goes into `results` as it is measured, so a failing route
 * keeps the ones before it.
 */
async function loadRoutes(
  app: Running,
  ceiling: Loaded | null,
  learners: BenchLearners,
  plan: LoadPlan,
  routes: Set<RouteName>,
  results: RouteResult[],
): Promise<void> {
  const { base } = app;
  const { cookies, quizCookies, firstModuleId, answers } = learners;
  // The quiz answers go round the copied learners, then the questions, one pass after the other:
  // as few answers per learner and question in a minute as the run allows (the app takes 5).
  let nextAnswer = 0;
  const settleUrl = `${base}/api/health`;
  const targets: LoadTarget[] = [
    { label: ROUTES.programs, url: `${base}/api/programs`, settleUrl },
    { label: ROUTES.shell, url: `${base}/`, settleUrl },
    { label: ROUTES.track, url: `${base}/api/programs/beginner`, cookies, settleUrl },
    {
      label: ROUTES.watched,
      url: `${base}/api/programs/beginner/modules/${firstModuleId}/watched`,
      method: "POST",
      cookies,
      settleUrl,
    },
    ...(answers.length > 0
      ? [
          {
            label: ROUTES.quiz,
            url: `${base}/api/programs/beginner/quiz/answers`,
            method: "POST" as const,
            requestAt: () => {
              const index = nextAnswer++;
              const question = Math.floor(index / quizCookies.length) % answers.length;
              return {
                cookie: quizCookies[index % quizCookies.length] ?? "",
                body: JSON.stringify({ questionIndex: question, option: answers[question] }),
              };
            },
            settleUrl,
          },
        ]
      : []),
    { label: ROUTES.prices, url: `${base}/api/prices`, settleUrl },
  ];
  const chosen = new Set<string>([...routes].map((name) => ROUTES[name]));
  for (const connections of plan.connections) {
    for (const target of targets.filter((candidate) => chosen.has(candidate.label))) {
      const measured = await runBeside({ target, cpuSeconds: () => app.cpuSeconds() }, ceiling, { ...plan, connections });
      const result: RouteResult = {
        ...measured.route,
        connections,
        ceiling: measured.ceiling,
        rounds: measured.routeRounds.map((round) => round.requestsPerS),
        ceilingRounds: measured.ceilingRounds.map((round) => round.requestsPerS),
      };
      logResult(target.label, result);
      results.push(result);
    }
  }
}

type BenchLearners = {
  /** Registered, verified and signed in through the API; they have watched the first video. */
  cookies: string[];
  /** Copies of the first, for the quiz answers. */
  quizCookies: string[];
  firstModuleId: string;
  /** The first option of each question of the quiz. */
  answers: string[];
};

/**
 * The learners of the load: `options.learners` made through the API, who watch the first video
 * (it opens the quiz); then, the app stopped, `options.quizLearners` copies of the first written in
 * the database, and the app started again, which then serves one more learner's registration and
 * sign-in. Returns the app now running.
 */
async function prepareLearners(app: Running, database: Database, label: DbLabel, options: Options): Promise<{ app: Running; learners: BenchLearners }> {
  const started = performance.now();
  const cookies = await signedInLearners(app.base, label.toLowerCase(), options.learners);
  log(`  ${cookies.length} learners registered, verified and signed in (${seconds(performance.now() - started)})`);
  const { firstModuleId, answers } = await trackShape(app.base, cookies[0] ?? "", "beginner");
  for (const cookie of cookies) {
    const watched = await fetch(`${app.base}/api/programs/beginner/modules/${firstModuleId}/watched`, {
      method: "POST",
      headers: { cookie, origin: app.base },
    });
    await watched.arrayBuffer();
    if (!watched.ok) throw new Error(`marking the first video watched answered ${watched.status}`);
  }
  await app.stop();
  const copied = performance.now();
  const quizCookies = await copiedLearners(database, cookies[0] ?? "", options.quizLearners, BENCH_AUTH_SECRET);
  log(`  ${quizCookies.length} learners copied for the quiz answers (${seconds(performance.now() - copied)})`);
  const restarted = await startApp(database);
  // The measured process serves a registration and a sign-in first, as every server in use has:
  // on Node 20 the auth library's first call changed what every later request cost
  // (docs/performance.md, "Context across awaits").
  await signedInLearner(restarted.base, `${label.toLowerCase()}-served`);
  return { app: restarted, learners: { cookies, quizCookies, firstModuleId, answers } };
}

// /program/beginner opens the first lesson (a lesson page); /program/intermediate is a locked
// program with its curriculum, for the free learner the bench signs in.
const LIGHTHOUSE_PAGES = ["/", "/program", "/subscription", "/login", "/program/beginner", "/program/intermediate"];
const SIGNED_IN_PAGES = new Set(["/program", "/subscription", "/program/beginner", "/program/intermediate"]);

/** Replays scored under a burst, on PostgreSQL (scripts/bench/replay.ts), or why they were not. */
async function replayScoring(options: Options, pgError: string | null): Promise<ReplayTiming | string> {
  if (pgError) return pgError;
  log("\nTrading: replays scored under a burst, on PostgreSQL");
  try {
    return await measureReplayScoring(options.postgresUrl);
  } catch (error) {
    return errorText(error);
  }
}

/**
 * One database: a first start on it (empty: migrations and the demo catalogue), on PGlite
 * Lighthouse, then (restarted) learners and the routes under load; then the app restarted a few
 * times for start-up.
 */
async function measureApp(
  label: DbLabel,
  database: Database,
  options: Options,
  withLighthouse: boolean,
  ceiling: Loaded | null,
): Promise<{ run: AppRun; lighthouse: LighthouseRun | null }> {
  const run: AppRun = { label, firstStartMs: null, load: [], loadError: null, startup: null, startupError: null };
  let lighthouse: LighthouseRun | null = null;
  log(`\n${label}: starting the app on an empty database`);
  let app = await startApp(database);
  run.firstStartMs = app.readyMs;
  log(`  healthy after ${seconds(app.readyMs)} (migrations and seed included)`);
  try {
    // Lighthouse first, on the idle app; then the routes under load, on a fresh process: after
    // Lighthouse's page loads the same process served a third fewer requests a second.
    if (withLighthouse) {
      try {
        const cookie = await signedInLearner(app.base, "lighthouse");
        const pages: LighthousePage[] = LIGHTHOUSE_PAGES.map((path) =>
          SIGNED_IN_PAGES.has(path) ? { path, cookie } : { path },
        );
        log(`  Lighthouse on ${LIGHTHOUSE_PAGES.join(", ")}`);
        const measured = await runLighthouse(app.base, pages, {
          chromiumPath: options.chromium,
          runsPerPage: options.lighthouseRuns,
          log,
        });
        lighthouse = { ...measured, error: null };
      } catch (error) {
        lighthouse = { version: "unknown", results: [], error: errorText(error) };
        log(`  Lighthouse: ${lighthouse.error}`);
      }
      await app.stop();
      app = await startApp(database);
    }
    if (!options.skip.has("api")) {
      try {
        const prepared = await prepareLearners(app, database, label, options);
        app = prepared.app;
        await loadRoutes(app, ceiling, prepared.learners, options.load, options.routes, run.load);
      } catch (error) {
        run.loadError = errorText(error);
        log(`  load: ${run.loadError}`);
      }
    }
  } finally {
    await app.stop();
  }
  if (!options.skip.has("startup")) {
    try {
      log(`  start-up on the existing database, ${options.startupRuns} runs`);
      run.startup = await measureStartup(database, options.startupRuns);
      log(`  start-up: ${run.startup.runsMs.map((ms) => seconds(ms)).join(", ")}`);
    } catch (error) {
      run.startupError = errorText(error);
      log(`  start-up: ${run.startupError}`);
    }
  }
  return { run, lighthouse };
}

type LighthouseRun = { version: string; results: LighthouseResult[]; error: string | null };

// ---------------------------------------------------------------------------------------------
// Report sections

function machineSection(machine: Machine, options: Options): Section {
  const busy = machine.loadAverage > machine.cores;
  const rows: Cell[][] = [
    ["date", machine.date],
    ["CPU", machine.cpu],
    ["cores", machine.cores],
    ["memory", `${decimal(machine.memoryGiB, 1)} GiB`],
    ["OS", machine.os],
    ["Node.js", machine.node],
    ["PostgreSQL", machine.postgres],
    ["Chromium", machine.chromium],
    [
      "load average (1 min) at the start",
      `${decimal(machine.loadAverage, 2)}${busy ? " (above the core count: other work was running, figures are noisy)" : ""}`,
    ],
  ];
  const settings =
    `Load: autocannon ${autocannonVersion}, loopback, ${options.load.connections.join(" and then ")} connections, ` +
    `${options.load.rounds} rounds of ${options.load.durationS} s per route, each after a round of the hello-world, ` +
    `after ${options.load.warmupS} s of unmeasured warm-up, no pipelining; ` +
    `signed-in routes spread over ${options.learners} learners, quiz answers over ${integer(options.quizLearners)}. Lighthouse: ${options.lighthouseRuns} run(s) per page ` +
    `(median performance kept), default mobile configuration with simulated throttling, Chromium flags ` +
    `\`${CHROMIUM_FLAGS.join(" ")}\`.`;
  return { title: "Machine", markdown: `${table(["", ""], rows)}\n\n${settings}`, budgets: [] };
}

/** The API budgets of docs/performance.md: a share of the ceiling's req/s and a p99, at a connection count. */
type ApiBudget = { route: string; connections: number; database: DbLabel | null; share: number; p99Ms: number | null };

const SIGNED_IN_BUDGETS = (database: DbLabel, share: number, p99Ms: number, routes: string[]): ApiBudget[] =>
  routes.map((route) => ({ route, connections: 50, database, share, p99Ms }));

const API_BUDGETS: ApiBudget[] = [
  { route: ROUTES.programs, connections: 100, database: null, share: 0.5, p99Ms: 20 },
  { route: ROUTES.programs, connections: 50, database: null, share: 0.5, p99Ms: 10 },
  { route: ROUTES.shell, connections: 50, database: null, share: 0.4, p99Ms: null },
  ...SIGNED_IN_BUDGETS("PostgreSQL", 0.1, 30, [ROUTES.track]),
  ...SIGNED_IN_BUDGETS("PostgreSQL", 0.06, 40, [ROUTES.watched, ROUTES.quiz]),
  ...SIGNED_IN_BUDGETS("PGlite", 0.03, 100, [ROUTES.track, ROUTES.watched, ROUTES.quiz]),
];

/** Above this share of 429 answers a quiz run measured the limit more than the answers. */
const MOST_REFUSED = 0.1;

function budgetText(budget: ApiBudget, database: DbLabel): string {
  const p99 = budget.p99Ms === null ? "" : `, p99 < ${budget.p99Ms} ms`;
  return `${budget.route.replace(" (signed in)", "")} >= ${percent(budget.share)} of hello-world req/s${p99} at ${budget.connections} connections (${database})`;
}

function apiBudgetLine(budget: ApiBudget, run: AppRun): BudgetLine {
  const name = budgetText(budget, run.label);
  const result = run.load.find((r) => r.label === budget.route && r.connections === budget.connections);
  const ceiling = result?.ceiling;
  if (!result || !ceiling) return { budget: name, measured: "not measured", met: null };
  const share = result.requestsPerS / ceiling.requestsPerS;
  const measured = `${percent(share)} (${integer(result.requestsPerS)} of ${integer(ceiling.requestsPerS)} req/s)` +
    (budget.p99Ms === null ? "" : `, p99 ${result.p99Ms} ms`);
  const refused = result.total > 0 ? result.tooMany / result.total : 0;
  if (refused > MOST_REFUSED) {
    return { budget: name, measured: `${measured}; ${percent(refused)} answered 429 by the limit per question`, met: null };
  }
  return { budget: name, measured, met: share >= budget.share && (budget.p99Ms === null || result.p99Ms < budget.p99Ms) };
}

function apiSection(ceilingError: string | null, runs: AppRun[], options: Options): Section {
  const title = "API under load";
  if (options.skip.has("api")) {
    return notMeasured(title, "skipped (--skip api)", API_BUDGETS.map((budget) => budgetText(budget, budget.database ?? "PGlite")));
  }
  const cpu = (result: LoadResult) => decimal(result.cpuMsPerRequest, 3);
  const rows: Cell[][] = [];
  for (const connections of options.load.connections) {
    // The ceiling's row: the median of its medians beside each route at this count.
    const beside = runs.flatMap((run) => run.load.filter((r) => r.connections === connections)).flatMap((r) => (r.ceiling ? [r.ceiling] : []));
    const ceiling = beside.length > 0 ? medianRound(beside) : null;
    rows.push(
      ceiling
        ? ["Fastify hello-world (ceiling)", "GET /", connections, integer(ceiling.requestsPerS), ceiling.p50Ms, ceiling.p99Ms, "100%", "", cpu(ceiling), ceiling.non2xx + ceiling.errors]
        : ["Fastify hello-world (ceiling)", "GET /", connections, "not measured", "", "", "", "", "", ceilingError ?? ""],
    );
    for (const run of runs) {
      if (run.loadError && connections === options.load.connections.at(-1)) {
        rows.push([`app, ${run.label}`, "the routes not listed", "", "not measured", "", "", "", "", "", run.loadError]);
      }
      for (const result of run.load.filter((r) => r.connections === connections)) {
        const share = result.ceiling ? result.requestsPerS / result.ceiling.requestsPerS : Number.NaN;
        const problems = [result.otherStatuses, result.errors ? `${result.errors} errors` : "", result.timeouts ? `${result.timeouts} timeouts` : ""]
          .filter(Boolean)
          .join(", ");
        const ceilingBeside = result.ceiling ? integer(result.ceiling.requestsPerS) : "";
        rows.push([`app, ${run.label}`, result.label, connections, integer(result.requestsPerS), result.p50Ms, result.p99Ms, percent(share), ceilingBeside, cpu(result), problems || 0]);
      }
    }
  }
  const budgets = runs.flatMap((run) =>
    API_BUDGETS.filter((budget) => budget.database === null || budget.database === run.label).map((budget) => apiBudgetLine(budget, run)),
  );
  const limited = runs
    .flatMap((run) => run.load)
    .filter((result) => result.tooMany > 0 && result.label !== ROUTES.quiz);
  const notes = [
    `Each route is measured in ${options.load.rounds} rounds of ${options.load.durationS} s, each right after a round of ` +
      "the hello-world at the same number of connections; the median round of each is kept. \"vs ceiling\" is the " +
      "route's median req/s over the median of the hello-world's rounds beside it (\"ceiling beside\"); the " +
      "hello-world's row is the median of those. req/s is autocannon's average of a round's per-second samples; " +
      "latencies are in milliseconds, of the median round.",
    "CPU ms/request: the server process's CPU time (user + system, from /proc) during the measured seconds, " +
      "over the requests it answered; the database's own processes are not counted (PGlite runs inside the app's).",
    "Rate limits: none of these routes has one but the quiz answers. The app's limits (src/server) are on " +
      "/api/accounts/register and /api/accounts/forgot-password, the contact form (5 per 10 minutes), the " +
      "payment routes (20 a minute), Better Auth's /api/auth/* (docs/product.md, \"Limits\", for the account " +
      "ones) and 5 answers a minute per learner and quiz question; the signed-in routes check the session " +
      "in-process, which is not limited. " +
      (limited.length > 0
        ? `**Yet 429 answers were seen on: ${limited.map((result) => result.label).join(", ")}.**`
        : "No other 429 answer was seen in this run."),
    `The quiz answers go round ${integer(options.quizLearners)} learners (copies of a signed-in one, written in ` +
      "the database with their sessions), then the questions: each a real answer, stored and trimmed. Past 5 a minute " +
      `for one learner and question the app answers 429, so a quiz run with more than ${percent(MOST_REFUSED)} of 429s ` +
      "is not held against its budget: more learners (--quiz-learners) spread the answers.",
    "Each route is requested once, alone, before its warm-up: one-time work (the exchange rate that the " +
      "first GET /api/prices fetches and caches for an hour) stays out of the figures.",
    "POST .../watched marks a video the learner has already watched (the app answers from the standing it " +
      "has, without a write); the connections share the learners in turn.",
  ];
  const markdown = `${table(
    ["server", "route", ">connections", ">req/s", ">p50 ms", ">p99 ms", ">vs ceiling", ">ceiling beside", ">CPU ms/request", ">non-2xx / errors"],
    rows,
  )}\n\n${notes.map((note) => `- ${note}`).join("\n")}`;
  return { title, markdown, budgets };
}

const FLAT_SLACK_MB = 16;

function adminSection(
  timings: AdminTimings | null,
  seedSeconds: number | null,
  error: string | null,
  options: Options,
): Section {
  const title = `Admin at scale (PostgreSQL, ${integer(options.users)} users)`;
  const budgetNames = [
    "users page (filter + sort + page of 10) < 50 ms",
    "CSV export of all users < 5 s",
    "CSV export with flat memory",
  ];
  if (options.skip.has("admin") || options.skip.has("postgres")) {
    return notMeasured(title, "skipped (--skip)", budgetNames);
  }
  if (!timings) return notMeasured(title, error ?? "unknown error", budgetNames);
  const budgets: BudgetLine[] = [];
  const parts: string[] = [
    `Seeded with \`scripts/seed-scale.ts --users ${options.users} --reset\` in ${seedSeconds === null ? "n/a" : `${decimal(seedSeconds, 1)} s`}; ` +
      `timed with \`scripts/time-admin-users.ts\` (${timings.userCount === null ? "?" : integer(timings.userCount)} users in the database; ` +
      "each case 30 runs after 3 warm-up runs, over HTTP with an administrator's session).",
  ];
  if (timings.cases.length > 0) {
    parts.push(
      table(
        ["users page (GET /api/admin/users)", ">matches", ">median ms", ">p95 ms", ">max ms", "budget < 50 ms (median)"],
        timings.cases.map((c) => [c.label, integer(c.matches), decimal(c.medianMs), decimal(c.p95Ms), decimal(c.maxMs), verdict(c.medianMs < 50)]),
      ),
    );
    const slowest = [...timings.cases].sort((a, b) => b.medianMs - a.medianMs)[0];
    if (slowest) {
      budgets.push({
        budget: "users page (filter + sort + page of 10) < 50 ms on PostgreSQL",
        measured: `slowest median ${decimal(slowest.medianMs)} ms (${slowest.label}); ` +
          `${timings.cases.filter((c) => c.medianMs < 50).length} of ${timings.cases.length} cases under 50 ms`,
        met: slowest.medianMs < 50,
      });
    }
  } else {
    parts.push("The users-page table could not be read from the script's output.");
    budgets.push({ budget: budgetNames[0] ?? "", measured: "not read", met: null });
  }
  if (timings.csv) {
    const csv = timings.csv;
    // Flat: the process grew by less than the file it sent (with 16 MB of slack for buffers and
    // garbage not yet collected), so it never held the export whole.
    const flat = csv.rssRiseMb < Math.max(csv.megabytes, FLAT_SLACK_MB);
    parts.push(
      table(
        ["CSV export (GET /api/admin/users.csv)", ">users", ">size", ">time", ">memory before", ">peak", ">rise", "budget"],
        [[
          "streamed, read as a download",
          integer(csv.users),
          `${decimal(csv.megabytes)} MB`,
          `${decimal(csv.seconds, 2)} s`,
          `${csv.rssBeforeMb} MB`,
          `${csv.rssPeakMb} MB`,
          `+${csv.rssRiseMb} MB`,
          `< 5 s: ${verdict(csv.seconds < 5)}; flat memory: ${verdict(flat)}`,
        ]],
      ),
    );
    parts.push(
      "Memory is the resident size of the process that runs scripts/time-admin-users.ts, which holds the " +
        "server (the whole app, booted in-process) and the client reading the download. \"Flat\" is read " +
        `here as: the process grew by less than the size of the file it sent (or ${FLAT_SLACK_MB} MB, whichever is ` +
        "larger: buffers and garbage not yet collected), so the export was never held whole.",
    );
    budgets.push({ budget: "CSV export of all users < 5 s", measured: `${decimal(csv.seconds, 2)} s for ${integer(csv.users)} users`, met: csv.seconds < 5 });
    budgets.push({
      budget: "CSV export with flat memory",
      measured: `+${csv.rssRiseMb} MB peak rise for a ${decimal(csv.megabytes)} MB file`,
      met: flat,
    });
  } else {
    parts.push("The CSV export line could not be read from the script's output.");
    budgets.push({ budget: budgetNames[1] ?? "", measured: "not read", met: null });
    budgets.push({ budget: budgetNames[2] ?? "", measured: "not read", met: null });
  }
  if (error) parts.push(`Problem: ${error}`);
  return { title, markdown: parts.join("\n\n"), budgets };
}

function bundleSection(
  bundle: Bundle | null,
  error: string | null,
  extra: BundleFile[],
  extraMissing: string[],
  transferred: { bytes: number; files: number } | null,
  options: Options,
): Section {
  const title = "Front end: JavaScript for /";
  const budgetName = "initial JavaScript for / <= 120 KB gzipped";
  if (!bundle) return notMeasured(title, error ?? "unknown error", [budgetName]);
  const met = bundle.gzipTotal <= 120_000;
  const rows: Cell[][] = bundle.scripts.map((file) => [`\`${file.path}\``, file.via, kilobytes(file.bytes), kilobytes(file.gzipBytes)]);
  rows.push(["**total**", "", `**${kilobytes(bundle.bytesTotal)}**`, `**${kilobytes(bundle.gzipTotal)}**`]);
  const parts = [
    `Read from \`${shown(options.webDir)}/index.html\`: its module script, its ` +
      "modulepreload links and every module they import statically, each gzipped with zlib (default level). " +
      `kB = 1,000 bytes. Budget: at most 120 KB gzipped: ${verdict(met)}.`,
    table(["file", "loaded as", ">size", ">gzipped"], rows),
    `Stylesheets (not counted): ${bundle.styles.map((file) => `\`${file.path}\` ${kilobytes(file.gzipBytes)} gzipped`).join(", ") || "none"}.`,
  ];
  if (extra.length > 0 || extraMissing.length > 0) {
    const extraTotal = extra.reduce((sum, file) => sum + file.gzipBytes, 0);
    parts.push(
      "Also loaded by `/` once the app runs (lazy chunks, seen in Lighthouse's network requests): " +
        [...extra.map((file) => `\`${file.path}\` ${kilobytes(file.gzipBytes)} gzipped`), ...extraMissing.map((path) => `\`${path}\` (not in ${shown(options.webDir)})`)].join(", ") +
        `; with them, ${kilobytes(bundle.gzipTotal + extraTotal)} gzipped.`,
    );
  }
  if (transferred) {
    parts.push(
      `As served to Lighthouse, \`/\` loaded ${transferred.files} scripts for ${kilobytes(transferred.bytes)} over the wire ` +
        "(response headers included)" +
        (transferred.bytes > (bundle.gzipTotal + extra.reduce((sum, file) => sum + file.gzipBytes, 0)) * 1.5
          ? ": far more than gzipped, so the server sent them uncompressed."
          : "."),
    );
  }
  return {
    title,
    markdown: parts.join("\n\n"),
    budgets: [{ budget: budgetName, measured: `${kilobytes(bundle.gzipTotal)} in ${bundle.scripts.length} files`, met }],
  };
}

const BUDGET_PAGES = new Set(["/", "/program", "/subscription"]);

function lighthouseSection(run: LighthouseRun | null, options: Options): Section {
  const title = "Front end: Lighthouse";
  const budgetNames = [...BUDGET_PAGES].flatMap((page) => [`Lighthouse performance >= 95 on ${page}`, `Lighthouse accessibility = 100 on ${page}`]);
  if (options.skip.has("lighthouse")) return notMeasured(title, "skipped (--skip lighthouse)", budgetNames);
  if (!run || run.results.length === 0) return notMeasured(title, run?.error ?? "no result", budgetNames);
  const budgets: BudgetLine[] = [];
  const score = (value: number | null) => (value === null ? "n/a (no score)" : String(value));
  const rows: Cell[][] = run.results.map((result) => {
    let budget = "no budget";
    if (BUDGET_PAGES.has(result.path)) {
      const perf = result.scores.performance;
      const a11y = result.scores.accessibility;
      const perfMet = perf === null ? null : perf >= 95;
      const a11yMet = a11y === null ? null : a11y === 100;
      const shownVerdict = (met: boolean | null) => (met === null ? "not measured" : verdict(met));
      budget = `perf >= 95: ${shownVerdict(perfMet)}; a11y = 100: ${shownVerdict(a11yMet)}`;
      budgets.push({ budget: `Lighthouse performance >= 95 on ${result.path}`, measured: score(result.scores.performance), met: perfMet });
      budgets.push({ budget: `Lighthouse accessibility = 100 on ${result.path}`, measured: score(result.scores.accessibility), met: a11yMet });
    }
    return [
      `\`${result.path}\``,
      result.signedIn ? "yes" : "no",
      ...LIGHTHOUSE_CATEGORIES.map((category) => score(result.scores[category])),
      seconds(result.metrics.fcpMs),
      seconds(result.metrics.lcpMs),
      Number.isFinite(result.metrics.tbtMs) ? `${integer(result.metrics.tbtMs)} ms` : "n/a",
      decimal(result.metrics.cls, 3),
      budget,
    ];
  });
  const details = run.results.flatMap((result) =>
    Object.entries(result.failing)
      .filter(([, audits]) => audits.length > 0)
      .map(([category, audits]) => `- \`${result.path}\` ${category}: ${audits.join(", ")}`),
  );
  const warnings = run.results.flatMap((result) => result.warnings.map((warning) => `- \`${result.path}\`: ${warning}`));
  const parts = [
    `Lighthouse ${run.version}, against the app on PGlite; signed-in pages get the learner's session cookie ` +
      "through Lighthouse's extraHeaders.",
    table(
      ["page", "signed in", ">performance", ">accessibility", ">best practices", ">SEO", ">FCP", ">LCP", ">TBT", ">CLS", "budget (docs/performance.md)"],
      rows,
    ),
  ];
  if (details.length > 0) parts.push(`Audits scoring under 0.9 (heaviest first):\n\n${details.join("\n")}`);
  if (warnings.length > 0) parts.push(`Lighthouse warnings:\n\n${warnings.join("\n")}`);
  if (run.error) parts.push(`Problem: ${run.error}`);
  return { title, markdown: parts.join("\n\n"), budgets };
}

function startupSection(runs: AppRun[], options: Options): Section {
  const title = "Start-up";
  const rows: Cell[][] = runs.map((run) => [
    run.label,
    run.firstStartMs === null ? "n/a" : seconds(run.firstStartMs),
    run.startup ? seconds(run.startup.medianMs) : options.skip.has("startup") ? "skipped" : `not measured: ${run.startupError ?? "?"}`,
    run.startup ? `${seconds(run.startup.minMs)} to ${seconds(run.startup.maxMs)} (${run.startup.runsMs.length} runs)` : "",
  ]);
  if (rows.length === 0) return notMeasured(title, "no database was measured");
  const markdown =
    `${table(["database", ">first start (empty: migrations + demo seed)", ">existing database, median", ">range"], rows)}\n\n` +
    "From spawning `node dist/node/dev/main.js` to the first 200 from GET /api/health (polled every 5 ms). " +
    "No budget in docs/performance.md.";
  return { title, markdown, budgets: [] };
}

function summarySection(sections: Section[]): Section {
  const lines = sections.flatMap((section) => section.budgets);
  const met = lines.filter((line) => line.met === true).length;
  const missed = lines.filter((line) => line.met === false).length;
  const markdown =
    `${met} met, ${missed} not met, ${lines.length - met - missed} not measured.\n\n` +
    table(["budget (docs/performance.md)", "measured", "verdict"], lines.map(budgetRow));
  return { title: "Budgets at a glance", markdown, budgets: [] };
}

// ---------------------------------------------------------------------------------------------

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options === "help") {
    console.log(USAGE);
    return 0;
  }
  const started = performance.now();
  if (options.firstPort !== null) usePortsFrom(options.firstPort);
  const usePostgres = !options.skip.has("postgres");

  let pgVersion = "skipped";
  let pgError: string | null = usePostgres ? null : "skipped (--skip postgres)";
  if (usePostgres) {
    try {
      pgVersion = await postgresVersion(options.postgresUrl);
    } catch (error) {
      pgError = `PostgreSQL at ${new URL(options.postgresUrl).host} is not reachable: ${errorText(error)}`;
      pgVersion = "not reachable";
    }
  }
  const machine = describeMachine(pgVersion, options.chromium);
  const machineReport = show(machineSection(machine, options));

  // Bundle: static files only.
  let bundle: Bundle | null = null;
  let bundleError: string | null = null;
  try {
    bundle = measureBundle(options.webDir);
    log(`Bundle for /: ${kilobytes(bundle.gzipTotal)} gzipped in ${bundle.scripts.length} files`);
  } catch (error) {
    bundleError = errorText(error);
  }

  // The ceiling: a bare hello-world, running through the whole run and loaded beside each route.
  let hello: Running | null = null;
  let ceiling: Loaded | null = null;
  let ceilingError: string | null = null;
  if (!options.skip.has("api")) {
    log("\nFastify hello-world (the ceiling), warmed up");
    try {
      const running = await startHelloWorld();
      hello = running;
      const target: LoadTarget = { label: "GET /", url: `${running.base}/` };
      for (const connections of options.load.connections) {
        await runLoad(target, { connections, durationS: Math.max(options.load.warmupS, 1), warmupS: 0 });
      }
      ceiling = { target, cpuSeconds: () => running.cpuSeconds() };
    } catch (error) {
      ceilingError = errorText(error);
      log(`  the ceiling: ${ceilingError}`);
    }
  }

  const appRuns: AppRun[] = [];
  let lighthouse: LighthouseRun | null = null;
  const failures: string[] = [];

  // PGlite: a fresh data folder, removed at the end.
  const dataDir = mkdtempSync(join(tmpdir(), "ta-bench-pglite-"));
  try {
    const result = await measureApp("PGlite", { kind: "pglite", dataDir }, options, !options.skip.has("lighthouse"), ceiling);
    appRuns.push(result.run);
    lighthouse = result.lighthouse;
  } catch (error) {
    failures.push(`PGlite: ${errorText(error)}`);
    appRuns.push({ label: "PGlite", firstStartMs: null, load: [], loadError: errorText(error), startup: null, startupError: errorText(error) });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  // PostgreSQL: the scratch database, dropped at the end.
  let adminTimings: AdminTimings | null = null;
  let seedSeconds: number | null = null;
  let adminError: string | null = pgError;
  if (usePostgres && !pgError) {
    try {
      const databaseUrl = await createScratchDatabase(options.postgresUrl);
      try {
        const result = await measureApp("PostgreSQL", { kind: "postgres", url: databaseUrl }, options, false, ceiling);
        appRuns.push(result.run);
        if (!options.skip.has("admin")) {
          // A database of its own, so that the figures are those of the seeded users alone: the
          // load runs above register and churn thousands more (docs/performance.md, "How they are measured").
          await createScratchDatabase(options.postgresUrl);
          log(`\nAdmin at scale: seeding ${integer(options.users)} users in a new scratch database`);
          const seed = await runScript("seed-scale.ts", ["--users", String(options.users), "--reset"], databaseUrl, log);
          if (seed.code !== 0) throw new Error(`scripts/seed-scale.ts exited with ${seed.code}`);
          seedSeconds = seed.seconds;
          log("\nAdmin at scale: timing the users pages and the CSV export");
          const timing = await runScript("time-admin-users.ts", ["--runs", "30"], databaseUrl, log, ["--expose-gc"]);
          adminTimings = parseAdminTimings(timing.output);
          if (timing.code !== 0) adminError = `scripts/time-admin-users.ts exited with ${timing.code}`;
        }
      } finally {
        await dropScratchDatabase(options.postgresUrl);
      }
    } catch (error) {
      adminError = errorText(error);
      failures.push(`PostgreSQL: ${adminError}`);
      if (!appRuns.some((run) => run.label === "PostgreSQL")) {
        appRuns.push({ label: "PostgreSQL", firstStartMs: null, load: [], loadError: adminError, startup: null, startupError: adminError });
      }
    }
  } else if (pgError && usePostgres) {
    failures.push(pgError);
    appRuns.push({ label: "PostgreSQL", firstStartMs: null, load: [], loadError: pgError, startup: null, startupError: pgError });
  }
  await hello?.stop();

  // Scripts `/` loaded at run time beyond the static graph (lazy chunks), from Lighthouse.
  const extra: BundleFile[] = [];
  const extraMissing: string[] = [];
  const home = lighthouse?.results.find((result) => result.path === "/");
  let transferred: { bytes: number; files: number } | null = null;
  if (bundle && home) {
    const known = new Set(bundle.scripts.map((file) => file.path));
    for (const { path } of home.scriptsLoaded.filter((script) => !known.has(script.path))) {
      try {
        extra.push(measureFile(options.webDir, path, "lazy"));
      } catch {
        extraMissing.push(path);
      }
    }
    transferred = {
      bytes: home.scriptsLoaded.reduce((sum, script) => sum + script.transferBytes, 0),
      files: home.scriptsLoaded.length,
    };
  }

  const sections = [
    show(apiSection(ceilingError, appRuns, options)),
    show(adminSection(adminTimings, seedSeconds, adminError, options)),
    show(dashboardSection(adminTimings, adminError, options.users)),
    show(bundleSection(bundle, bundleError, extra, extraMissing, transferred, options)),
    show(lighthouseSection(lighthouse, options)),
    show(startupSection(appRuns, options)),
    show(options.skip.has("trading") ? notMeasured("Trading", "skipped (--skip trading)") : tradingSection(measureBarsParse(5), await replayScoring(options, pgError))),
  ];
  const summary = show(summarySection(sections));
  const took = performance.now() - started;

  const document = [
    "# Benchmarks",
    "",
    `Generated by \`npm run bench\` (scripts/bench/run.ts) on ${machine.date}; the measuring took ${duration(took)} ` +
      "(after the build). Budgets: docs/performance.md. Overwritten by every run.",
    "",
    ...[machineReport, summary, ...sections].flatMap((section) => [`## ${section.title}`, "", section.markdown, ""]),
    ...(failures.length > 0 ? ["## Problems in this run", "", ...failures.map((failure) => `- ${failure}`), ""] : []),
  ].join("\n");
  writeFileSync(options.out, document);
  log(`\nWrote ${shown(options.out)} (measuring took ${duration(took)}).`);
  return failures.length > 0 || bundleError || ceilingError ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
