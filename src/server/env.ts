// The only reader of process.env: every setting is parsed and checked here, once, at start-up.
import { isIP } from "node:net";
import { resolve } from "node:path";
import { z } from "zod";

const optionalUrl = z.url().optional();

/**
 * Which hops in front of the app may say who the client is (X-Forwarded-For), as Fastify's
 * `trustProxy` takes it: no proxy, the proxies' addresses and ranges, or a number of hops.
 */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

// Behind the load balancer on the private network, which appends the address it saw.
const PRIVATE_NETWORK_PROXIES = ["loopback", "linklocal", "uniquelocal"];
const NAMED_RANGES = new Set(PRIVATE_NETWORK_PROXIES);
const MAX_PROXY_HOPS = 10;
const TRUST_PROXY_FORMAT =
  "expected proxy addresses or CIDR ranges separated by commas (e.g. 203.0.113.10, 10.0.0.0/8; also loopback, linklocal, uniquelocal), or the number of proxies in front of the app (0 for none)";
const FORGED_ADDRESS =
  "any client could write its own address into X-Forwarded-For (and get a fresh allowance of every per-address limit)";

/** One entry of TRUST_PROXY's list, or why it is refused. */
function trustProxyEntryProblem(entry: string): string | null {
  if (NAMED_RANGES.has(entry) || isIP(entry) !== 0) return null;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  const maxPrefix = family === 4 ? 32 : 128;
  if (family === 0 || prefix === undefined || rest.length > 0 || !/^\d{1,3}$/.test(prefix) || Number(prefix) > maxPrefix) {
    return `"${entry}" is not an address or a CIDR range: ${TRUST_PROXY_FORMAT}`;
  }
  if (Number(prefix) === 0) return `"${entry}" would trust every address, and ${FORGED_ADDRESS}: name the proxies' own addresses or ranges`;
  return null;
}

const trustProxySetting = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy | undefined => {
    if (value === undefined) return undefined;
    const setting = value.trim();
    if (/^true$/i.test(setting)) {
      ctx.addIssue({
        code: "custom",
        message: `"true" is not accepted: trusting every hop means ${FORGED_ADDRESS}. Name the proxies' addresses or ranges, or give the number of proxies in front of the app`,
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(setting)) {
      const hops = Number(setting);
      if (hops > MAX_PROXY_HOPS) {
        ctx.addIssue({
          code: "custom",
          message: `${setting} hops is more than any real chain of proxies: trusting hops that are not proxies means ${FORGED_ADDRESS}`,
        });
        return z.NEVER;
      }
      // Fastify trusts no hop for a bare number, because a count cannot tell the proxy from a
      // client that reaches the app directly: the function trusts this many, for deployments
      // where only the proxies can reach it.
      return hops === 0 ? false : (_address, hop) => hop < hops;
    }
    const entries = setting
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const problems =
      entries.length === 0
        ? [TRUST_PROXY_FORMAT]
        : entries.map(trustProxyEntryProblem).filter((problem) => problem !== null);
    for (const message of problems) ctx.addIssue({ code: "custom", message });
    return problems.length > 0 ? z.NEVER : entries;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  APP_URL: optionalUrl,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: trustProxySetting,

  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().default("data"),

  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default("Trading Academy <no-reply@tradingacademy.com>"),

  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_DISCOVERY_URL: z.url().default("https://accounts.google.com/.well-known/openid-configuration"),
  MQL5_CLIENT_ID: z.string().optional(),
  MQL5_CLIENT_SECRET: z.string().optional(),
  MQL5_AUTHORIZE_URL: z.url().default("https://www.mql5.com/en/oauth/login"),
  MQL5_TOKEN_URL: z.url().default("https://www.mql5.com/api/oauth/access_token"),
  MQL5_USERINFO_URL: z.url().default("https://www.mql5.com/api/oauth/user_info"),

  PAYSTACK_SECRET_KEY: z.string().optional(),
  PAYSTACK_API_URL: z.url().default("https://api.paystack.co"),
  PAYSTACK_INLINE_JS_URL: z.url().default("https://js.paystack.co/v2/inline.js"),
  EXCHANGE_RATE_URL: optionalUrl,

  CONTACT_WEBHOOK_URL: optionalUrl,
  CHAT_WIDGET_URL: optionalUrl,
  SUPPORT_EMAIL: z.email().default("support@tradingacademy.com"),
  SUPPORT_PHONE: z.string().default("+233 30 290 1234"),
  SOCIAL_LINKS: z
    .string()
    .default(
      "YouTube=https://www.youtube.com/@tradingacademy;Instagram=https://www.instagram.com/tradingacademy;" +
        "Facebook=https://www.facebook.com/tradingacademy;X=https://x.com/tradingacademy",
    )
    .transform((value, ctx) => {
      const links = value
        .split(";")
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => {
          const [label = "", href = ""] = entry.split(/=(.*)/s, 2);
          return { label: label.trim(), href: href.trim() };
        });
      for (const link of links) {
        if (!link.label || !URL.canParse(link.href)) {
          ctx.addIssue({ code: "custom", message: `expected "Label=https://..." entries, got "${link.label}"` });
        }
      }
      return links;
    }),
});

/** The name of every environment variable the app reads. */
export const APP_ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export type Env = {
  nodeEnv: "development" | "test" | "production";
  isProduction: boolean;
  port: number;
  host: string;
  appUrl: string;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  trustProxy: TrustProxy;
  database: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string | null };
  contactWebhookUrl: string | null;
  chatWidgetUrl: string | null;
  supportEmail: string;
  supportPhone: string;
  socialLinks: { label: string; href: string }[];
  authSecret: string;
  mail: { smtpUrl: string | null; from: string };
  google: { clientId: string; clientSecret: string; discoveryUrl: string } | null;
  paystack: PaystackConfig;
  exchangeRateUrl: string;
  mql5: {
    clientId: string;
    clientSecret: string;
    authorizeUrl: string;
    tokenUrl: string;
    userInfoUrl: string;
  } | null;
};

export type PaystackConfig =
  | { mode: "live" | "simulator"; secretKey: string; apiUrl: string; inlineScriptUrl: string }
  | { mode: "disabled" };

// Outside production without keys, payments go to the built-in simulator (clearly test mode).
const SIMULATOR_SECRET_KEY = "sk_test_simulator_secret_key";
const REAL_EXCHANGE_RATE_URL = "https://open.er-api.com/v6/latest/USD";

// Development and tests only: production refuses to start without AUTH_SECRET.
const DEVELOPMENT_AUTH_SECRET = "development-only-secret-not-for-production-use";

export class EnvError extends Error {}

/** Parses the environment; throws an EnvError naming every bad variable. */
export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty means unset for every variable: `PORT=` keeps 3000 (not 0), `DATA_DIR=` keeps ./data.
  const configured = Object.fromEntries(Object.entries(source).filter(([, value]) => value?.trim()));
  const parsed = envSchema.safeParse(configured);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new EnvError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === "production";
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  const simulator = !isProduction && !env.PAYSTACK_SECRET_KEY;
  if (isProduction && !env.AUTH_SECRET) {
    throw new EnvError("Invalid configuration:\n  AUTH_SECRET: required in production (32+ random characters)");
  }
  return {
    nodeEnv: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    appUrl,
    logLevel: env.LOG_LEVEL,
    // Unset, production trusts the proxies on the private network only, and elsewhere no proxy.
    trustProxy: env.TRUST_PROXY ?? (isProduction ? [...PRIVATE_NETWORK_PROXIES] : false),
    database: env.DATABASE_URL
      ? { kind: "postgres", url: env.DATABASE_URL }
      : { kind: "pglite", dataDir: resolve(env.DATA_DIR) },
    contactWebhookUrl: env.CONTACT_WEBHOOK_URL ?? null,
    chatWidgetUrl: env.CHAT_WIDGET_URL ?? null,
    supportEmail: env.SUPPORT_EMAIL,
    supportPhone: env.SUPPORT_PHONE,
    socialLinks: env.SOCIAL_LINKS,
    authSecret: env.AUTH_SECRET ?? DEVELOPMENT_AUTH_SECRET,
    mail: { smtpUrl: env.SMTP_URL ?? null, from: env.MAIL_FROM },
    paystack: env.PAYSTACK_SECRET_KEY
      ? {
          mode: "live",
          secretKey: env.PAYSTACK_SECRET_KEY,
          apiUrl: env.PAYSTACK_API_URL.replace(/\/$/, ""),
          inlineScriptUrl: env.PAYSTACK_INLINE_JS_URL,
        }
      : simulator
        ? {
            mode: "simulator",
            secretKey: SIMULATOR_SECRET_KEY,
            apiUrl: `${appUrl}/dev/fakes/paystack`,
            inlineScriptUrl: `${appUrl}/dev/fakes/paystack/inline.js`,
          }
        : { mode: "disabled" },
    // With the payment simulator, the rate comes from the built-in stand-in too (offline demo).
    exchangeRateUrl:
      env.EXCHANGE_RATE_URL ?? (simulator ? `${appUrl}/dev/fakes/exchange-rate/v6/latest/USD` : REAL_EXCHANGE_RATE_URL),
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            discoveryUrl: env.GOOGLE_DISCOVERY_URL,
          }
        : null,
    mql5:
      env.MQL5_CLIENT_ID && env.MQL5_CLIENT_SECRET
        ? {
            clientId: env.MQL5_CLIENT_ID,
            clientSecret: env.MQL5_CLIENT_SECRET,
            authorizeUrl: env.MQL5_AUTHORIZE_URL,
            tokenUrl: env.MQL5_TOKEN_URL,
            userInfoUrl: env.MQL5_USERINFO_URL,
          }
        : null,
  };
}
