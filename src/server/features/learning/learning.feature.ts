// Studying a program: lessons, quizzes, progress, and the certificates that close it
// (docs/product.md, "Track page" and "Completion and certificates").
import type { Feature } from "../../feature.ts";
import { CERTIFICATE_JOB, createCertificateJobHandler, createOwedCertificatesJobHandler, OWED_CERTIFICATES_JOB } from "./certificates.ts";
import { certificateRoutes } from "./certificates.routes.ts";
import { learningRoutes, type LearningDeps } from "./learning.routes.ts";

export function learningFeature(deps: LearningDeps): Feature {
  const { db, mailer, env } = deps;
  return {
    routes: async (app) => {
      await app.register(learningRoutes(deps));
      await app.register(certificateRoutes(deps));
    },
    jobs: {
      [CERTIFICATE_JOB]: createCertificateJobHandler({ db, mailer, appUrl: env.appUrl }),
      [OWED_CERTIFICATES_JOB]: createOwedCertificatesJobHandler({ db }),
    },
  };
}
