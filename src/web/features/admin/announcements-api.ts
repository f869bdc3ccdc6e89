// The Announcements tab's calls (docs/admin.md, "Announcements"): the audience's choices, the
// preview, sending, and the list with its progress, polled while an announcement is being sent.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  announcementListSchema,
  announcementPreviewSchema,
  announcementResponseSchema,
  audienceOptionsSchema,
  deliveryFailureListSchema,
  type AnnouncementDraft,
  type StartAnnouncementInput,
} from "../../../shared/contracts/announcements.ts";
import { apiRequest } from "../../lib/api.ts";
import { ADMIN_KEY, refreshAdmin } from "./admin-api.ts";

const ANNOUNCEMENTS_KEY = [...ADMIN_KEY, "announcements"] as const;

/** How often a list with an announcement being sent asks again. */
export const PROGRESS_POLL_MS = 2_000;

export function useAudienceOptions() {
  return useQuery({
    queryKey: [...ANNOUNCEMENTS_KEY, "audiences"],
    queryFn: () => apiRequest("/api/admin/announcements/audiences", audienceOptionsSchema),
  });
}

export function usePreviewAnnouncement() {
  return useMutation({
    mutationFn: (draft: AnnouncementDraft) =>
      apiRequest("/api/admin/announcements/preview", announcementPreviewSchema, { method: "POST", body: draft }),
  });
}

export function useStartAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartAnnouncementInput) =>
      apiRequest("/api/admin/announcements", announcementResponseSchema, { method: "POST", body: input }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useAnnouncements(page: number) {
  return useQuery({
    queryKey: [...ANNOUNCEMENTS_KEY, "list", { page }],
    queryFn: () => apiRequest(`/api/admin/announcements?${new URLSearchParams({ page: String(page) })}`, announcementListSchema),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.announcements.some((a) => a.status === "running") ? PROGRESS_POLL_MS : false),
  });
}

export function useDeliveryFailures(id: string, page: number, sending: boolean) {
  return useQuery({
    queryKey: [...ANNOUNCEMENTS_KEY, "failures", id, { page }],
    queryFn: () =>
      apiRequest(`/api/admin/announcements/${encodeURIComponent(id)}/failures?${new URLSearchParams({ page: String(page) })}`, deliveryFailureListSchema),
    placeholderData: keepPreviousData,
    refetchInterval: sending ? PROGRESS_POLL_MS : false,
  });
}
