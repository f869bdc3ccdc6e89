// How long a learner still waits before a new quiz attempt, in words (docs/product.md, "Quiz
// attempts"). Pure: the server's refusal says it, and the quiz panel counts down with it.

function count(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/**
 * A wait, rounded up to what a person would say: "45 seconds", "1 minute", "7 minutes",
 * "2 hours 5 minutes", "1 day 3 hours". Never "0": a wait still running is at least 1 second.
 */
export function waitInWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return count(seconds, "second");
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return count(minutes, "minute");
  if (minutes < 24 * 60) {
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest === 0 ? count(hours, "hour") : `${count(hours, "hour")} ${count(rest, "minute")}`;
  }
  const hours = Math.ceil(minutes / 60);
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest === 0 ? count(days, "day") : `${count(days, "day")} ${count(rest, "hour")}`;
}
