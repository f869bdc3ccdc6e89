import { queryOptions, useQuery } from "@tanstack/react-query";
import { programListSchema } from "../../../shared/contracts/catalog.ts";
import { apiRequest } from "../../lib/api.ts";

export const programsQuery = queryOptions({
  queryKey: ["programs"],
  queryFn: async () => (await apiRequest("/api/programs", programListSchema)).programs,
});

export function usePrograms() {
  return useQuery(programsQuery);
}
