// The academy's clock (docs/product.md, "Questions and mentorship"): mentorship sessions are set and
// announced in Accra time, wherever the admin or the learner is. Pure: Intl only.

import { onFirstUse } from "./formatters.ts";

export const ACADEMY_TIME_ZONE = "Africa/Accra";

const parts = onFirstUse(() => new Intl.DateTimeFormat("en-US", {
  timeZone: ACADEMY_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
}));

/** How far Accra's wall clock is ahead of UTC at `instant`, in milliseconds. */
function academyOffsetMs(instant: number): number {
  const value = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts().formatToParts(instant).find((part) => part.type === type)?.value);
  const wall = Date.UTC(value("year"), value("month") - 1, value("day"), value("hour"), value("minute"), value("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant of a wall-clock time in Accra, as a date-time input gives it ("2026-03-14T15:00"),
 * or null when it is not a time that exists.
 */
export function academyTimeToInstant(local: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The offset at the wall time read as UTC, then again at the instant found (a clock change between).
  const guess = wall - academyOffsetMs(wall);
  return new Date(wall - academyOffsetMs(guess));
}

const display = onFirstUse(() => new Intl.DateTimeFormat("en-GB", {
  timeZone: ACADEMY_TIME_ZONE,
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
}));

/** "Saturday 14 March 2026 at 15:00 (Accra time)". */
export function formatAcademyTime(instant: Date): string {
  const value = (type: Intl.DateTimeFormatPartTypes) => display().formatToParts(instant).find((part) => part.type === type)?.value ?? "";
  return `${value("weekday")} ${value("day")} ${value("month")} ${value("year")} at ${value("hour")}:${value("minute")} (Accra time)`;
}

/** The value a date-time input shows for an instant, on Accra's clock: "2026-03-14T15:00". */
export function academyInputValue(instant: Date): string {
  const wall = new Date(instant.getTime() + academyOffsetMs(instant.getTime()));
  return wall.toISOString().slice(0, 16);
}
