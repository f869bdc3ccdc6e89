// Load and fault scenarios against the app started as a child process (issue 7). Not part of
// `npm test`: run by hand, `npm run load-fault -- [scenario...] [options]`.
//
//   load                 200 learners for 60 s on PostgreSQL (scratch database ta_load)
//   kill-before-credit   paid at Paystack, SIGKILL before crediting, restart: credited once
//                        (on PostgreSQL, then on PGlite)
//   two-instances        200 learners on two instances on one PostgreSQL (scratch database
//                        ta_load_two), payments made throughout, one instance SIGKILLed halfway:
//                        the other serves without an error, every payment credited once
//   postgres-restart     PostgreSQL stopped and started under moderate load: clean errors, health
//                        says so, recovery without restarting the app. It stops the shared
//                        PostgreSQL for a few seconds: run it only when you mean to.
//   pglite-sigkill       acknowledged writes survive a SIGKILL of the app on PGlite
//
// No scenario named: all five, in that order. Options: --learners N (200) --duration S (60)
// --ramp S (20) --think-ms MS (0) --pg-down S (3) --pg-quiet-wait S (300: how long postgres-restart
// waits for nobody else to be connected before it stops PostgreSQL) --dist (run the build).
// PostgreSQL: LOAD_FAULT_PG_URL (postgres://root@127.0.0.1:5432); the cluster is found with
// pg_lsclusters, or LOAD_FAULT_PG_STOP / LOAD_FAULT_PG_START give the commands.
// Exit code 0 when every scenario passed, 1 otherwise. Logs of every app start: the run folder.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { indent, table, type RunContext, type ScenarioResult } from "./lib/report.ts";
import { killBeforeCreditScenario } from "./scenarios/kill-before-credit.ts";
import { loadScenario } from "./scenarios/load.ts";
import { pgliteSigkillScenario } from "./scenarios/pglite-sigkill.ts";
import { postgresRestartScenario } from "./scenarios/postgres-restart.ts";
import { twoInstancesScenario } from "./scenarios/two-instances.ts";

const SCENARIOS = ["load", "kill-before-credit", "two-instances", "postgres-restart", "pglite-sigkill"] as const;
type ScenarioName = (typeof SCENARIOS)[number];
const isScenario = (name: string): name is ScenarioName => (SCENARIOS as readonly string[]).includes(name);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    learners: { type: "string", default: "200" },
    duration: { type: "string", default: "60" },
    ramp: { type: "string", default: "20" },
    "think-ms": { type: "string", default: "0" },
    "pg-down": { type: "string", default: "3" },
    "pg-quiet-wait": { type: "string", default: "300" },
    dist: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

function positive(name: string, value: string | undefined): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) {
    console.error(`--${name} must be a number >= 0, got "${value}"`);
    process.exit(2);
  }
  return number;
}

if (values.help) {
  console.log(`usage: npm run load-fault -- [${SCENARIOS.join("|")} ...] [--learners N] [--duration S] [--ramp S] [--think-ms MS] [--pg-down S] [--pg-quiet-wait S] [--dist]`);
  process.exit(0);
}
const unknown = positionals.filter((name) => !isScenario(name));
if (unknown.length > 0) {
  console.error(`unknown scenario(s): ${unknown.join(", ")}; choose from ${SCENARIOS.join(", ")}`);
  process.exit(2);
}
const chosen: ScenarioName[] = positionals.length > 0 ? positionals.filter(isScenario) : [...SCENARIOS];

const runDir = mkdtempSync(join(tmpdir(), "load-fault-"));
const ctx: RunContext = {
  runId: Date.now().toString(36),
  runDir,
  useDist: values.dist,
  log: (line) => console.log(line),
};
console.log(`load-fault run ${ctx.runId}: ${chosen.join(", ")}; logs in ${runDir}`);

/** The learners' settings of the scenarios that study under load. */
const studyOptions = () => ({
  learners: Math.max(1, Math.floor(positive("learners", values.learners))),
  durationSeconds: positive("duration", values.duration),
  rampSeconds: positive("ramp", values.ramp),
  thinkMs: positive("think-ms", values["think-ms"]),
});

const results: ScenarioResult[] = [];
for (const name of chosen) {
  console.log(`\n== ${name}`);
  switch (name) {
    case "load":
      results.push(await loadScenario(ctx, studyOptions()));
      break;
    case "kill-before-credit":
      results.push(...(await killBeforeCreditScenario(ctx)));
      break;
    case "two-instances":
      results.push(await twoInstancesScenario(ctx, studyOptions()));
      break;
    case "postgres-restart":
      results.push(
        await postgresRestartScenario(ctx, {
          downSeconds: positive("pg-down", values["pg-down"]),
          quietWaitSeconds: positive("pg-quiet-wait", values["pg-quiet-wait"]),
        }),
      );
      break;
    case "pglite-sigkill":
      results.push(await pgliteSigkillScenario(ctx));
      break;
  }
}

console.log("\n== summary");
console.log(
  indent(
    table(
      ["scenario", "result", "checks", "time", "figures"],
      results.map((result) => [
        result.scenario,
        result.passed ? "PASS" : "FAIL",
        `${result.checks.filter((check) => check.passed).length}/${result.checks.length}`,
        `${result.seconds.toFixed(0)} s`,
        result.figures.map(([name, value]) => `${name} ${value}`).join(", "),
      ]),
    ),
  ),
);
const failed = results.filter((result) => !result.passed);
for (const result of failed) {
  for (const check of result.checks.filter((c) => !c.passed)) {
    console.log(`  FAIL ${result.scenario}: ${check.name}${check.detail ? `: ${check.detail.split("\n")[0]}` : ""}`);
  }
}
console.log(`logs: ${runDir}`);
process.exit(failed.length === 0 ? 0 : 1);
