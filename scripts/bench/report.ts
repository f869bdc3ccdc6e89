// Markdown for the terminal and docs/benchmarks.md: tables, numbers and budget verdicts.

export type Cell = string | number;

/** A markdown table; columns whose header starts with ">" are right-aligned (the ">" is dropped). */
export function table(headers: string[], rows: Cell[][]): string {
  const head = headers.map((header) => header.replace(/^>/, ""));
  const align = headers.map((header) => (header.startsWith(">") ? "---:" : "---"));
  const escape = (cell: Cell) => String(cell).replaceAll("|", "\\|").replaceAll("\n", " ");
  return [
    `| ${head.join(" | ")} |`,
    `|${align.join("|")}|`,
    ...rows.map((row) => `| ${row.map(escape).join(" | ")} |`),
  ].join("\n");
}

export function verdict(met: boolean): string {
  return met ? "met" : "**NOT met**";
}

export const integer = (value: number): string =>
  Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "n/a";

export const decimal = (value: number, digits = 1): string =>
  Number.isFinite(value) ? value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "n/a";

export const percent = (ratio: number): string => (Number.isFinite(ratio) ? `${Math.round(ratio * 100)}%` : "n/a");

/** Bytes as kB (1 kB = 1,000 bytes, as Vite reports sizes). */
export const kilobytes = (bytes: number): string => (Number.isFinite(bytes) ? `${decimal(bytes / 1000, 1)} kB` : "n/a");

export const seconds = (ms: number): string => (Number.isFinite(ms) ? `${decimal(ms / 1000, 2)} s` : "n/a");

/** "5 min 12 s" */
export function duration(ms: number): string {
  const total = Math.round(ms / 1000);
  const minutes = Math.floor(total / 60);
  return minutes > 0 ? `${minutes} min ${total % 60} s` : `${total} s`;
}

/** A section of the report: its markdown, and one line per budget for the summary. */
export type Section = { title: string; markdown: string; budgets: BudgetLine[] };
export type BudgetLine = { budget: string; measured: string; met: boolean | null };

export function budgetRow(line: BudgetLine): Cell[] {
  return [line.budget, line.measured, line.met === null ? "not measured" : verdict(line.met)];
}

export function notMeasured(title: string, reason: string, budgets: string[] = []): Section {
  return {
    title,
    markdown: `Not measured: ${reason}`,
    budgets: budgets.map((budget) => ({ budget, measured: "not measured", met: null })),
  };
}
