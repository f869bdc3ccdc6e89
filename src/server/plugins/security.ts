// Security headers, with a Content-Security-Policy derived from the configured integrations.
import helmet from "helmet";
import type { FastifyInstance } from "fastify";
import type { Env } from "../env.ts";

const YOUTUBE_EMBED = "https://www.youtube-nocookie.com";
const YOUTUBE_IMAGES = "https://i.ytimg.com";

/** The origins a chat widget needs: Tawk.to loads from and talks to its subdomains. */
export function chatWidgetOrigins(url: string | null): { scripts: string[]; connect: string[] } {
  if (!url) return { scripts: [], connect: [] };
  const { origin, hostname } = new URL(url);
  if (hostname === "tawk.to" || hostname.endsWith(".tawk.to")) {
    return {
      scripts: ["https://*.tawk.to", "https://cdn.jsdelivr.net"],
      connect: ["https://*.tawk.to", "wss://*.tawk.to"],
    };
  }
  return { scripts: [origin], connect: [origin] };
}

/** Paystack's inline script, and the checkout it opens in a frame. */
export function paystackOrigins(env: Env): string[] {
  if (env.paystack.mode === "disabled") return [];
  const origin = new URL(env.paystack.inlineScriptUrl).origin;
  return env.paystack.mode === "live" ? [origin, "https://checkout.paystack.com", "https://*.paystack.co"] : [origin];
}

export function contentSecurityPolicy(env: Env) {
  const chat = chatWidgetOrigins(env.chatWidgetUrl);
  const paystack = paystackOrigins(env);
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    scriptSrc: ["'self'", ...chat.scripts, ...paystack],
    styleSrc: ["'self'", "'unsafe-inline'", ...chat.scripts],
    imgSrc: ["'self'", "data:", YOUTUBE_IMAGES, ...chat.scripts],
    fontSrc: ["'self'", "data:", ...chat.scripts],
    connectSrc: ["'self'", ...chat.connect, ...paystack],
    frameSrc: [YOUTUBE_EMBED, ...chat.scripts, ...paystack],
    mediaSrc: ["'self'", ...chat.scripts],
    upgradeInsecureRequests: env.isProduction ? [] : null,
  };
}

/**
 * Sets helmet's headers on every answer, 404s and errors included. The middleware is built once:
 * the Fastify wrapper built it again (parsing the policy) on every request, a tenth of the time of
 * a cached read.
 */
export function registerSecurityHeaders(app: FastifyInstance, env: Env) {
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(env) },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: env.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  app.addHook("onRequest", (request, reply, done) => setHeaders(request.raw, reply.raw, () => done()));
}
