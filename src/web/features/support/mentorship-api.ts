// 1-on-1 mentorship (docs/product.md, "Questions and mentorship"): the learner's requests, whether
// their plan includes it (the server decides), asking for a session and cancelling one.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  mentorshipListSchema,
  mentorshipResponseSchema,
  type MentorshipRequestInput,
} from "../../../shared/contracts/support.ts";
import { apiRequest } from "../../lib/api.ts";

const mentorshipQuery = queryOptions({
  queryKey: ["mentorship"],
  queryFn: () => apiRequest("/api/mentorship", mentorshipListSchema),
});

export function useMentorship() {
  return useQuery(mentorshipQuery);
}

export function useRequestMentorship() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MentorshipRequestInput) => apiRequest("/api/mentorship", mentorshipResponseSchema, { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mentorshipQuery.queryKey }),
  });
}

export function useCancelMentorship() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/mentorship/${encodeURIComponent(id)}/cancel`, mentorshipResponseSchema, { method: "POST", body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mentorshipQuery.queryKey }),
  });
}
