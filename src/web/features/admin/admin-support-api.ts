// The admin console's Questions and Mentorship tabs (docs/product.md, "Questions and mentorship"):
// the lists, paged by the server, and the answers to mentorship requests. Answering, pinning and
// removing questions go through the lesson's own thread (learning/lesson-questions.tsx).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  adminMentorshipListSchema,
  adminQuestionListSchema,
  mentorshipResponseSchema,
  SUPPORT_MESSAGES,
  type ConfirmMentorshipInput,
} from "../../../shared/contracts/support.ts";
import { apiRequest } from "../../lib/api.ts";
import { notify } from "../../ui/toast.tsx";
import { ADMIN_KEY, refreshAdmin } from "./admin-api.ts";

export function useAdminQuestions(page: number) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "questions", { page }],
    queryFn: () => apiRequest(`/api/admin/questions?${new URLSearchParams({ page: String(page) })}`, adminQuestionListSchema),
    placeholderData: keepPreviousData,
  });
}

export function useAdminMentorship(page: number) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "mentorship", { page }],
    queryFn: () => apiRequest(`/api/admin/mentorship?${new URLSearchParams({ page: String(page) })}`, adminMentorshipListSchema),
    placeholderData: keepPreviousData,
  });
}

type Decision = { id: string } & ({ action: "confirm"; input: ConfirmMentorshipInput } | { action: "decline"; note: string });

/** Confirm a time or decline with a note; the dialog shows a refusal, the toast says it is done. */
export function useDecideMentorship() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: Decision) =>
      apiRequest(`/api/admin/mentorship/${encodeURIComponent(decision.id)}/${decision.action}`, mentorshipResponseSchema, {
        method: "POST",
        body: decision.action === "confirm" ? decision.input : { note: decision.note },
      }),
    onSuccess: (_answer, decision) => notify.success(decision.action === "confirm" ? SUPPORT_MESSAGES.confirmed : SUPPORT_MESSAGES.declined),
    onSettled: () => refreshAdmin(queryClient),
  });
}
