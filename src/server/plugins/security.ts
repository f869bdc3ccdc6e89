// Security headers, with a Content-Security-Policy derived from the configured integrations.
import type { IncomingMessage, ServerResponse } from "node:http";
import helmet, { type HelmetOptions } from "helmet";
import { YOUTUBE_IFRAME_API, type Env } from "../env.ts";

const YOUTUBE_EMBED = "https://www.youtube-nocookie.com";

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

/**
 * The scripts of the YouTube IFrame Player API, by path: YouTube's iframe_api loads its widget
 * script from under /s/player/ (the player itself runs in the youtube-nocookie frame). Any other
 * configured address (a stand-in) is allowed as exactly that script.
 */
export function youtubeApiScripts(apiUrl: string): string[] {
  return apiUrl === YOUTUBE_IFRAME_API ? [YOUTUBE_IFRAME_API, "https://www.youtube.com/s/player/"] : [apiUrl];
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
  const youtube = youtubeApiScripts(env.youtubeIframeApiUrl);
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    scriptSrc: ["'self'", ...youtube, ...chat.scripts, ...paystack],
    styleSrc: ["'self'", "'unsafe-inline'", ...chat.scripts],
    imgSrc: ["'self'", "data:", new URL(env.youtubeThumbnailUrl).origin, ...chat.scripts],
    fontSrc: ["'self'", "data:", ...chat.scripts],
    connectSrc: ["'self'", ...chat.connect, ...paystack],
    frameSrc: [YOUTUBE_EMBED, ...chat.scripts, ...paystack],
    mediaSrc: ["'self'", ...chat.scripts],
    // The service worker and the web app manifest (docs/decisions/020-offline-with-a-service-worker.md).
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    upgradeInsecureRequests: env.isProduction ? [] : null,
  };
}

/** What helmet is asked for: its defaults but the policy above, no COEP (the video frames), HSTS in production. */
export function helmetOptions(env: Env): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(env) },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: env.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  };
}

/**
 * helmet's headers for this configuration, computed once: helmet writes them to a recording
 * response, and every answer then takes the list at once. Setting them through helmet on each
 * request (a middleware and a validated setHeader per header) was a tenth of the CPU of a cached
 * read (docs/performance.md, "Profiled with perf").
 */
export function securityHeaders(env: Env): Record<string, string> {
  const setHeaders = helmet(helmetOptions(env));
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  let finished = false;
  setHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // The list is shared by every answer: it holds because no directive above depends on the
  // request (a per-request nonce would need helmet on each request again).
  if (!finished) throw new Error("helmet did not set its headers synchronously");
  return Object.fromEntries(headers);
}

/**
 * The headers a built script or stylesheet under /assets/ needs (and the service worker's script,
 * the icons, and every JSON answer, request-id.ts): the document's (the policy, frame
 * and opener rules) do nothing on a file that is not a page, and on a phone they cost some 650
 * bytes a file, twenty files a first visit (docs/performance.md, "Data"). Those files are ours,
 * built, never a learner's upload. A JSON answer is never a page either: with nosniff and its
 * JSON type no browser runs or renders it as HTML, opened on its own it shows as text, with no
 * script, frame, form or link the policy could govern, and framed it has nothing to click; the
 * resource policy still keeps other sites from embedding it, and HSTS holds for any answer.
 */
const ASSET_HEADERS = ["x-content-type-options", "cross-origin-resource-policy", "strict-transport-security"];

export function assetSecurityHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => ASSET_HEADERS.includes(name)));
}
