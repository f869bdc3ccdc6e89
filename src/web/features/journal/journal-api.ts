// The journal page's calls (docs/trading.md, "The journal"): a page of entries, the figures, and
// the changes, each refreshing both.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { addressOf } from "../../../shared/contracts/endpoint.ts";
import { JOURNAL_ENDPOINTS, type JournalEntryInput } from "../../../shared/contracts/journal.ts";
import { apiRequest, ApiRequestError, call } from "../../lib/api.ts";

const JOURNAL_KEY = ["journal"] as const;

export function useJournalEntries(page: number) {
  return useQuery({ queryKey: [...JOURNAL_KEY, "entries", { page }], queryFn: () => call(JOURNAL_ENDPOINTS.list, { query: { page } }), placeholderData: keepPreviousData });
}

export function useJournalStats() {
  return useQuery({ queryKey: [...JOURNAL_KEY, "stats"], queryFn: () => call(JOURNAL_ENDPOINTS.stats, {}) });
}

/**
 * Saves an entry (a new one without `id`), then its screenshot when one was chosen. The entry is
 * kept even when its screenshot is refused: the answer says why, beside the entry saved.
 */
export function useSaveEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input, screenshot }: { id?: string; input: JournalEntryInput; screenshot: File | null }) => {
      const { entry } = id ? await call(JOURNAL_ENDPOINTS.update, { params: { id }, body: input }) : await call(JOURNAL_ENDPOINTS.create, { body: input });
      if (!screenshot) return { entry, screenshotRefused: null };
      const upload = JOURNAL_ENDPOINTS.putScreenshot;
      try {
        return { entry: (await apiRequest(addressOf(upload, { id: entry.id }), upload.response, { method: upload.method, file: screenshot })).entry, screenshotRefused: null };
      } catch (error) {
        return { entry, screenshotRefused: error instanceof ApiRequestError ? error.message : "The screenshot could not be uploaded. Try again in a moment." };
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: JOURNAL_KEY }),
  });
}

export function useRemoveEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(JOURNAL_ENDPOINTS.remove, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: JOURNAL_KEY }),
  });
}

/** Shares an entry with the mentor, or stops sharing it (the Advanced plan, decided by the server). */
export function useShareEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, shared }: { id: string; shared: boolean }) => call(JOURNAL_ENDPOINTS.share, { params: { id }, body: { shared } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: JOURNAL_KEY }),
  });
}
