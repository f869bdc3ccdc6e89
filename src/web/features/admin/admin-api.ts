// The admin console's calls. Every answer is parsed with the shared contract; every change
// refreshes the counts in the tab labels.
import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import { formatCedis } from "../../../shared/billing.ts";
import { ADMIN_RECORDS_ENDPOINTS } from "../../../shared/contracts/admin.ts";
import { ApiRequestError, call } from "../../lib/api.ts";

/** Everything the admin console caches lives under this key. */
export const ADMIN_KEY = ["admin"] as const;

export const summaryQuery = queryOptions({
  queryKey: [...ADMIN_KEY, "summary"],
  queryFn: () => call(ADMIN_RECORDS_ENDPOINTS.summary, {}),
});

export function useAdminSummary() {
  return useQuery(summaryQuery);
}

/**
 * After a change: the counts, and whichever admin lists are on screen, load again; so do the
 * learner's views of programs, which an admin may just have edited.
 */
export function refreshAdmin(queryClient: QueryClient) {
  return Promise.all(
    [ADMIN_KEY, ["programs"], ["track"]].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

/**
 * The server's own words when it refused for a reason the admin can act on (your own plan, already
 * admitted, user gone: 401-499 but not the 400 of a malformed request), else the spec's message.
 */
export function refusalMessage(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.status > 400 && error.status < 500 ? error.message : fallback;
}

/** A date in the admin's own calendar, or N/A (docs/product.md, "Admin console"). */
export function formatLocalDate(iso: string | null): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" }) : "N/A";
}

export function formatLocalDateTime(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "N/A";
}

/** Minor units (pesewas) as cedis with two decimals (docs/data.md, "Money"): 54000 -> "₵540.00". */
export { formatCedis };
