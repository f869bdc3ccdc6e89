// The admin console's Questions and Mentorship tabs (docs/product.md, "Questions and mentorship"):
// the lists, paged by the server, and the answers to mentorship requests. Answering, pinning and
// removing questions go through the lesson's own thread (learning/lesson-questions.tsx).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { SUPPORT_ENDPOINTS, SUPPORT_MESSAGES, type ConfirmMentorshipInput } from "../../../../shared/contracts/support.ts";
import { call } from "../../../lib/api.ts";
import { notify } from "../../../ui/toast.tsx";
import { ADMIN_KEY, refreshAdmin } from "../admin-api.ts";

export function useAdminQuestions(page: number) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "questions", { page }],
    queryFn: () => call(SUPPORT_ENDPOINTS.adminQuestions, { query: { page } }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminMentorship(page: number) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "mentorship", { page }],
    queryFn: () => call(SUPPORT_ENDPOINTS.adminMentorship, { query: { page } }),
    placeholderData: keepPreviousData,
  });
}

type Decision = { id: string } & ({ action: "confirm"; input: ConfirmMentorshipInput } | { action: "decline"; note: string });

/** Confirm a time or decline with a note; the dialog shows a refusal, the toast says it is done. */
export function useDecideMentorship() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: Decision) =>
      decision.action === "confirm"
        ? call(SUPPORT_ENDPOINTS.confirmSession, { params: { requestId: decision.id }, body: decision.input })
        : call(SUPPORT_ENDPOINTS.declineSession, { params: { requestId: decision.id }, body: { note: decision.note } }),
    onSuccess: (_answer, decision) => notify.success(decision.action === "confirm" ? SUPPORT_MESSAGES.confirmed : SUPPORT_MESSAGES.declined),
    onSettled: () => refreshAdmin(queryClient),
  });
}
