// The endpoint table (decision 022): every endpoint declared in src/shared/contracts, by feature.
// Features move into it one at a time; a route not yet declared here registers its own schemas.
import { ACCOUNT_SETTINGS_ENDPOINTS } from "./account-settings.ts";
import { ACCOUNTS_ENDPOINTS } from "./accounts.ts";
import { DASHBOARD_ENDPOINTS } from "./admin-dashboard.ts";
import { LEARNER_RECORD_ENDPOINTS } from "./admin-learner.ts";
import { ADMIN_PAYMENTS_ENDPOINTS, ADMIN_PROGRAMS_ENDPOINTS, ADMIN_RECORDS_ENDPOINTS, ADMIN_USERS_ENDPOINTS } from "./admin.ts";
import { ANNOUNCEMENT_ENDPOINTS } from "./announcements.ts";
import { AUTH_LIBRARY_ENDPOINTS } from "./auth-library.ts";
import { BILLING_ENDPOINTS } from "./billing.ts";
import { CATALOG_ENDPOINTS } from "./catalog.ts";
import { CERTIFICATE_ENDPOINTS } from "./certificates.ts";
import { COHORT_ENDPOINTS } from "./cohorts.ts";
import { CONTACT_ENDPOINTS } from "./contact.ts";
import { ADMIN_JOURNAL_ENDPOINTS, JOURNAL_ENDPOINTS } from "./journal.ts";
import { LEARNING_ENDPOINTS } from "./learning.ts";
import { PRICE_DATA_ENDPOINTS } from "./price-data.ts";
import { SESSION_ENDPOINTS } from "./session.ts";
import { SITE_ENDPOINTS } from "./site.ts";
import { SMS_ENDPOINTS } from "./sms.ts";
import { SUPPORT_ENDPOINTS } from "./support.ts";
import { TOOLS_ENDPOINTS } from "./tools.ts";

export const ENDPOINTS = {
  accountSettings: ACCOUNT_SETTINGS_ENDPOINTS,
  accounts: ACCOUNTS_ENDPOINTS,
  adminPayments: ADMIN_PAYMENTS_ENDPOINTS,
  adminPrograms: ADMIN_PROGRAMS_ENDPOINTS,
  adminRecords: ADMIN_RECORDS_ENDPOINTS,
  adminUsers: ADMIN_USERS_ENDPOINTS,
  announcements: ANNOUNCEMENT_ENDPOINTS,
  authLibrary: AUTH_LIBRARY_ENDPOINTS,
  billing: BILLING_ENDPOINTS,
  catalog: CATALOG_ENDPOINTS,
  certificates: CERTIFICATE_ENDPOINTS,
  cohorts: COHORT_ENDPOINTS,
  dashboard: DASHBOARD_ENDPOINTS,
  learnerRecord: LEARNER_RECORD_ENDPOINTS,
  journal: JOURNAL_ENDPOINTS,
  adminJournal: ADMIN_JOURNAL_ENDPOINTS,
  learning: LEARNING_ENDPOINTS,
  priceData: PRICE_DATA_ENDPOINTS,
  contact: CONTACT_ENDPOINTS,
  session: SESSION_ENDPOINTS,
  site: SITE_ENDPOINTS,
  sms: SMS_ENDPOINTS,
  support: SUPPORT_ENDPOINTS,
  tools: TOOLS_ENDPOINTS,
};
