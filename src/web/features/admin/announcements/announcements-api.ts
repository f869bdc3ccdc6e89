// The Announcements tab's calls (docs/admin.md, "Announcements"): the audience's choices, the
// preview, sending, and the list with its progress, polled while an announcement is being sent.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ANNOUNCEMENT_ENDPOINTS, type AnnouncementDraft, type StartAnnouncementInput } from "../../../../shared/contracts/announcements.ts";
import { call } from "../../../lib/api.ts";
import { ADMIN_KEY, refreshAdmin } from "../admin-api.ts";

const ANNOUNCEMENTS_KEY = [...ADMIN_KEY, "announcements"] as const;

/** How often a list with an announcement being sent asks again. */
export const PROGRESS_POLL_MS = 2_000;

export function useAudienceOptions() {
  return useQuery({
    queryKey: [...ANNOUNCEMENTS_KEY, "audiences"],
    queryFn: () => call(ANNOUNCEMENT_ENDPOINTS.audiences, {}),
  });
}

export function usePreviewAnnouncement() {
  return useMutation({
    mutationFn: (draft: AnnouncementDraft) => call(ANNOUNCEMENT_ENDPOINTS.preview, { body: draft }),
  });
}

export function useStartAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartAnnouncementInput) => call(ANNOUNCEMENT_ENDPOINTS.start, { body: input }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useAnnouncements(page: number) {
  return useQuery({
    queryKey: [...ANNOUNCEMENTS_KEY, "list", { page }],
    queryFn: () => call(ANNOUNCEMENT_ENDPOINTS.list, { query: { page } }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.announcements.some((a) => a.status === "running") ? PROGRESS_POLL_MS : false),
  });
}

export function useDeliveryFailures(id: string, page: number, sending: boolean) {
  return useQuery({
    queryKey: [...ANNOUNCEMENTS_KEY, "failures", id, { page }],
    queryFn: () => call(ANNOUNCEMENT_ENDPOINTS.failures, { params: { id }, query: { page } }),
    placeholderData: keepPreviousData,
    refetchInterval: sending ? PROGRESS_POLL_MS : false,
  });
}
