// The learner page's one read (docs/admin.md, "Learner page"). It lives under the console's key,
// so every action taken on the page (or anywhere in the console) refreshes it through refreshAdmin.
import { useQuery } from "@tanstack/react-query";
import { LEARNER_RECORD_ENDPOINTS } from "../../../../shared/contracts/admin-learner.ts";
import { ApiRequestError, call } from "../../../lib/api.ts";
import { ADMIN_KEY } from "../admin-api.ts";

export function useLearner(userId: string) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "learner", userId],
    queryFn: () => call(LEARNER_RECORD_ENDPOINTS.learner, { params: { id: userId } }),
    // A user that is not there stays not there: no second ask.
    retry: (failures, error) => !(error instanceof ApiRequestError && error.status === 404) && failures < 2,
  });
}

/** The server said there is no such user. */
export function isNoSuchUser(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404;
}
