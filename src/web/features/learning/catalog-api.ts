import { queryOptions, useQuery } from "@tanstack/react-query";
import { CATALOG_ENDPOINTS } from "../../../shared/contracts/catalog.ts";
import { call } from "../../lib/api.ts";

export const programsQuery = queryOptions({
  queryKey: ["programs"],
  queryFn: async () => (await call(CATALOG_ENDPOINTS.programs, {})).programs,
});

export function usePrograms() {
  return useQuery(programsQuery);
}
