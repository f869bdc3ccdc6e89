// A server (or `npm start`) as a real child process, for the tests of starting, stopping and
// running as an operator would: its own process group, its output kept, every one stopped at exit.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../paths.ts";
import { envWithoutAppSettings } from "./child-process-env.ts";

/**
 * The built development entry and operator CLI (`npm run build`, which CI runs once before every
 * test step): the process tests start what `npm start` serves, without building it again.
 */
export function builtEntry(which: "server" | "cli"): string {
  const path = join(projectRoot, "dist/node", which === "server" ? "dev/main.js" : "src/server/cli/cli.js");
  if (!existsSync(path)) throw new Error(`${path} is not built: run npm run build before the process tests`);
  return path;
}

export type ServerProcess = {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves with the exit code (null when ended by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until GET `path` answers 200; throws with the output when it exits first or time runs out. */
  waitUntilReady(path?: string, timeoutMs?: number): Promise<void>;
  /** Whether any process of its group (npm, a shell, node) is still running. */
  groupAlive(): boolean;
};

const started = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of started) if (child.pid) killGroup(child.pid, "SIGKILL");
});

function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export function startServerProcess(options: {
  command: string;
  args: string[];
  port: number;
  env: Record<string, string>;
  cwd?: string;
  /** Only `env` (and PORT), as a service manager starts it, instead of this process's environment without the app's settings. */
  bareEnv?: boolean;
}): ServerProcess {
  const env = { PORT: String(options.port), ...options.env };
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.bareEnv ? env : envWithoutAppSettings(env),
    detached: true, // a process group of its own: the test can see every process it started
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  const url = `http://127.0.0.1:${options.port}`;

  return {
    child,
    url,
    output: () => output,
    exited,
    async waitUntilReady(path = "/api/health", timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (hasExited) throw new Error(`the server exited before it was ready:\n${output}`);
        const ok = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(2_000) }).then(
          (response) => response.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the server was not ready within ${timeoutMs} ms:\n${output}`);
    },
    groupAlive() {
      if (!child.pid) return false;
      try {
        process.kill(-child.pid, 0);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Stops every process of the group for good (a test's clean-up). */
export function killServerProcess(server: ServerProcess | undefined): void {
  if (server?.child.pid) killGroup(server.child.pid, "SIGKILL");
}
