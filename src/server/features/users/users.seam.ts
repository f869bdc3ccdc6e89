// Users' seam: every plan change goes through setUserPlan, with its audit entry (admin); paid time
// is added and read by one rule (billing); an admission from the waitlist is one function
// (admin, cohorts).
export {
  addPaidMonth,
  admitFromWaitlist,
  paidMonthOf,
  periodOf,
  setUserPlan,
  type SubscriptionState,
  type UserRow,
} from "./users.service.ts";
