import { queryOptions, useQuery } from "@tanstack/react-query";
import { CERTIFICATE_ENDPOINTS } from "../../../shared/contracts/certificates.ts";
import { call } from "../../lib/api.ts";

export function certificateQuery(id: string) {
  return queryOptions({
    queryKey: ["certificate", id],
    queryFn: () => call(CERTIFICATE_ENDPOINTS.verify, { params: { id } }),
  });
}

/** A certificate as anyone may check it; a 404 when the number was never issued. */
export function useCertificate(id: string) {
  return useQuery(certificateQuery(id));
}
