// The learner's side of announcements: leaving them with the link's token (docs/admin.md,
// "Announcements"). No session is needed; the token says who.
import { useMutation } from "@tanstack/react-query";
import { ANNOUNCEMENT_ENDPOINTS } from "../../../shared/contracts/announcements.ts";
import { call } from "../../lib/api.ts";

export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => call(ANNOUNCEMENT_ENDPOINTS.unsubscribe, { body: { token } }),
  });
}
