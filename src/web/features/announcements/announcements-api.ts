// The learner's side of announcements: leaving them with the link's token (docs/admin.md,
// "Announcements"). No session is needed; the token says who.
import { useMutation } from "@tanstack/react-query";
import { unsubscribeResponseSchema } from "../../../shared/contracts/announcements.ts";
import { apiRequest } from "../../lib/api.ts";

export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => apiRequest("/api/announcements/unsubscribe", unsubscribeResponseSchema, { method: "POST", body: { token } }),
  });
}
