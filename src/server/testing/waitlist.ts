// Waitlist places written straight into the database, as the crediting of a waitlist payment
// leaves them: the cohort record first, then the place.
import { nextCohort } from "../../shared/billing.ts";
import type { Db } from "../db/client.ts";
import { cohorts, waitlist } from "../db/schema.ts";

type Place = typeof waitlist.$inferInsert;

/** Places learners on the waitlist; a place without a cohort joins the next one. */
export async function placeOnWaitlist(db: Db, places: readonly (Omit<Place, "cohort"> & { cohort?: string })[]): Promise<void> {
  const next = nextCohort(new Date());
  const rows = places.map((place) => ({ ...place, cohort: place.cohort ?? next.name }));
  const names = [...new Set(rows.map((row) => row.cohort))];
  await db
    .insert(cohorts)
    .values(names.map((name) => ({ name, startsOn: name === next.name ? next.startsOn : startOfNamedMonth(name) })))
    .onConflictDoNothing();
  await db.insert(waitlist).values(rows);
}

function startOfNamedMonth(name: string): string {
  const parsed = new Date(`1 ${name} UTC`);
  if (Number.isNaN(parsed.getTime())) throw new Error(`a cohort name is a month and a year: ${name}`);
  return parsed.toISOString().slice(0, 10);
}
