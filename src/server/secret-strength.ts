// Which secrets production refuses (docs/operations.md, "Configuration"): a secret anyone can read
// (the development one, or one written in this repository or its history) or one with too little
// variety lets anyone sign sessions, verification and email-change tokens, or read /metrics.

/** Development and tests only: production refuses it, with or without AUTH_SECRET. */
export const DEVELOPMENT_AUTH_SECRET = "development-only-secret-not-for-production-use";

/**
 * Every secret this repository has published, in its files or its history; the repository scan
 * (secret-strength.test.ts) fails when a quoted AUTH_SECRET or METRICS_TOKEN is not refused.
 */
export const PUBLISHED_SECRETS: ReadonlySet<string> = new Set([
  DEVELOPMENT_AUTH_SECRET,
  "a-production-secret-of-at-least-32-characters",
  "operator-test-secret-0123456789abcdefghij",
  "billing-prices-test-secret-32-chars-long",
  "test-metrics-token-0123456789abcdef0123456789",
]);

/** Fewer different characters than this is a pattern, not a random secret. */
export const MIN_DISTINCT_CHARACTERS = 16;

/** Why production refuses `value` as the secret `name`, in one line; null when it is accepted. */
export function weakSecretProblem(name: string, value: string): string | null {
  const howTo = "generate one with openssl rand -base64 48";
  if (PUBLISHED_SECRETS.has(value)) {
    return `${name}: this value is published in the Trading Academy repository, so anyone can use it; ${howTo}`;
  }
  const distinct = new Set(value).size;
  if (distinct < MIN_DISTINCT_CHARACTERS) {
    return `${name}: too little variety (${distinct} different character${distinct === 1 ? "" : "s"}, at least ${MIN_DISTINCT_CHARACTERS} needed); ${howTo}`;
  }
  return null;
}
