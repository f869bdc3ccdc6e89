// The security headers are computed once from helmet: the list must be the headers helmet itself
// sets on a real response, in development and in production.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import helmet from "helmet";
import { describe, expect, it } from "vitest";
import { readEnv, type Env } from "../env.ts";
import { assetSecurityHeaders, contentSecurityPolicy, helmetOptions, securityHeaders } from "./security.ts";
import { randomSecret } from "../testing/secrets.ts";

/** The headers helmet sets when it runs as a middleware on a real answer, lower-cased. */
async function helmetOnARealAnswer(env: Env): Promise<Record<string, string>> {
  const middleware = helmet(helmetOptions(env));
  const server = createServer((request: IncomingMessage, response: ServerResponse) =>
    middleware(request, response, () => response.end()),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    const transport = new Set(["connection", "content-length", "date", "keep-alive"]);
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!transport.has(name)) headers[name] = value;
    });
    return headers;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("securityHeaders", () => {
  it.each([
    ["development", {}],
    ["production", { NODE_ENV: "production", AUTH_SECRET: randomSecret(), APP_URL: "https://academy.example.com" }],
  ])("are the headers helmet sets on an answer (%s)", async (_, source) => {
    const env = readEnv(source);
    const computed = securityHeaders(env);
    expect(computed).toEqual(await helmetOnARealAnswer(env));
    expect(computed["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(computed["strict-transport-security"] !== undefined).toBe(env.isProduction);
  });
});

describe("assetSecurityHeaders", () => {
  it("keeps of the page's headers those a script needs: nosniff, the resource policy and HSTS", () => {
    const headers = securityHeaders(readEnv({ NODE_ENV: "production", AUTH_SECRET: randomSecret(), APP_URL: "https://academy.example.com" }));
    expect(Object.keys(assetSecurityHeaders(headers)).sort()).toEqual([
      "cross-origin-resource-policy",
      "strict-transport-security",
      "x-content-type-options",
    ]);
  });
});

describe("contentSecurityPolicy", () => {
  it("lets in YouTube's IFrame Player API by path, its widget script, and the nocookie player frame, nothing broader", () => {
    const policy = contentSecurityPolicy(readEnv({}));
    expect(policy.scriptSrc.filter((source) => source.includes("youtube"))).toEqual([
      "https://www.youtube.com/iframe_api",
      "https://www.youtube.com/s/player/",
    ]);
    expect(policy.frameSrc.filter((source) => source.includes("youtube"))).toEqual(["https://www.youtube-nocookie.com"]);
  });

  it("lets in exactly the configured stand-in of the IFrame Player API instead of YouTube's", () => {
    const standIn = "http://localhost:3322/dev/fakes/youtube/iframe_api";
    const policy = contentSecurityPolicy(readEnv({ YOUTUBE_IFRAME_API_URL: standIn }));
    expect(policy.scriptSrc).toContain(standIn);
    expect(policy.scriptSrc.some((source) => source.includes("youtube.com"))).toBe(false);
  });

  it("lets in images from the thumbnails' host: YouTube's, or the configured stand-in's origin", () => {
    expect(contentSecurityPolicy(readEnv({})).imgSrc).toContain("https://i.ytimg.com");
    const policy = contentSecurityPolicy(readEnv({ YOUTUBE_THUMBNAIL_URL: "http://localhost:3322/dev/fakes/youtube/vi/" }));
    expect(policy.imgSrc).toContain("http://localhost:3322");
    expect(policy.imgSrc).not.toContain("https://i.ytimg.com");
  });
});
