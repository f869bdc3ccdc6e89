// The steps of `npm test` and the lanes they run in (docs/testing.md, decision 021). A lane is a
// chain: each of its steps starts when the one before it has passed (and the steps it names). Lanes
// run side by side: the build first in its lane, then the browser tests beside the static checks
// and the Vitest projects, which run niced: the browser tests, whose steps wait on timers and on
// Chromium, take the processor when they need it, and the rest takes what they leave.
import { existsSync, readFileSync } from "node:fs";

/** Tests counted by a runner; `flaky` ones passed only when tried again (Playwright, in CI). */
export type Counts = { passed: number; failed: number; skipped: number; flaky?: number };

export type Step = {
  name: string;
  lane: string;
  command: string[];
  env?: Record<string, string>;
  /** Steps that must pass first. */
  after?: string[];
  /** Steps that must have ended first, passed or not: they would take the processor it needs. */
  afterEnded?: string[];
  /** Run with this niceness: the machine's processor goes to the steps without it first. */
  nice?: number;
  /** The tests it ran, from its runner's JSON report. */
  counts?: () => Counts | null;
};

const REPORTS = "test-results/ci";

function readJson<T>(path: string): T | null {
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : null;
}

/** A Vitest project's run (vitest.config.ts), with its JSON report beside the usual output. */
function vitest(project: string): Pick<Step, "command" | "counts"> {
  const report = `${REPORTS}/${project}.json`;
  return {
    command: ["vitest", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    counts: () => {
      const json = readJson<{ numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number }>(report);
      return json && { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests };
    },
  };
}

/** The browser tests, with their JSON report beside the usual output. */
function playwright(): Pick<Step, "command" | "counts" | "env"> {
  const report = `${REPORTS}/e2e.json`;
  return {
    command: ["playwright", "test", "--reporter=list,json"],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: report },
    counts: () => {
      const json = readJson<{ stats: { expected: number; unexpected: number; flaky: number; skipped: number } }>(report);
      return json && { passed: json.stats.expected + json.stats.flaky, failed: json.stats.unexpected, skipped: json.stats.skipped, flaky: json.stats.flaky };
    },
  };
}

/** A lane: each step waits for the one before it, and for what it names itself. */
function lane(name: string, steps: Omit<Step, "lane">[]): Step[] {
  return steps.map((step, index) => {
    const previous = steps[index - 1];
    return { ...step, lane: name, after: [...(previous ? [previous.name] : []), ...(step.after ?? [])] };
  });
}

const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** The niceness of the steps that run beside the browser tests. */
const BESIDE_THE_BROWSER = 10;

const CHECKS_AND_VITEST: Step[] = [
  ...lane("checks", [
    { name: "build", command: ["npm", "run", "--silent", "build"] },
    // The browser, the service worker and the tests (which include the server's code). The build
    // checks the server once more as it compiles it alone, without the DOM (tsconfig.dev.json).
    { name: "typecheck", command: ["sh", "-c", "tsc -p tsconfig.web.json && tsc -p tsconfig.sw.json && tsc -p tsconfig.test.json"] },
    { name: "lint", command: ["npm", "run", "--silent", "lint"] },
    // Files no entry reaches, exports used nowhere, dependencies never imported (knip.jsonc).
    { name: "dead-code", command: ["npm", "run", "--silent", "knip"] },
    { name: "unit", ...vitest("unit") },
    // Real server processes, timed (SIGTERM answered within 10 s): once the lane's lighter steps are done.
    { name: "process", ...vitest("process") },
  ]),
  // The longest step, one Vitest worker on the WebAssembly database: it starts at once.
  ...lane("pglite", [{ name: "api-pglite", ...vitest("api-pglite") }]),
  ...(withPostgres
    ? lane("postgres", [
        { name: "api-postgres", ...vitest("api-postgres") },
        { name: "scale", ...vitest("scale") },
      ])
    : []),
];

export const STEPS: Step[] = [
  ...CHECKS_AND_VITEST.map((step) => (step.name === "build" ? step : { ...step, nice: BESIDE_THE_BROWSER })),
  // One Playwright worker uses about one core of the two (Chromium, the server and the runner wait
  // on each other and on timers): it starts as soon as the app is built, and comes first for the
  // processor. Split in shards, its tests slow until they time out (decision 021).
  ...lane("browser", [{ name: "e2e", after: ["build"], ...playwright() }]),
];
