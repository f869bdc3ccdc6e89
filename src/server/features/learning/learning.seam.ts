// Learning's seam: learning is the one writer of a learner's progress and the judge of what is
// complete. The admin's Edit Progress writes through it and shows quizzes by its own pass rule,
// the admin's learner page lists certificates as learning keeps them, and an edit that leaves a
// learner with every lesson done (catalog, admin) queues the certificate owed.
export { queueOwedCertificates, userCertificates } from "./certificates.ts";
export { bestScore, completionOf, quizOf, readStanding, scoredAttempts, storedAttempts } from "./completion.ts";
export { replaceProgress, watchedModuleIds } from "./progress.ts";
