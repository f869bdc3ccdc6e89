// Production refuses weak and published secrets (docs/operations.md, "Configuration"), and every
// secret this repository writes down is one of them.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, readEnv } from "./env.ts";
import { DEVELOPMENT_AUTH_SECRET, PUBLISHED_SECRETS, weakSecretProblem } from "./secret-strength.ts";
import { randomSecret } from "./testing/secrets.ts";

const PRODUCTION = { NODE_ENV: "production", APP_URL: "https://academy.example.com" };
const FIFTEEN_DIFFERENT = "abcdefghijklmnoabcdefghijklmnoab";

function refusal(source: Record<string, string>): string[] {
  try {
    readEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.message.split("\n");
    throw error;
  }
  throw new Error("readEnv accepted the configuration");
}

const PUBLISHED = /this value is published in the Trading Academy repository/;
const REFUSED: [string, string, RegExp][] = [
  ["the development secret", DEVELOPMENT_AUTH_SECRET, PUBLISHED],
  ...[...PUBLISHED_SECRETS].map((secret): [string, string, RegExp] => [`the published ${secret}`, secret, PUBLISHED]),
  ["one character repeated", "a".repeat(40), /too little variety \(1 different character, at least 16 needed\)/],
  ["two characters alternating", "ab".repeat(20), /too little variety \(2 different characters, at least 16 needed\)/],
  ["15 different characters", FIFTEEN_DIFFERENT, /too little variety \(15 different characters, at least 16 needed\)/],
];

describe("weak secrets in production", () => {
  it.each(REFUSED)("refuses %s as AUTH_SECRET and as METRICS_TOKEN, one line each naming it, never the value", (_, secret, rule) => {
    for (const name of ["AUTH_SECRET", "METRICS_TOKEN"]) {
      const strong = { AUTH_SECRET: randomSecret(), METRICS_TOKEN: randomSecret() };
      const lines = refusal({ ...PRODUCTION, ...strong, [name]: secret });
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^Invalid configuration: ${name}: ${rule.source}`))]);
      expect(lines[0]).toContain("openssl rand -base64 48");
      expect(lines[0]).not.toContain(secret);
    }
  });

  it("accepts random secrets, and 16 different characters", () => {
    const env = readEnv({ ...PRODUCTION, AUTH_SECRET: randomSecret(), METRICS_TOKEN: `${FIFTEEN_DIFFERENT}p` });
    expect(env.isProduction).toBe(true);
    expect(weakSecretProblem("AUTH_SECRET", randomSecret())).toBeNull();
  });

  it("leaves development and tests their published values", () => {
    expect(readEnv({ METRICS_TOKEN: "test-metrics-token-0123456789abcdef0123456789" }).metricsToken).toBe(
      "test-metrics-token-0123456789abcdef0123456789",
    );
    expect(readEnv({}).authSecret).toBe(DEVELOPMENT_AUTH_SECRET);
  });
});

describe("the secrets written in this repository", () => {
  const root = join(import.meta.dirname, "../..");
  const TEXT = /\.(ts|tsx|js|mjs|json|md|ya?ml|sh|env\w*|example|toml|txt)$|(^|\/)(Dockerfile|\.env[\w.]*)$/;
  // `AUTH_SECRET: "..."`, `METRICS_TOKEN=...`, `const SECRET = "..."`: a quoted value of secret length.
  const ASSIGNED = /\b(\w*AUTH_SECRET|\w*METRICS_TOKEN|SECRET)["']?\s*[:=]\s*["'`]?([\x21-\x7e]{32,}?)["'`\s]/g;

  it("are all refused in production", () => {
    const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" }).split("\n").filter((file) => TEXT.test(file));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      [...readFileSync(join(root, file), "utf8").matchAll(ASSIGNED)]
        .map((match) => ({ file, name: match[1] ?? "", value: match[2] ?? "" }))
        .filter(({ value }) => !/[${}()]/.test(value)),
    );
    expect(found.map(({ value }) => value)).toContain(DEVELOPMENT_AUTH_SECRET);
    const accepted = found.filter(({ value }) => weakSecretProblem("AUTH_SECRET", value) === null);
    expect(accepted).toEqual([]);
  });
});
