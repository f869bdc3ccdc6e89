// The dashboard's one call (docs/admin.md, "Dashboard"): every figure for the funnel's period,
// computed by the server. The figures of the period on screen stay while another period loads.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { DASHBOARD_ENDPOINTS } from "../../../../shared/contracts/admin-dashboard.ts";
import { call } from "../../../lib/api.ts";
import { ADMIN_KEY } from "../admin-api.ts";

/** The funnel's days as the address holds them; "" leaves that end to the server's default. */
export type DashboardPeriod = { from: string; to: string };

export function useAdminDashboard(period: DashboardPeriod, enabled: boolean) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "dashboard", period],
    queryFn: () => call(DASHBOARD_ENDPOINTS.dashboard, { query: { from: period.from || undefined, to: period.to || undefined } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
