import { queryOptions, useQuery } from "@tanstack/react-query";
import { publicCertificateSchema } from "../../../shared/contracts/certificates.ts";
import { apiRequest } from "../../lib/api.ts";

export function certificateQuery(id: string) {
  return queryOptions({
    queryKey: ["certificate", id],
    queryFn: () => apiRequest(`/api/certificates/${encodeURIComponent(id)}`, publicCertificateSchema),
  });
}

/** A certificate as anyone may check it; a 404 when the number was never issued. */
export function useCertificate(id: string) {
  return useQuery(certificateQuery(id));
}
