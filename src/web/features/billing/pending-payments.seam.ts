// Billing's pending payments seam: opening Program or Account (learning, accounts) asks the server
// to verify the learner's pending payments with Paystack, as Subscription does
// (docs/subscriptions.md, "Asking Paystack").
export { useVerifyPendingPayments, VerifyPendingPayments } from "./pending-payments.ts";
