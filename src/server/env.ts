// The only reader of process.env: every setting is parsed and checked here, once, at start-up.
import { resolve } from "node:path";
import { z } from "zod";

const optionalUrl = z.url().optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  APP_URL: optionalUrl,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().default("data"),

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

export type Env = {
  nodeEnv: "development" | "test" | "production";
  isProduction: boolean;
  port: number;
  host: string;
  appUrl: string;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  database: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string | null };
  contactWebhookUrl: string | null;
  chatWidgetUrl: string | null;
  supportEmail: string;
  supportPhone: string;
  socialLinks: { label: string; href: string }[];
};

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
  return {
    nodeEnv: env.NODE_ENV,
    isProduction: env.NODE_ENV === "production",
    port: env.PORT,
    host: env.HOST,
    appUrl: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    logLevel: env.LOG_LEVEL,
    database: env.DATABASE_URL
      ? { kind: "postgres", url: env.DATABASE_URL }
      : { kind: "pglite", dataDir: resolve(env.DATA_DIR) },
    contactWebhookUrl: env.CONTACT_WEBHOOK_URL ?? null,
    chatWidgetUrl: env.CHAT_WIDGET_URL ?? null,
    supportEmail: env.SUPPORT_EMAIL,
    supportPhone: env.SUPPORT_PHONE,
    socialLinks: env.SOCIAL_LINKS,
  };
}
