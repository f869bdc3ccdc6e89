// Support's seam: mentorship needs Advanced, so the transaction that takes the plan away (a plan
// change by users, a refund or an expiry by billing) cancels the open requests, with their email.
export { cancelMentorshipWithoutAdvanced } from "./mentorship-plan.ts";
