// What a scenario found: named checks (pass or fail, with the evidence), figures for the summary
// table, and text tables printed as the scenario goes.

export type Check = { name: string; passed: boolean; detail: string };

export type ScenarioResult = {
  scenario: string;
  passed: boolean;
  checks: Check[];
  /** Short "name: value" figures for the summary table. */
  figures: [string, string][];
  seconds: number;
};

/** Context every scenario gets from the runner. */
export type RunContext = {
  /** Short unique id of this run (emails, database names). */
  runId: string;
  /** Folder for this run's logs (one app log per start). */
  runDir: string;
  useDist: boolean;
  log(line: string): void;
};

export class ScenarioReport {
  readonly checks: Check[] = [];
  readonly figures: [string, string][] = [];
  private readonly started = Date.now();

  constructor(
    readonly scenario: string,
    private readonly log: (line: string) => void,
  ) {}

  check(name: string, passed: boolean, detail = ""): boolean {
    this.checks.push({ name, passed, detail });
    this.log(`  [${passed ? "PASS" : "FAIL"}] ${name}${detail ? `: ${detail}` : ""}`);
    return passed;
  }

  figure(name: string, value: string): void {
    this.figures.push([name, value]);
  }

  /** A failure that stopped the scenario early (an exception). */
  aborted(error: unknown): void {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.check("scenario ran to the end", false, message);
  }

  result(): ScenarioResult {
    return {
      scenario: this.scenario,
      passed: this.checks.length > 0 && this.checks.every((check) => check.passed),
      checks: this.checks,
      figures: this.figures,
      seconds: (Date.now() - this.started) / 1000,
    };
  }
}

/** A plain text table: header row, separator, rows; columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ").trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("-+-"), ...rows.map(line)].join("\n");
}

export function indent(text: string, prefix = "  "): string {
  return text
    .split("\n")
    .map((line) => prefix + line)
    .join("\n");
}
