// The admin console's calls. Every answer is parsed with the shared contract; every change
// refreshes the counts in the tab labels.
import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import { adminSummarySchema } from "../../../shared/contracts/admin.ts";
import { apiRequest } from "../../lib/api.ts";

/** Everything the admin console caches lives under this key. */
export const ADMIN_KEY = ["admin"] as const;

export const summaryQuery = queryOptions({
  queryKey: [...ADMIN_KEY, "summary"],
  queryFn: () => apiRequest("/api/admin/summary", adminSummarySchema),
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
