import { queryOptions, useQuery } from "@tanstack/react-query";
import { SITE_ENDPOINTS } from "../../shared/contracts/site.ts";
import { call } from "./api.ts";

export const siteConfigQuery = queryOptions({
  queryKey: ["site"],
  queryFn: () => call(SITE_ENDPOINTS.site, {}),
  staleTime: Infinity,
});

export function useSiteConfig() {
  return useQuery(siteConfigQuery);
}
