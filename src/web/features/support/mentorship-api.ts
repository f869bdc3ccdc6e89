// 1-on-1 mentorship (docs/product.md, "Questions and mentorship"): the learner's requests, whether
// their plan includes it (the server decides), asking for a session and cancelling one.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { SUPPORT_ENDPOINTS, type MentorshipRequestInput } from "../../../shared/contracts/support.ts";
import { call } from "../../lib/api.ts";

const mentorshipQuery = queryOptions({
  queryKey: ["mentorship"],
  queryFn: () => call(SUPPORT_ENDPOINTS.mentorship, {}),
});

export function useMentorship() {
  return useQuery(mentorshipQuery);
}

export function useRequestMentorship() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MentorshipRequestInput) => call(SUPPORT_ENDPOINTS.requestSession, { body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mentorshipQuery.queryKey }),
  });
}

export function useCancelMentorship() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(SUPPORT_ENDPOINTS.cancelSession, { params: { requestId: id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mentorshipQuery.queryKey }),
  });
}
