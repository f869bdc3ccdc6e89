import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import {
  adminCertificateSchema,
  adminCertificatesSchema,
  certificateParamsSchema,
  publicCertificateSchema,
  revokeCertificateRequestSchema,
  userCertificatesParamsSchema,
} from "../../../shared/contracts/certificates.ts";
import { requireAdmin, signedInUser } from "../../auth/session.ts";
import { revokeCertificate, userCertificates, verifyCertificate } from "./certificates.ts";

// Checking numbers one after another is slow: the numbers are unguessable, and this keeps it so.
const verifyRateLimit = { rateLimit: { max: 60, timeWindow: "1 minute" } };

/** Verification for anyone, and the admin's list and revocation (docs/product.md, "Completion and certificates"). */
export const certificateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/certificates/:id",
    { schema: { params: certificateParamsSchema, response: { 200: publicCertificateSchema } }, config: verifyRateLimit },
    async (request, reply) => {
      const certificate = await verifyCertificate(app.db, request.params.id);
      // Briefly: a revocation shows within a minute.
      reply.header("cache-control", "public, max-age=60");
      return certificate;
    },
  );

  // Under /api/admin, behind the same admin guard as the console's other routes.
  await app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();
    admin.addHook("onRequest", requireAdmin);
    admin.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", "no-store");
    });

    admin.get(
      "/api/admin/users/:id/certificates",
      { schema: { params: userCertificatesParamsSchema, response: { 200: adminCertificatesSchema } } },
      async (request) => ({ certificates: await userCertificates(app.db, request.params.id) }),
    );

    admin.post(
      "/api/admin/certificates/:id/revoke",
      {
        schema: { params: certificateParamsSchema, body: revokeCertificateRequestSchema, response: { 200: adminCertificateSchema } },
      },
      async (request) =>
        revokeCertificate(
          app.db,
          { id: request.params.id, actorId: signedInUser(request).id, reason: request.body.reason },
          new Date(),
        ),
    );
  });
};
