// Latencies per step and errors per route and status, for the scenario reports.
import { outcomeLabel, type Answer } from "./http-client.ts";

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export type StepSummary = { step: string; count: number; errors: number; p50: number; p95: number; p99: number; max: number };

export type ErrorSample = { route: string; outcome: string; body: string; at: number };

/** Counts every request of a run: its step's latency, and, when it failed, its route and status. */
export class Recorder {
  readonly latencies = new Map<string, number[]>();
  readonly stepErrors = new Map<string, number>();
  /** "POST /api/programs/:track/quiz/answers -> 500" -> count */
  readonly errors = new Map<string, number>();
  readonly samples: ErrorSample[] = [];
  requests = 0;
  /** Sees every answer as it is recorded (the fault scenarios keep a timeline). */
  onAnswer: ((step: string, route: string, answer: Answer, ok: boolean) => void) | null = null;

  /**
   * Records one answer; `ok` says whether it counts as a success (by default any 2xx).
   * Returns `ok` so that callers can branch on it.
   */
  record(step: string, route: string, answer: Answer, ok = answer.status >= 200 && answer.status < 300): boolean {
    this.requests++;
    this.onAnswer?.(step, route, answer, ok);
    const list = this.latencies.get(step) ?? [];
    list.push(answer.ms);
    this.latencies.set(step, list);
    if (!ok) {
      this.stepErrors.set(step, (this.stepErrors.get(step) ?? 0) + 1);
      const key = `${route} -> ${outcomeLabel(answer)}`;
      this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
      if (this.samples.length < 20) {
        this.samples.push({ route, outcome: outcomeLabel(answer), body: answer.text.slice(0, 300), at: Date.now() });
      }
    }
    return ok;
  }

  get errorCount(): number {
    let total = 0;
    for (const count of this.errors.values()) total += count;
    return total;
  }

  steps(): StepSummary[] {
    return [...this.latencies].map(([step, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return {
        step,
        count: sorted.length,
        errors: this.stepErrors.get(step) ?? 0,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: sorted[sorted.length - 1] ?? Number.NaN,
      };
    });
  }
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "-";
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`;
}

export const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** Runs `task` over `items` with at most `limit` at a time; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
