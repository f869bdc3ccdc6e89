// The read-only records: the audit log and contact messages, paged by the server.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ADMIN_RECORDS_ENDPOINTS } from "../../../../shared/contracts/admin.ts";
import { call } from "../../../lib/api.ts";
import { ADMIN_KEY } from "../admin-api.ts";

export function useAdminAudit(page: number, user: string) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "audit", { page, user }],
    queryFn: () => call(ADMIN_RECORDS_ENDPOINTS.audit, { query: { page, user: user || undefined } }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminMessages(page: number) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "messages", { page }],
    queryFn: () => call(ADMIN_RECORDS_ENDPOINTS.messages, { query: { page } }),
    placeholderData: keepPreviousData,
  });
}
