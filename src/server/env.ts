// The only reader of process.env: every setting is parsed and checked here, once, at start-up.
import { isIP } from "node:net";
import { resolve } from "node:path";
import { z } from "zod";
import { DEVELOPMENT_AUTH_SECRET, weakSecretProblem } from "./secret-strength.ts";

/** A URL with one of `protocols` and a host; the message shows what a good value looks like. */
function urlWith(protocols: readonly string[], example: string) {
  return z.string().refine(
    (value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      return protocols.includes(url.protocol) && url.hostname !== "";
    },
    { message: `expected a full URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}, such as ${example}` },
  );
}
const webUrl = (example: string) => urlWith(["https:", "http:"], example);
const optionalWebUrl = (example: string) => webUrl(example).optional();

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "localhost"]);
const isLoopbackHost = (host: string) => LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

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

/** YouTube's own address of its IFrame Player API. */
export const YOUTUBE_IFRAME_API = "https://www.youtube.com/iframe_api";
export const YOUTUBE_THUMBNAILS = "https://i.ytimg.com/vi/";

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Unset: loopback in development (the demo stays on this machine), every interface in production.
  HOST: z.string().optional(),
  APP_URL: optionalWebUrl("https://academy.example.com"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Signed-in sessions and learners' standing kept in memory, forgotten on every change
  // (docs/performance.md, "Caching signed-in reads"); off reads them from the database each time.
  SIGNED_IN_CACHE: z.enum(["on", "off"]).default("on"),
  // Guards /metrics (docs/operations.md, Observability); unset, there is no /metrics.
  METRICS_TOKEN: z
    .string()
    .min(32, "must be at least 32 characters, such as the output of openssl rand -base64 32")
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces, such as the output of openssl rand -base64 32")
    .optional(),
  TRUST_PROXY: trustProxySetting,

  DATABASE_URL: urlWith(["postgres:", "postgresql:"], "postgres://user:password@db.internal:5432/trading_academy").optional(),
  // The password on its own, as it is, whatever characters it holds (docs/operations.md, "Configuration").
  DATABASE_PASSWORD: z.string().optional(),
  DATA_DIR: z.string().default("data"),

  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SMTP_URL: urlWith(["smtp:", "smtps:"], "smtps://user:password@smtp.example.com:465").optional(),
  MAIL_FROM: z.string().default("Trading Academy <no-reply@tradingacademy.com>"),
  // The mail server's sending limit that announcements keep to (docs/admin.md, "Announcements").
  ANNOUNCEMENT_MAILS_PER_MINUTE: z.coerce
    .number({ message: "expected a whole number of emails a minute, such as 120" })
    .int("expected a whole number of emails a minute, such as 120")
    .min(1, "must be at least 1 email a minute")
    .max(10_000, "must be at most 10000 emails a minute")
    .default(120),

  // SMS through Hubtel (docs/integrations.md, "Hubtel SMS"): both keys, or neither.
  HUBTEL_SMS_URL: webUrl("https://smsc.hubtel.com").default("https://smsc.hubtel.com"),
  HUBTEL_CLIENT_ID: z.string().optional(),
  HUBTEL_CLIENT_SECRET: z.string().optional(),
  // The sender name an SMS shows: Hubtel allows at most 11 letters or digits.
  HUBTEL_SENDER_ID: z.string().regex(/^[A-Za-z0-9]{1,11}$/, "must be 1 to 11 letters or digits, such as TradingAcad").default("TradingAcad"),

  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_DISCOVERY_URL: webUrl("https://accounts.google.com/.well-known/openid-configuration").default("https://accounts.google.com/.well-known/openid-configuration"),
  MQL5_CLIENT_ID: z.string().optional(),
  MQL5_CLIENT_SECRET: z.string().optional(),
  MQL5_AUTHORIZE_URL: webUrl("https://www.mql5.com/en/oauth/login").default("https://www.mql5.com/en/oauth/login"),
  MQL5_TOKEN_URL: webUrl("https://www.mql5.com/api/oauth/access_token").default("https://www.mql5.com/api/oauth/access_token"),
  MQL5_USERINFO_URL: webUrl("https://www.mql5.com/api/oauth/user_info").default("https://www.mql5.com/api/oauth/user_info"),

  PAYSTACK_SECRET_KEY: z.string().optional(),
  PAYSTACK_API_URL: webUrl("https://api.paystack.co").default("https://api.paystack.co"),
  PAYSTACK_INLINE_JS_URL: webUrl("https://js.paystack.co/v2/inline.js").default("https://js.paystack.co/v2/inline.js"),
  EXCHANGE_RATE_URL: optionalWebUrl("https://open.er-api.com/v6/latest/USD"),

  // Lesson attachments in an S3-compatible bucket instead of the database (docs/operations.md,
  // "Attachments"): all four, or none.
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name, such as academy-attachments").optional(),
  S3_ENDPOINT: optionalWebUrl("https://s3.eu-west-1.amazonaws.com"),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),

  CONTACT_WEBHOOK_URL: optionalWebUrl("https://hooks.example.com/contact"),
  CHAT_WIDGET_URL: optionalWebUrl("https://embed.tawk.to/<property>/default"),
  // The YouTube IFrame Player API the lesson page loads; tests point it at dev/fakes' stand-in.
  YOUTUBE_IFRAME_API_URL: webUrl(YOUTUBE_IFRAME_API).default(YOUTUBE_IFRAME_API),
  // Where a video's thumbnail is, as `{base}{videoId}/{size}.jpg` (docs/integrations.md, "YouTube").
  YOUTUBE_THUMBNAIL_URL: webUrl(YOUTUBE_THUMBNAILS).default(YOUTUBE_THUMBNAILS),
  SUPPORT_EMAIL: z.email().default("support@tradingacademy.com"),
  SUPPORT_PHONE: z.string().default("+233 30 290 1234"),
  // Who issues the receipts (docs/subscriptions.md, "Receipts").
  BUSINESS_NAME: z.string().max(200).default("Trading Academy"),
  BUSINESS_ADDRESS: z.string().max(500).optional(),
  BUSINESS_TAX_NUMBER: z.string().max(100).optional(),
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
  /** Whether signed-in reads may be served from memory (SIGNED_IN_CACHE). */
  signedInCache: boolean;
  /** The bearer token /metrics asks for; null: there is no /metrics. */
  metricsToken: string | null;
  trustProxy: TrustProxy;
  database: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string | null };
  contactWebhookUrl: string | null;
  /** Where lesson attachments' bytes go: null, the database. */
  s3: S3Config | null;
  chatWidgetUrl: string | null;
  /** The script of the YouTube IFrame Player API (YOUTUBE_IFRAME_API_URL). */
  youtubeIframeApiUrl: string;
  /** Where a video's thumbnails are, ending in "/" (YOUTUBE_THUMBNAIL_URL). */
  youtubeThumbnailUrl: string;
  supportEmail: string;
  supportPhone: string;
  /** The business named on receipts; the address and tax number only when configured. */
  business: Business;
  socialLinks: { label: string; href: string }[];
  authSecret: string;
  /** `announcementsPerMinute`: at most this many announcement emails leave in any minute. */
  mail: { smtpUrl: string | null; from: string; announcementsPerMinute: number };
  /** Hubtel's SMS API; null without its keys: development's mailbox, production sends none. */
  hubtel: { url: string; clientId: string; clientSecret: string; senderId: string } | null;
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

export type Business = { name: string; address: string | null; taxNumber: string | null };

export type PaystackConfig =
  | { mode: "live" | "simulator"; secretKey: string; apiUrl: string; inlineScriptUrl: string }
  | { mode: "disabled" };

// Outside production without keys, payments go to the built-in simulator (clearly test mode).
const SIMULATOR_SECRET_KEY = "sk_test_simulator_secret_key";
const REAL_EXCHANGE_RATE_URL = "https://open.er-api.com/v6/latest/USD";


/** A configuration the server refuses: one line per bad variable, each naming it. */
export class EnvError extends Error {
  constructor(problems: string[]) {
    super(problems.map((problem) => `Invalid configuration: ${problem}`).join("\n"));
  }
}

const HOW_TO_RUN_IN_PRODUCTION =
  "run the built server in production instead (npm run build, then NODE_ENV=production node dist/node/src/server/main.js; README, Deploying)";

export type S3Config = { bucket: string; endpoint: string | null; region: string; accessKeyId: string; secretAccessKey: string };

function s3Config(env: z.infer<typeof envSchema>): S3Config | null {
  if (!env.S3_BUCKET || !env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY) return null;
  const { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: region } = env;
  return { bucket, endpoint: endpoint ?? null, region, accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY };
}

/** What production needs beyond well-formed values (docs/operations.md, Configuration). */
function deploymentProblems(env: z.infer<typeof envSchema>, host: string): string[] {
  const problems: string[] = [];
  if (env.DATABASE_PASSWORD && !env.DATABASE_URL) {
    problems.push("DATABASE_PASSWORD: goes with DATABASE_URL (the address without its password), which is not set");
  } else if (env.DATABASE_PASSWORD && env.DATABASE_URL && new URL(env.DATABASE_URL).password) {
    problems.push("DATABASE_URL: holds a password and DATABASE_PASSWORD is set too: give the password in one of them");
  }
  const s3Settings = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  if (s3Settings.some(Boolean) && !s3Settings.every(Boolean)) {
    problems.push("S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set all three to keep attachments in a bucket, or none to keep them in the database");
  }
  if (env.NODE_ENV !== "production") {
    // Development serves the mailbox and the payment simulator: never to the network.
    if (!isLoopbackHost(host)) {
      problems.push(`HOST: development mode listens on this machine only (127.0.0.1, ::1 or localhost), not "${host}": ${HOW_TO_RUN_IN_PRODUCTION}`);
    }
    return problems;
  }
  if (!env.AUTH_SECRET) problems.push("AUTH_SECRET: required in production: 32 or more random characters (e.g. openssl rand -base64 48)");
  // Never the value itself in the line: it is a credential, even when refused.
  for (const [name, value] of [["AUTH_SECRET", env.AUTH_SECRET], ["METRICS_TOKEN", env.METRICS_TOKEN]] as const) {
    const problem = value === undefined ? null : weakSecretProblem(name, value);
    if (problem) problems.push(problem);
  }
  if (!env.APP_URL) {
    problems.push("APP_URL: required in production: the public address learners open, such as https://academy.example.com");
  } else {
    const url = new URL(env.APP_URL);
    if (url.protocol !== "https:" && !isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ""))) {
      problems.push(`APP_URL: must start with https:// in production (plain http:// only for localhost), such as https://academy.example.com; got "${env.APP_URL}"`);
    }
  }
  return problems;
}

/** The connection string with the password put in encoded, so that `/`, `+`, `@` or `%` in it stay the password's. */
function withPassword(databaseUrl: string, password: string | undefined): string {
  if (!password) return databaseUrl;
  const url = new URL(databaseUrl);
  url.password = encodeURIComponent(password);
  return url.href;
}

/** Parses the environment; throws an EnvError naming every bad variable. */
export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty means unset for every variable: `PORT=` keeps 3000 (not 0), `DATA_DIR=` keeps ./data.
  const configured = Object.fromEntries(Object.entries(source).filter(([, value]) => value?.trim()));
  const parsed = envSchema.safeParse(configured);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === "production";
  const host = env.HOST ?? (isProduction ? "0.0.0.0" : "127.0.0.1");
  const problems = deploymentProblems(env, host);
  if (problems.length > 0) throw new EnvError(problems);
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  const simulator = !isProduction && !env.PAYSTACK_SECRET_KEY;
  return {
    nodeEnv: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host,
    appUrl,
    logLevel: env.LOG_LEVEL,
    signedInCache: env.SIGNED_IN_CACHE === "on",
    metricsToken: env.METRICS_TOKEN ?? null,
    // Unset, production trusts the proxies on the private network only, and elsewhere no proxy.
    trustProxy: env.TRUST_PROXY ?? (isProduction ? [...PRIVATE_NETWORK_PROXIES] : false),
    database: env.DATABASE_URL
      ? { kind: "postgres", url: withPassword(env.DATABASE_URL, env.DATABASE_PASSWORD) }
      : { kind: "pglite", dataDir: resolve(env.DATA_DIR) },
    contactWebhookUrl: env.CONTACT_WEBHOOK_URL ?? null,
    s3: s3Config(env),
    chatWidgetUrl: env.CHAT_WIDGET_URL ?? null,
    youtubeIframeApiUrl: env.YOUTUBE_IFRAME_API_URL,
    youtubeThumbnailUrl: env.YOUTUBE_THUMBNAIL_URL.endsWith("/") ? env.YOUTUBE_THUMBNAIL_URL : `${env.YOUTUBE_THUMBNAIL_URL}/`,
    supportEmail: env.SUPPORT_EMAIL,
    supportPhone: env.SUPPORT_PHONE,
    business: { name: env.BUSINESS_NAME.trim(), address: env.BUSINESS_ADDRESS?.trim() ?? null, taxNumber: env.BUSINESS_TAX_NUMBER?.trim() ?? null },
    socialLinks: env.SOCIAL_LINKS,
    authSecret: env.AUTH_SECRET ?? DEVELOPMENT_AUTH_SECRET,
    mail: { smtpUrl: env.SMTP_URL ?? null, from: env.MAIL_FROM, announcementsPerMinute: env.ANNOUNCEMENT_MAILS_PER_MINUTE },
    hubtel:
      env.HUBTEL_CLIENT_ID && env.HUBTEL_CLIENT_SECRET
        ? {
            url: env.HUBTEL_SMS_URL.replace(/\/$/, ""),
            clientId: env.HUBTEL_CLIENT_ID,
            clientSecret: env.HUBTEL_CLIENT_SECRET,
            senderId: env.HUBTEL_SENDER_ID,
          }
        : null,
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

/** How each outside service is provided; the health answer reports it (docs/operations.md). */
export type ServiceStatus = {
  email: "smtp" | "development-mailbox" | "missing";
  payments: "paystack" | "simulator" | "missing";
  chat: "configured" | "missing";
  sms: "hubtel" | "development-mailbox" | "missing";
};

export function serviceStatus(env: Env): ServiceStatus {
  return {
    email: env.mail.smtpUrl ? "smtp" : env.isProduction ? "missing" : "development-mailbox",
    payments: env.paystack.mode === "live" ? "paystack" : env.paystack.mode === "simulator" ? "simulator" : "missing",
    chat: env.chatWidgetUrl ? "configured" : "missing",
    sms: env.hubtel ? "hubtel" : env.isProduction ? "missing" : "development-mailbox",
  };
}

/** One line for each service production runs without, logged as a warning at start. */
export function missingServiceWarnings(env: Env): string[] {
  const status = serviceStatus(env);
  return [
    status.email === "missing" &&
      "SMTP_URL is not set: no email can be sent (verification, password reset, receipts, reminders)",
    status.payments === "missing" &&
      'PAYSTACK_SECRET_KEY is not set: payments are disabled ("Payment service is not available")',
    status.sms === "missing" &&
      "HUBTEL_CLIENT_ID and HUBTEL_CLIENT_SECRET are not set: no SMS can be sent (confirmation codes, reminders, receipts)",
    status.chat === "missing" && "CHAT_WIDGET_URL is not set: the chat page says chat is not available",
  ].filter((warning) => typeof warning === "string");
}
