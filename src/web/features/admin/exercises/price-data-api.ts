// The Price Data tab's calls (docs/trading.md, "Price data"): the list, an upload, a removal; and
// the exercise editor's (docs/trading.md, "Exercises"): the sets to choose from, a stretch of bars.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { addressOf } from "../../../../shared/contracts/endpoint.ts";
import { PRICE_DATA_ENDPOINTS, type Timeframe } from "../../../../shared/contracts/price-data.ts";
import { apiRequest, call } from "../../../lib/api.ts";
import { ADMIN_KEY, refreshAdmin } from "../admin-api.ts";

const PRICE_DATA_KEY = [...ADMIN_KEY, "price-data"] as const;

export function usePriceDataSets(page: number) {
  return useQuery({ queryKey: [...PRICE_DATA_KEY, { page }], queryFn: () => call(PRICE_DATA_ENDPOINTS.list, { query: { page } }), placeholderData: keepPreviousData });
}

/**
 * The newest sets (the list's first page), for the exercise editor's choice. Asked again whenever
 * the window takes the focus, so a set uploaded in another tab shows up.
 */
export function useExerciseDataSets(enabled: boolean) {
  return useQuery({
    queryKey: [...PRICE_DATA_KEY, { page: 1 }],
    queryFn: () => call(PRICE_DATA_ENDPOINTS.list, { query: { page: 1 } }),
    enabled,
    staleTime: 0,
  });
}

/** `count` bars of a set from position `from` (at most 500); the last answer stays while the next is asked, within one set. */
export function usePriceBars(id: string, from: number, count: number, enabled: boolean) {
  return useQuery({
    queryKey: [...PRICE_DATA_KEY, id, "bars", { from, count }],
    queryFn: () => call(PRICE_DATA_ENDPOINTS.bars, { params: { id }, query: { from, count } }),
    enabled,
    placeholderData: (previous) => (previous?.dataSet.id === id ? previous : undefined),
  });
}

export type UploadDetails = { name: string; instrument: string; pipSize: string; timeframe: Timeframe };

/** The file is the body, not JSON, so it goes by apiRequest to the declared address. */
export function useUploadPriceData() {
  const queryClient = useQueryClient();
  const upload = PRICE_DATA_ENDPOINTS.upload;
  return useMutation({
    mutationFn: ({ file, details }: { file: File; details: UploadDetails }) =>
      apiRequest(addressOf(upload, undefined, details), upload.response, { method: upload.method, file }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useRemovePriceData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(PRICE_DATA_ENDPOINTS.remove, { params: { id } }),
    onSettled: () => refreshAdmin(queryClient),
  });
}
