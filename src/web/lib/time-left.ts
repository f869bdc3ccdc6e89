// A countdown a page shows (the quiz's and an exercise's wait before a new attempt).
import { useEffect, useState } from "react";

/** The milliseconds until `at`, counted down every few seconds; null without a time. */
export function useTimeLeft(at: string | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const timer = setInterval(() => setNow(Date.now()), 5_000);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? null : Date.parse(at) - now;
}
