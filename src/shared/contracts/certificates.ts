import * as z from "zod/mini";
import { ACADEMY_TIME_ZONE } from "../academy-time.ts";
import { endpoint } from "./endpoint.ts";

/** docs/product.md, "Completion and certificates". */
export const CERTIFICATE_MESSAGES = {
  notFound: "No such certificate.",
  alreadyRevoked: "This certificate is already revoked.",
  reasonRequired: "Give a reason for revoking the certificate.",
  reasonTooLong: "Keep the reason under 500 characters.",
} as const;

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A certificate number as people type it: case and the letters Crockford's base 32 reads as digits
 * (O as 0, I and L as 1) do not matter, nor spaces around it.
 */
export function normalizeCertificateId(input: string): string {
  const upper = input.trim().toUpperCase();
  const [prefix, code] = upper.startsWith("TA-") ? ["TA-", upper.slice(3)] : ["", upper];
  return prefix + code.replace(/O/g, "0").replace(/[IL]/g, "1");
}

/** "TA-" and ten characters of Crockford's base 32. */
export function isCertificateId(id: string): boolean {
  return new RegExp(`^TA-[${CROCKFORD}]{10}$`).test(id);
}

export const CERTIFICATE_ALPHABET = CROCKFORD;

/** The date a certificate was issued, on the academy's clock: "14 March 2026". */
export function formatCertificateDate(iso: string | Date): string {
  return new Date(iso).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: ACADEMY_TIME_ZONE,
  });
}

export const certificateParamsSchema = z.object({ id: z.string().check(z.maxLength(64)) });

/** GET /api/certificates/:id: what anyone holding the link may check. */
export const publicCertificateSchema = z.object({
  id: z.string(),
  /** Empty once the holder closed their account. */
  holderName: z.string(),
  programTitle: z.string(),
  issuedAt: z.string(),
  /** When it was revoked; null while it is valid. */
  revokedAt: z.nullable(z.string()),
});
export type PublicCertificate = z.infer<typeof publicCertificateSchema>;

/** A certificate as the admin console lists it, with who revoked it and why. */
export const adminCertificateSchema = z.object({
  ...publicCertificateSchema.shape,
  programId: z.string(),
  revokeReason: z.nullable(z.string()),
});
export type AdminCertificate = z.infer<typeof adminCertificateSchema>;

export const adminCertificatesSchema = z.object({ certificates: z.array(adminCertificateSchema) });

export const userCertificatesParamsSchema = z.object({ id: z.string().check(z.maxLength(64)) });

export const revokeCertificateRequestSchema = z.object({
  reason: z.string().check(
    z.trim(),
    z.minLength(1, CERTIFICATE_MESSAGES.reasonRequired),
    z.maxLength(500, CERTIFICATE_MESSAGES.reasonTooLong),
  ),
});

/** Checking a certificate, for anyone, and the console's list and revocation (docs/product.md, "Completion and certificates"). */
export const CERTIFICATE_ENDPOINTS = {
  verify: endpoint({ method: "GET", path: "/api/certificates/:id", params: certificateParamsSchema, response: publicCertificateSchema }),
  ofLearner: endpoint({ method: "GET", path: "/api/admin/users/:id/certificates", params: userCertificatesParamsSchema, response: adminCertificatesSchema }),
  revoke: endpoint({
    method: "POST",
    path: "/api/admin/certificates/:id/revoke",
    params: certificateParamsSchema,
    body: revokeCertificateRequestSchema,
    response: adminCertificateSchema,
  }),
};
