import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  CERTIFICATE_ENDPOINTS,
  certificateParamsSchema,
  isCertificateId,
  normalizeCertificateId,
} from "../../../shared/contracts/certificates.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import { revokeCertificate, userCertificates, verifyCertificate } from "./certificates.ts";

/**
 * Counted per certificate number, from wherever the request comes (docs/product.md, "When a
 * request counts against a limit"): a page on another site spends no one's allowance, and one
 * number is looked up at most this often. A number shared widely is opened by many people at once,
 * so this is well above what they do. What keeps numbers from being guessed is their 50 random bits.
 */
export const CERTIFICATE_LOOKUPS = { max: 300, timeWindow: 60_000 } as const;

const verifyRateLimit = {
  rateLimit: {
    ...CERTIFICATE_LOOKUPS,
    // Every malformed number is the same one: refused 404, and no counter of its own.
    keyGenerator: (request: FastifyRequest) => {
      const id = normalizeCertificateId(certificateParamsSchema.parse(request.params).id);
      return `certificate:${isCertificateId(id) ? id : "malformed"}`;
    },
  },
};

/** Verification for anyone, and the admin's list and revocation (docs/product.md, "Completion and certificates"). */
export const certificateRoutes = ({ db, sessions: { adminOnly } }: FeatureDeps): FastifyPluginAsyncZod => async (app) => {
  route(app, CERTIFICATE_ENDPOINTS.verify, { config: verifyRateLimit }, async (request, reply) => {
    const certificate = await verifyCertificate(db, request.params.id);
    // Briefly: a revocation shows within a minute.
    reply.header("cache-control", "public, max-age=60");
    return certificate;
  });

  // Under /api/admin, behind the same admin guard as the console's other routes.
  await app.register(
    adminOnly(async (admin) => {
      route(admin, CERTIFICATE_ENDPOINTS.ofLearner, {}, async (request) => ({ certificates: await userCertificates(db, request.params.id) }));

      route(admin, CERTIFICATE_ENDPOINTS.revoke, {}, async (request) =>
        revokeCertificate(db, { id: request.params.id, actorId: signedInUser(request).id, reason: request.body.reason }, new Date()),
      );
    }),
  );
};
