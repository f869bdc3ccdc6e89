// Cohorts' seam: a waitlist payment joins its cohort's record (billing), and an admission by hand
// welcomes the learner as "Admit all" does (admin).
export { ensureCohort, queueCohortWelcome } from "./cohorts.service.ts";
