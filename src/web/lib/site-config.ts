import { queryOptions, useQuery } from "@tanstack/react-query";
import { siteConfigSchema } from "../../shared/contracts/site.ts";
import { apiRequest } from "./api.ts";

export const siteConfigQuery = queryOptions({
  queryKey: ["site"],
  queryFn: () => apiRequest("/api/site", siteConfigSchema),
  staleTime: Infinity,
});

export function useSiteConfig() {
  return useQuery(siteConfigQuery);
}
