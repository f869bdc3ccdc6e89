// The app under test, as a child process started from source (`node --import tsx
// dev/main.ts`), listening on 127.0.0.1 at a port the run chose, with its output in a
// log file of the run. Every child is remembered so that an interrupted run leaves none behind.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { envWithoutAppSettings } from "../../../src/server/testing/child-process-env.ts";
import { Client } from "./http-client.ts";
import { sleep } from "./stats.ts";

export const PROJECT_ROOT = join(import.meta.dirname, "..", "..", "..");


const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});


export type ExitInfo = { code: number | null; signal: NodeJS.Signals | null; at: number };

export type AppOptions = {
  port: number;
  /** The app's settings for this run (DATABASE_URL or DATA_DIR, Paystack ...). */
  env: Record<string, string>;
  logFile: string;
  /** Use the build (dist/node/dev/main.js) instead of the source. */
  useDist?: boolean;
};

export class AppProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<ExitInfo>;
  exitInfo: ExitInfo | null = null;
  /** Set when the run itself stopped or killed the process (anything else is a crash). */
  stoppedOnPurpose = false;

  private constructor(
    readonly options: AppOptions,
    child: ChildProcess,
  ) {
    this.url = `http://127.0.0.1:${options.port}`;
    this.child = child;
    running.add(child);
    this.exited = new Promise<ExitInfo>((resolve) => {
      child.once("exit", (code, signal) => {
        running.delete(child);
        this.exitInfo = { code, signal, at: Date.now() };
        resolve(this.exitInfo);
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.exitInfo === null;
  }

  /** Starts the app and waits until GET /api/health answers 200. */
  static async start(options: AppOptions, readyTimeoutMs = 90_000): Promise<AppProcess> {
    const dist = join(PROJECT_ROOT, "dist", "node", "dev", "main.js");
    // LOAD_APP_NODE_FLAGS="--cpu-prof --cpu-prof-dir=DIR" profiles the app under the load
    // (Node refuses --cpu-prof in NODE_OPTIONS), as BENCH_APP_NODE_FLAGS does for the bench.
    const flags = (process.env.LOAD_APP_NODE_FLAGS ?? "").split(" ").filter(Boolean);
    const args = [...flags, ...(options.useDist && existsSync(dist) ? [dist] : ["--import", "tsx", join("dev", "main.ts")])];
    const env = envWithoutAppSettings({
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(options.port),
      APP_URL: `http://127.0.0.1:${options.port}`,
      LOG_LEVEL: "warn",
      ...options.env,
    });
    const log = openSync(options.logFile, "a");
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ["ignore", log, log] });
    closeSync(log);
    const app = new AppProcess(options, child);
    await app.waitHealthy(readyTimeoutMs);
    return app;
  }

  /** Waits for GET /api/health to answer 200; throws if the process exits first or time runs out. */
  async waitHealthy(timeoutMs: number): Promise<number> {
    const started = Date.now();
    const probe = new Client({ baseUrl: this.url, localAddress: "127.0.0.1" });
    try {
      while (Date.now() - started < timeoutMs) {
        if (this.exitInfo) {
          throw new Error(
            `the app exited while starting (code ${this.exitInfo.code}, signal ${this.exitInfo.signal}); see ${this.options.logFile}`,
          );
        }
        const answer = await probe.get("/api/health", { timeoutMs: 2_000 });
        if (answer.status === 200) return Date.now() - started;
        await sleep(100);
      }
    } finally {
      probe.close();
    }
    throw new Error(`the app did not become healthy within ${timeoutMs} ms; see ${this.options.logFile}`);
  }

  /** What the process printed that is not a JSON log line (a crash's stack), first lines only. */
  crashLines(max = 12): string[] {
    if (!existsSync(this.options.logFile)) return [];
    const lines = readFileSync(this.options.logFile, "utf8").split("\n");
    const first = lines.findIndex((line) => line.trim() !== "" && !line.startsWith("{"));
    return first < 0 ? [] : lines.slice(first, first + max).filter((line) => line.trim() !== "");
  }

  /** How the process ended, with its crash output, for a report. */
  describeExit(): string {
    if (!this.exitInfo) return `pid ${this.pid} running`;
    const crash = this.crashLines();
    return `pid ${this.pid} exited (code ${this.exitInfo.code}, signal ${this.exitInfo.signal})${
      crash.length > 0 ? `; its output: ${crash.map((line) => line.trim()).join(" / ")}` : ""
    }; log ${this.options.logFile}`;
  }

  /** SIGKILL: no shutdown code runs, as in a power cut of the process. */
  async kill(): Promise<ExitInfo> {
    this.stoppedOnPurpose = true;
    if (this.alive) this.child.kill("SIGKILL");
    return this.exited;
  }

  /** SIGTERM (the app's graceful shutdown), then SIGKILL after `graceMs`. */
  async stop(graceMs = 15_000): Promise<ExitInfo> {
    this.stoppedOnPurpose = true;
    if (!this.alive) return this.exited;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    const info = await this.exited;
    clearTimeout(timer);
    return info;
  }
}
