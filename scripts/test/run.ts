// `npm test`: every check and test the project has, in lanes that run side by side, each step
// starting once the steps it needs have passed (docs/testing.md, decision 021). Each step's output
// goes to test-results/ci/<step>.log and is printed whole when the step ends, so lanes never
// interleave. At the end: each step's wall time, the processor time it took (the shell's `times`,
// its processes and theirs), its outcome, and the tests counted from the runners' own JSON
// reports, closing with one "N passed, N failed" line.
//
//   npm test                      everything
//   npm test -- lint unit         only the steps named (and nothing they wait for)
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { STEPS, type Counts, type Step } from "./steps.ts";

const LOG_DIR = "test-results/ci";

type Outcome = { status: "passed" | "failed" | "not run"; seconds: number; cpuSeconds: number | null; counts: Counts | null; why?: string };

/**
 * The step's command under `sh`, which prints on descriptor 3 the processor time of everything it
 * waited for (`times`, second line: children's user and system time, as `0m1.50s 0m0.20s`).
 */
const TIMED = 'status=0; "$@" || status=$?; times >&3; exit $status';

function cpuSecondsOf(times: string): number | null {
  const line = times.trim().split("\n")[1] ?? "";
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]));
  return parts.length === 2 ? (parts[0] ?? 0) + (parts[1] ?? 0) : null;
}

function runStep(step: Step): Promise<Outcome> {
  const started = performance.now();
  const log = join(LOG_DIR, `${step.name}.log`);
  const out = createWriteStream(log);
  return new Promise((resolve) => {
    const command = step.nice === undefined ? step.command : ["nice", "-n", String(step.nice), ...step.command];
    const child = spawn("sh", ["-c", TIMED, "sh", ...command], { env: { ...process.env, ...step.env }, stdio: ["ignore", "pipe", "pipe", "pipe"] });
    let times = "";
    child.stdout?.pipe(out, { end: false });
    child.stderr?.pipe(out, { end: false });
    child.stdio[3]?.on("data", (chunk: Buffer) => (times += chunk.toString()));
    child.on("error", (error) => out.write(`\n${error.message}\n`));
    child.on("close", (code, signal) => {
      out.end(() => {
        const seconds = (performance.now() - started) / 1000;
        const passed = code === 0;
        const status = passed ? "passed" : "failed";
        const why = passed ? undefined : signal ? `ended by ${signal}` : `exit code ${code}`;
        process.stdout.write(`\n━━ ${step.name}: ${status} in ${seconds.toFixed(0)} s${why ? ` (${why})` : ""} ━━\n`);
        process.stdout.write(readFileSync(log, "utf8"));
        resolve({ status, seconds, cpuSeconds: cpuSecondsOf(times), counts: step.counts?.() ?? null, why });
      });
    });
  });
}

/**
 * Runs the chosen steps, each once the steps it comes `after` have passed (after a failure it is
 * "not run") and the steps it comes `afterEnded` have ended, passed or not.
 */
async function runAll(chosen: Step[]): Promise<{ step: Step; outcome: Outcome }[]> {
  const outcomes = new Map<string, Promise<Outcome>>();
  const outcomeOf = (step: Step): Promise<Outcome> => {
    const known = outcomes.get(step.name);
    if (known) return known;
    const before = (step.after ?? []).flatMap((name) => chosen.filter((other) => other.name === name));
    const ended = (step.afterEnded ?? []).flatMap((name) => chosen.filter((other) => other.name === name));
    const outcome = Promise.all([...before.map(outcomeOf), ...ended.map(outcomeOf)]).then((results) => {
      const failed = before.filter((_, index) => results[index]?.status !== "passed").map((other) => other.name);
      if (failed.length > 0) return { status: "not run" as const, seconds: 0, cpuSeconds: null, counts: null, why: `${failed.join(", ")} did not pass` };
      return runStep(step);
    });
    outcomes.set(step.name, outcome);
    return outcome;
  };
  return Promise.all(chosen.map(async (step) => ({ step, outcome: await outcomeOf(step) })));
}

function printTable(rows: string[][]) {
  const header = ["step", "lane", "wall time", "processor time", "outcome", "tests"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ").trimEnd();
  console.log(`\n${line(header)}\n${line(widths.map((width) => "-".repeat(width)))}`);
  for (const row of rows) console.log(line(row));
}

async function main() {
  const named = process.argv.slice(2);
  const unknown = named.filter((name) => !STEPS.some((step) => step.name === name));
  if (unknown.length > 0) {
    console.error(`No step named ${unknown.join(", ")}. The steps: ${STEPS.map((step) => step.name).join(", ")}.`);
    process.exit(2);
  }
  const chosen = named.length > 0 ? STEPS.filter((step) => named.includes(step.name)) : STEPS;
  rmSync(LOG_DIR, { recursive: true, force: true });
  mkdirSync(LOG_DIR, { recursive: true });

  // Other work on the machine slows every step: said at the start, so a slow run can be read.
  const [load] = loadavg();
  console.log(`npm test: ${chosen.length} steps, on ${availableParallelism()} cores, load average ${load?.toFixed(1)} at the start.`);
  const started = performance.now();
  const results = await runAll(chosen);
  const wall = (performance.now() - started) / 1000;

  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const rows = results.map(({ step, outcome }) => {
    const { counts } = outcome;
    if (counts) {
      total.passed += counts.passed;
      total.failed += counts.failed;
      total.skipped += counts.skipped;
    }
    return [
      step.name,
      step.lane,
      `${outcome.seconds.toFixed(0)} s`,
      outcome.cpuSeconds === null ? "" : `${outcome.cpuSeconds.toFixed(0)} s`,
      outcome.why ? `${outcome.status} (${outcome.why})` : outcome.status,
      counts ? `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${counts.flaky ? ` (${counts.flaky} flaky)` : ""}` : "",
    ];
  });
  // .ci/run times the install before this script starts, and hands the figure on.
  const install = process.env.CI_INSTALL_SECONDS;
  if (install) rows.unshift(["install (npm ci)", "", `${install} s`, "", "passed", ""]);
  printTable(rows);
  console.log(`\nThe steps took ${(wall / 60).toFixed(1)} min of wall time.`);
  console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exit(results.every(({ outcome }) => outcome.status === "passed") ? 0 : 1);
}

await main();
