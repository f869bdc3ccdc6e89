// The operator's side, with real processes (docs/operations.md): `npm start` stays on this
// machine and stops cleanly on SIGTERM; the production runtime (the folder the container image
// is made of) is staged over an earlier release's, starts as the README's systemd unit starts it,
// on its own Node, without the development tools, refuses bad settings in one line, answers its
// health check, and stops within 10 s with the requests in flight answered.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { projectRoot } from "./paths.ts";
import { OLDEST_SUPPORTED_NODE } from "./runtime.ts";
import { DEVELOPMENT_AUTH_SECRET } from "./secret-strength.ts";
import { envWithoutAppSettings, freePort } from "./testing/child-process-env.ts";
import { builtEntry, killServerProcess, startServerProcess, type ServerProcess } from "./testing/server-process.ts";
import { randomSecret } from "./testing/secrets.ts";

const AUTH_SECRET = randomSecret();
const workDir = mkdtempSync(join(tmpdir(), "ta-operator-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Runs the staging script into `folder`, as an operator would. */
function stage(folder: string) {
  return spawnSync(join(projectRoot, "scripts/deploy/stage-runtime.sh"), [folder], { encoding: "utf8", timeout: 220_000 });
}

/** Every path under `folder`, sorted: what a second staging must leave the same. */
function listing(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).sort();
}

/**
 * What an operator of an earlier release has in `folder`: the staging script of the release before
 * this one (commit 5770980's, kept as it was in testing/fixtures), run from a project of this build
 * twice, as that release's upgrades ran it. Its `npm ci` stands in as a node_modules of one package
 * that no release has: what npm installs is npm's, and this release's staging must replace it whole.
 */
function stageWithEarlierRelease(folder: string) {
  const project = join(workDir, "earlier-release");
  mkdirSync(join(project, "scripts/deploy"), { recursive: true });
  cpSync(join(projectRoot, "src/server/testing/fixtures/stage-runtime-5770980.sh"), join(project, "scripts/deploy/stage-runtime.sh"));
  for (const file of ["package.json", "package-lock.json"]) cpSync(join(projectRoot, file), join(project, file));
  cpSync(join(projectRoot, "drizzle"), join(project, "drizzle"), { recursive: true });
  symlinkSync(join(projectRoot, "dist"), join(project, "dist"));
  const npm = join(project, "npm-stand-in");
  mkdirSync(npm);
  writeFileSync(
    join(npm, "npm"),
    '#!/bin/sh\n[ "$1" = ci ] || exit 1\nrm -rf node_modules\nmkdir -p node_modules/left-by-an-earlier-release\necho "{}" > node_modules/left-by-an-earlier-release/package.json\n',
    { mode: 0o755 },
  );
  for (let run = 0; run < 2; run++) {
    const result = spawnSync("sh", [join(project, "scripts/deploy/stage-runtime.sh"), folder], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${npm}:${process.env.PATH ?? ""}` },
    });
    if (result.status !== 0) throw new Error(`the earlier release's staging failed:\n${result.stdout}\n${result.stderr}`);
  }
}

/** The README's systemd unit (Deploying, "Start"): its settings by name. */
function readmeUnit(): Map<string, string> {
  const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
  const block = /```ini\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no ```ini block: the systemd unit of Deploying");
  const settings = block.split("\n").flatMap((line) => {
    const [, name, value] = /^\s*(\w+)=(.*)$/.exec(line) ?? [];
    return name && value !== undefined ? [[name, value.trim()] as const] : [];
  });
  return new Map(settings);
}

/** systemd's PATH for a service: none of npm's or a shell's additions. */
const SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin";

/** A POST of a wrong password: slow on purpose (the password is hashed), so it is still in flight at SIGTERM. */
function wrongSignIn(port: number, index: number): Promise<{ status: number; at: number }> {
  const body = JSON.stringify({ email: `nobody-${index}@example.com`, password: "not the password" });
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: "127.0.0.1",
        port,
        // Each caller from an address of its own: the per-address sign-in limit does not answer for the server.
        localAddress: `127.0.10.${index + 1}`,
        method: "POST",
        path: "/api/auth/sign-in/email",
        agent: false,
        headers: { "content-type": "application/json", origin: `http://localhost:${port}`, "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, at: Date.now() }));
      },
    );
    call.on("error", reject);
    call.end(body);
  });
}

/**
 * How many times the server has logged `text`, in JSON lines and in development's multi-line
 * entries alike. At debug a request is logged twice, when it arrives ("incoming request") and when
 * it is answered, and each entry names its path.
 */
function arrivals(server: ServerProcess, text: string): number {
  return server.output().split(text).length - 1;
}

/**
 * How many log entries hold both `message` and `text`: an entry is a JSON line, or a line of
 * development's output (it starts with the time in brackets) with the indented lines under it.
 */
function entriesAbout(server: ServerProcess, message: string, text: string): number {
  return server
    .output()
    .split(/\n(?=[[{])/)
    .filter((entry) => entry.includes(message) && entry.includes(text)).length;
}

/**
 * Sends `count` slow requests and, once the server has logged every one as arrived, SIGTERM:
 * every one must be answered. (A request that arrives after the signal is answered 503, and a
 * connection with no request yet is closed: neither is in flight.)
 */
async function stopWithRequestsInFlight(server: ServerProcess, port: number, count = 8) {
  const path = "/api/auth/sign-in/email";
  const before = entriesAbout(server, "incoming request", path);
  const answers = Array.from({ length: count }, (_, index) => wrongSignIn(port, index));
  const deadline = Date.now() + 10_000;
  while (entriesAbout(server, "incoming request", path) < before + count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(entriesAbout(server, "incoming request", path) - before, "requests that reached the server").toBe(count);
  const signalledAt = Date.now();
  server.child.kill("SIGTERM");
  const settled = await Promise.allSettled(answers);
  const stoppedWithin = await Promise.race([
    server.exited.then(() => Date.now() - signalledAt),
    new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 10_000)),
  ]);
  return { settled, signalledAt, stoppedWithin, exit: await server.exited };
}

/**
 * On one connection: a slow request; SIGINT once it has arrived; then a second request on the
 * same connection, which the server reads while it stops. Resolves with everything it answered.
 */
function pipelineAcrossStop(server: ServerProcess, port: number): Promise<string> {
  const body = JSON.stringify({ email: "nobody@example.com", password: "not the password" });
  const signIn =
    `POST /api/auth/sign-in/email HTTP/1.1\r\nhost: localhost:${port}\r\norigin: http://localhost:${port}\r\n` +
    `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const path = "/api/auth/sign-in/email";
  const before = arrivals(server, path);
  return new Promise((resolve, reject) => {
    let received = "";
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.write(signIn);
      const stopsBefore = arrivals(server, "shutting down");
      const waitForArrival = setInterval(() => {
        if (arrivals(server, path) === before) return;
        clearInterval(waitForArrival);
        server.child.kill("SIGINT");
        // Once the server says it is stopping, the second request.
        const waitForStop = setInterval(() => {
          if (arrivals(server, "shutting down") === stopsBefore) return;
          clearInterval(waitForStop);
          socket.write(`GET /api/programs HTTP/1.1\r\nhost: localhost:${port}\r\n\r\n`);
        }, 2);
      }, 5);
    });
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
}

function filesOpenToOthers(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => (statSync(path).mode & 0o077) !== 0);
}

function nonLoopbackAddress(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (!address.internal && address.family === "IPv4") return address.address;
  }
  return null;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("npm start: the demo", () => {
  let server: ServerProcess | undefined;
  afterAll(() => killServerProcess(server));

  it("serves on loopback only, with a private data folder, and SIGTERM ends npm and the server within 10 s", async () => {
    const port = await freePort();
    const dataDir = join(workDir, "demo-data");
    // npm start as the README runs it, less its prestart step (the build), which CI ran once before
    // every test step: --ignore-scripts skips pre- and post-scripts, never the script named.
    builtEntry("server");
    server = startServerProcess({
      command: "npm",
      args: ["start", "--ignore-scripts"],
      cwd: projectRoot,
      port,
      env: { DATA_DIR: dataDir, LOG_LEVEL: "debug" },
    });
    await server.waitUntilReady("/api/health", 120_000);

    expect(await connects("127.0.0.1", port)).toBe(true);
    const outside = nonLoopbackAddress();
    if (outside) expect(await connects(outside, port), `reachable at ${outside}`).toBe(false);
    expect(server.output()).toMatch(new RegExp(`listening at http://127\\.0\\.0\\.1:${port}`));
    expect(server.output()).not.toMatch(/listening at http:\/\/(0\.0\.0\.0|\[::\])/);

    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(filesOpenToOthers(dataDir)).toEqual([]);

    const { settled, signalledAt, stoppedWithin } = await stopWithRequestsInFlight(server, port);
    expect(settled.map((answer) => (answer.status === "fulfilled" ? answer.value.status : String(answer.reason)))).toEqual(
      settled.map(() => 401),
    );
    // Some of them were answered after the signal: they were in flight when it came.
    expect(settled.some((answer) => answer.status === "fulfilled" && answer.value.at > signalledAt)).toBe(true);
    expect(stoppedWithin).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.groupAlive(), "a process of npm start is left running").toBe(false);
    expect(server.output()).toContain("shutting down");
  }, 120_000);
});

describe("the production runtime", () => {
  const runtime = join(workDir, "runtime");
  const production = (port: number, dataDir: string) => ({
    NODE_ENV: "production",
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    AUTH_SECRET,
    DATA_DIR: dataDir,
    LOG_LEVEL: "debug",
  });
  // The runtime's own Node, which the README's unit and the image run.
  const runtimeNode = join(runtime, "bin/node");
  let server: ServerProcess | undefined;
  let earlierRelease: string[] = [];

  beforeAll(() => {
    // The README's upgrade: this release staged over the folder an earlier release staged. Then
    // the folder is what the Dockerfile's runtime stage is made of (after npm run build built it).
    stageWithEarlierRelease(runtime);
    earlierRelease = listing(runtime);
    const staged = stage(runtime);
    if (staged.status !== 0) throw new Error(`stage-runtime failed:\n${staged.stdout}\n${staged.stderr}`);
  }, 240_000);
  afterAll(() => killServerProcess(server));

  function runOnce(env: Record<string, string>, cwd = runtime) {
    return spawnSync(runtimeNode, ["dist/node/src/server/main.js"], { cwd, env: envWithoutAppSettings(env), encoding: "utf8", timeout: 20_000 });
  }

  it("stages over a runtime an earlier release staged, and leaves this release only", () => {
    // What the earlier release left: no mark, its upgrades nested in the older build, npm's packages.
    expect(earlierRelease).not.toContain(".trading-academy-runtime");
    expect(earlierRelease).toEqual(expect.arrayContaining(["dist/node/src/src", "dist/web/web", "drizzle/drizzle", "node_modules/left-by-an-earlier-release"]));

    expect(readdirSync(runtime).sort()).toEqual([".trading-academy-runtime", "bin", "dist", "drizzle", "node_modules", "package-lock.json", "package.json"]);
    expect(listing(join(runtime, "dist/node/src"))).toEqual(listing(join(projectRoot, "dist/node/src")).filter((path) => !path.endsWith(".map")));
    expect(listing(join(runtime, "dist/web"))).toEqual(listing(join(projectRoot, "dist/web")));
    expect(listing(join(runtime, "drizzle"))).toEqual(listing(join(projectRoot, "drizzle")));
    expect(readdirSync(join(runtime, "node_modules"))).not.toContain("left-by-an-earlier-release");
    expect(readdirSync(join(runtime, "node_modules"))).toContain("fastify");
    expect(readdirSync(workDir).filter((name) => name.includes(".staging."))).toEqual([]);
  });

  it("holds no source maps, no development stand-ins and no compiler", () => {
    const files = readdirSync(runtime, { recursive: true, withFileTypes: true }).filter((entry) => !entry.parentPath.includes("node_modules"));
    expect(files.filter((entry) => entry.name.endsWith(".map")).map((entry) => entry.name)).toEqual([]);
    expect(readdirSync(join(runtime, "dist/node"))).toEqual(["src"]);
    const modules = readdirSync(join(runtime, "node_modules"));
    for (const devOnly of ["typescript", "vite", "vitest", "tsx", "drizzle-kit", "playwright-core", "eslint"]) {
      expect(modules, devOnly).not.toContain(devOnly);
    }
  });

  it("is built from the server and shared code only: no development tools, no test helpers, no tests", () => {
    const tsc = join(projectRoot, "node_modules/typescript/bin/tsc");
    const listed = spawnSync(process.execPath, [tsc, "-p", "tsconfig.server.json", "--listFilesOnly"], { cwd: projectRoot, encoding: "utf8" });
    expect(listed.status).toBe(0);
    const ours = listed.stdout
      .split("\n")
      .filter((file) => file.startsWith(projectRoot) && !file.includes("/node_modules/"))
      .map((file) => file.slice(projectRoot.length + 1));
    expect(ours).toContain("src/server/main.ts");
    expect(ours.filter((file) => !/^src\/(server|shared)\//.test(file))).toEqual([]);
    expect(ours.filter((file) => file.includes("/testing/") || file.endsWith(".test.ts"))).toEqual([]);
  });

  it("refuses development on a public HOST, in one line that says how to run in production", () => {
    const result = runOnce({ HOST: "0.0.0.0", DATA_DIR: join(workDir, "never") });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: HOST: .*NODE_ENV=production node dist\/node\/src\/server\/main\.js/);
  });

  it("refuses to run as development: the production entry has no development tools to serve", () => {
    const result = runOnce({ HOST: "127.0.0.1", DATA_DIR: join(workDir, "never") });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      "Invalid configuration: NODE_ENV: this entry runs production only; set NODE_ENV=production, or run development with npm start",
    ]);
  });

  it.each([
    ["APP_URL", { APP_URL: "localhost:3000" }],
    ["APP_URL", { APP_URL: "http://academy.example.com" }],
    ["AUTH_SECRET", { AUTH_SECRET: "" }],
    ["AUTH_SECRET", { AUTH_SECRET: "a".repeat(40) }],
    ["AUTH_SECRET", { AUTH_SECRET: DEVELOPMENT_AUTH_SECRET }],
    ["METRICS_TOKEN", { METRICS_TOKEN: "0123456789".repeat(4) }],
    ["DATABASE_URL", { DATABASE_URL: "db.internal:5432/academy" }],
  ])("refuses a bad %s in production with one line naming it", (name, bad) => {
    const result = runOnce({ ...production(3000, join(workDir, "never")), ...bad });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^Invalid configuration: ${name}: `))]);
    expect(result.stdout).toBe(""); // nothing started, nothing logged
  });

  it("starts as the README's unit starts it, on Node 24 or newer whatever Node the machine has, serves without the development tools, warns once per missing service, answers its health check, stops on SIGTERM and starts again", async () => {
    const port = await freePort();
    const dataDir = join(workDir, "production-data");
    // The unit's command line and working folder, with the staged folder in place of the README's,
    // and the unit's environment: its environment file's settings and systemd's PATH, nothing else.
    const unit = readmeUnit();
    const folder = unit.get("WorkingDirectory") ?? "";
    const inRuntime = (path: string) => (path === folder || path.startsWith(`${folder}/`) ? join(runtime, path.slice(folder.length)) : path);
    const [program = "", ...args] = (unit.get("ExecStart") ?? "").split(/\s+/).map(inRuntime);
    expect(folder).toBe("/opt/trading-academy");
    const start = () =>
      startServerProcess({ command: program, args, cwd: inRuntime(folder), port, env: { ...production(port, dataDir), PATH: SYSTEMD_PATH }, bareEnv: true });
    const started = start();
    server = started;
    await started.waitUntilReady();
    const base = started.url;

    // The Node the kernel runs for the server, as an operator would ask it.
    const running = spawnSync(`/proc/${started.child.pid}/exe`, ["--version"], { encoding: "utf8" });
    expect(running.stdout.trim()).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(Number(/^v(\d+)/.exec(running.stdout)?.[1]), running.stdout).toBeGreaterThanOrEqual(OLDEST_SUPPORTED_NODE);
    // Its own Node, not the machine's: the same on every machine the folder is staged on.
    expect(program).toBe(runtimeNode);

    // The logger writes asynchronously: a start-up warning may reach the pipe after the health
    // check has answered, so the lines are read once every warning is in.
    const warnings = ["SMTP_URL is not set", "PAYSTACK_SECRET_KEY is not set", "CHAT_WIDGET_URL is not set", "HUBTEL_CLIENT_ID and HUBTEL_CLIENT_SECRET are not set"];
    await vi.waitFor(() => {
      for (const warning of warnings) expect(started.output()).toContain(warning);
    });
    const logLines = started.output().trim().split("\n");
    for (const line of logLines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    for (const variable of ["SMTP_URL", "PAYSTACK_SECRET_KEY", "CHAT_WIDGET_URL"]) {
      expect(logLines.filter((line) => line.includes(`${variable} is not set`)), variable).toHaveLength(1);
    }
    expect(logLines.filter((line) => line.includes("HUBTEL_CLIENT_ID and HUBTEL_CLIENT_SECRET are not set"))).toHaveLength(1);
    const health = (await (await fetch(`${base}/api/health`)).json()) as { services: unknown };
    expect(health.services).toEqual({ email: "missing", payments: "missing", chat: "missing", sms: "missing" });

    for (const path of ["/dev/mail", "/dev/mail/messages", "/dev/fakes/paystack/inline.js", "/dev/fakes/exchange-rate/v6/latest/USD", "/dev/fakes/youtube/iframe_api"]) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(404);
    }
    const page = await (await fetch(`${base}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`${base}${script}`)).status).toBe(200);
    expect((await fetch(`${base}${script}.map`)).status).toBe(404);

    const check = () => spawnSync(runtimeNode, ["dist/node/src/server/healthcheck.js"], { cwd: runtime, env: envWithoutAppSettings(production(port, dataDir)), encoding: "utf8" });
    expect(check().status).toBe(0);

    expect(filesOpenToOthers(dataDir)).toEqual([]);
    const { settled, stoppedWithin, exit } = await stopWithRequestsInFlight(server, port);
    expect(settled.map((answer) => (answer.status === "fulfilled" ? answer.value.status : String(answer.reason)))).toEqual(
      settled.map(() => 401),
    );
    expect(stoppedWithin).toBeLessThan(10_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(check().status).toBe(1);

    // An operator's restart on the same data, stopped with SIGINT this time.
    server = start();
    await server.waitUntilReady();
    expect(check().status).toBe(0);
    // A request that arrives on a kept-alive connection while the server stops: told to come back.
    const answers = await pipelineAcrossStop(server, port);
    expect(answers).toMatch(/^HTTP\/1\.1 401 /);
    const second = answers.slice(answers.indexOf("HTTP/1.1", 1));
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    const requestId = /\r\nx-request-id: ([^\r]+)\r\n/i.exec(second)?.[1];
    expect(second).toContain(
      JSON.stringify({ error: { code: "SHUTTING_DOWN", message: "The server is restarting. Please try again in a moment.", requestId } }),
    );
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 120_000);

  it("stages again into the same folder whole: the same files, nothing nested, and a folder it did not make is refused", () => {
    const before = listing(runtime);
    expect(before).toContain(".trading-academy-runtime");
    const again = stage(runtime);
    expect(again.status, again.stderr).toBe(0);
    expect(listing(runtime)).toEqual(before);
    expect(readdirSync(join(runtime, "dist/node/src"))).not.toContain("src");
    expect(readdirSync(join(runtime, "dist/web"))).not.toContain("web");
    expect(readdirSync(join(runtime, "drizzle"))).not.toContain("drizzle");
    expect(readdirSync(workDir).filter((name) => name.includes(".staging."))).toEqual([]);

    const foreign = join(workDir, "someone-elses");
    mkdirSync(foreign);
    writeFileSync(join(foreign, "notes.txt"), "kept");
    const refused = stage(foreign);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(`${foreign} is not a runtime this script made (no .trading-academy-runtime in it): give a new or empty folder.`);
    expect(readdirSync(foreign)).toEqual(["notes.txt"]);

    // A runtime, of this release or an earlier one, that holds what staging does not lay out (the
    // embedded database, when DATA_DIR was left at ./data) is refused and kept as it was.
    const withData = (name: string, runtimeFiles: string[]) => {
      const folder = join(workDir, name);
      for (const file of [...runtimeFiles, "data/PG_VERSION"]) {
        mkdirSync(join(folder, file, ".."), { recursive: true });
        writeFileSync(join(folder, file), file === "package.json" ? readFileSync(join(projectRoot, file)) : "kept");
      }
      return folder;
    };
    for (const folder of [
      withData("this-release-with-data", [".trading-academy-runtime", "dist/node/src/server/main.js"]),
      withData("earlier-release-with-data", ["package.json", "dist/node/src/server/main.js"]),
    ]) {
      const untouched = listing(folder);
      const kept = stage(folder);
      expect(kept.status, kept.stdout).toBe(1);
      expect(kept.stderr.trim()).toBe(`${folder} holds what this script does not lay out (data): staging would delete it, so move it out first.`);
      expect(listing(folder)).toEqual(untouched);
    }
  }, 240_000);
});
