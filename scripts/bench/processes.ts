// Child processes under test: the built app (node dist/node/dev/main.js) and the bare
// Fastify hello-world, each on a free loopback port, stopped with SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { envWithoutAppSettings, freePort } from "../../src/server/testing/child-process-env.ts";

export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const serverEntry = join(projectRoot, "dist", "node", "dev", "main.js");

export type Database = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

/** The app's AUTH_SECRET in this run: the bench signs the session cookies of the learners it adds. */
export const BENCH_AUTH_SECRET = randomBytes(36).toString("base64url");

export type Running = {
  name: string;
  base: string;
  port: number;
  child: ChildProcess;
  /** Milliseconds from spawn() to the first healthy answer. */
  readyMs: number;
  /** The last lines the process printed, for error messages. */
  output(): string;
  /** CPU seconds (user + system) the process has used so far; NaN where /proc cannot tell. */
  cpuSeconds(): number;
  stop(): Promise<void>;
};

/** GET path on the loopback, resolving to the status code (0 when the connection failed). */
function probe(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(0));
  });
}

/** Where ports come from: any free one, or one after another from `--ports` (a shared machine's range). */
let fixedPort: number | null = null;

export function usePortsFrom(first: number): void {
  fixedPort = first;
}

async function nextPort(): Promise<number> {
  return fixedPort === null ? freePort() : fixedPort++;
}

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** utime + stime of a process from /proc/<pid>/stat, in seconds; NaN off Linux or once it has exited. */
function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

type StartOptions = {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  healthPath: string;
  timeoutMs?: number;
};

async function startProcess(options: StartOptions): Promise<Running> {
  const started = performance.now();
  const child = spawn(options.command, options.args, {
    cwd: projectRoot,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-4_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));

  const deadline = started + (options.timeoutMs ?? 60_000);
  let readyMs = Number.NaN;
  while (performance.now() < deadline) {
    if (exitCode !== undefined) {
      throw new Error(`${options.name} exited (code ${exitCode}) before it was healthy:\n${tail}`);
    }
    if ((await probe(options.port, options.healthPath)) === 200) {
      readyMs = performance.now() - started;
      break;
    }
    await sleep(5);
  }
  if (Number.isNaN(readyMs)) {
    child.kill("SIGKILL");
    throw new Error(`${options.name} was not healthy within ${options.timeoutMs ?? 60_000} ms:\n${tail}`);
  }

  return {
    name: options.name,
    base: `http://127.0.0.1:${options.port}`,
    port: options.port,
    child,
    readyMs,
    output: () => tail,
    cpuSeconds: () => processCpuSeconds(child.pid),
    async stop() {
      if (exitCode !== undefined) return;
      child.kill("SIGTERM");
      const code = await Promise.race([exited, sleep(15_000, "timeout" as const, { ref: false })]);
      if (code === "timeout") {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

/** The built app as `npm start` runs it (no sign-in providers or payment keys: the built-in simulator). */
export async function startApp(database: Database): Promise<Running> {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run npm run build first`);
  const port = await nextPort();
  const base = `http://127.0.0.1:${port}`;
  const env = envWithoutAppSettings({
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: base,
    LOG_LEVEL: "warn",
    AUTH_SECRET: BENCH_AUTH_SECRET,
    ...(database.kind === "pglite" ? { DATA_DIR: database.dataDir } : { DATABASE_URL: database.url }),
  });
  return startProcess({
    name: `the app (${database.kind === "pglite" ? "PGlite" : "PostgreSQL"})`,
    command: process.execPath,
    // BENCH_APP_NODE_FLAGS="--cpu-prof --cpu-prof-dir=DIR" profiles the app under the load
    // (docs/performance.md, "Where the time goes"); Node refuses --cpu-prof in NODE_OPTIONS.
    args: [...(process.env.BENCH_APP_NODE_FLAGS ?? "").split(" ").filter(Boolean), serverEntry],
    env,
    port,
    healthPath: "/api/health",
  });
}

/** The ceiling: a bare Fastify hello-world, in a process of its own like the app. */
export async function startHelloWorld(): Promise<Running> {
  const port = await nextPort();
  return startProcess({
    name: "the Fastify hello-world",
    command: process.execPath,
    args: ["--import", "tsx", join(projectRoot, "scripts", "bench", "hello-world.ts")],
    env: envWithoutAppSettings({ PORT: String(port) }),
    port,
    healthPath: "/",
  });
}
