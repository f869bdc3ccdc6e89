// What the figures were measured on.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";

export type Machine = {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  chromium: string;
  /** 1-minute load average when the run started: above the core count, the figures are noisy. */
  loadAverage: number;
};

function osName(): string {
  if (existsSync("/etc/os-release")) {
    const line = readFileSync("/etc/os-release", "utf8")
      .split("\n")
      .find((entry) => entry.startsWith("PRETTY_NAME="));
    if (line) return `${line.slice("PRETTY_NAME=".length).replace(/^"|"$/g, "")}, kernel ${os.release()}`;
  }
  return `${os.type()} ${os.release()}`;
}

export function chromiumVersion(path: string): string {
  try {
    return execFileSync(path, ["--version"], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return `not found at ${path}`;
  }
}

export function describeMachine(postgres: string, chromiumPath: string): Machine {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism(),
    memoryGiB: os.totalmem() / 1024 ** 3,
    os: osName(),
    node: process.version,
    postgres,
    chromium: chromiumVersion(chromiumPath),
    loadAverage: os.loadavg()[0] ?? 0,
  };
}
