import { resolve } from "node:path";
import { parse as parseConnectionString } from "pg-connection-string";
import { describe, expect, it } from "vitest";
import { EnvError, missingServiceWarnings, readEnv, serviceStatus, type Env } from "./env.ts";
import { randomSecret } from "./testing/secrets.ts";

/** Asserts PGlite in `folder` (relative to the working directory, or absolute). */
function expectPglite(database: Env["database"], folder: string) {
  expect(database.kind).toBe("pglite");
  const dataDir = database.kind === "pglite" ? database.dataDir : null;
  expect(dataDir).not.toBeNull();
  expect(resolve(dataDir ?? "")).toBe(resolve(folder));
}

function readEnvError(source: Record<string, string>): EnvError {
  try {
    readEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error(`readEnv accepted ${JSON.stringify(source)}`);
}

const PRODUCTION = { NODE_ENV: "production", AUTH_SECRET: randomSecret(), APP_URL: "https://academy.example.com" };

describe("readEnv", () => {
  it("defaults to port 3000, PGlite in ./data and http://localhost:3000", () => {
    const env = readEnv({});
    expect(env.port).toBe(3000);
    expect(env.host).toBe("127.0.0.1");
    expectPglite(env.database, "data");
    expect(env.appUrl).toBe("http://localhost:3000");
    expect(env.nodeEnv).toBe("development");
    expect(env.isProduction).toBe(false);
    expect(env.logLevel).toBe("info");
    expect(env.contactWebhookUrl).toBeNull();
    expect(env.chatWidgetUrl).toBeNull();
  });

  it("derives the default public URL from PORT", () => {
    expect(readEnv({ PORT: "8080" }).appUrl).toBe("http://localhost:8080");
  });

  it("uses APP_URL without its trailing slash", () => {
    expect(readEnv({ APP_URL: "https://academy.example.com/" }).appUrl).toBe(
      "https://academy.example.com",
    );
  });

  it("switches to PostgreSQL when DATABASE_URL is set", () => {
    const url = "postgres://app:secret@db.internal:5432/academy";
    expect(readEnv({ DATABASE_URL: url }).database).toEqual({ kind: "postgres", url });
  });

  it("takes the database password on its own, whatever characters it holds, and the driver reads it back as it was", () => {
    for (const password of ["k7/Qm+Zp=", "a@b:c%41d", "plain"]) {
      const env = readEnv({ DATABASE_URL: "postgres://academy@postgres:5432/academy", DATABASE_PASSWORD: password });
      const url = env.database.kind === "postgres" ? env.database.url : "";
      expect(parseConnectionString(url)).toMatchObject({ user: "academy", password, host: "postgres", port: "5432", database: "academy" });
    }
  });

  it("refuses a database password without its address, or given in two places", () => {
    expect(() => readEnv({ DATABASE_PASSWORD: "secret" })).toThrow(/DATABASE_PASSWORD: goes with DATABASE_URL/);
    expect(() => readEnv({ DATABASE_URL: "postgres://app:one@db:5432/academy", DATABASE_PASSWORD: "two" })).toThrow(
      /DATABASE_URL: holds a password and DATABASE_PASSWORD is set too/,
    );
  });

  it("keeps PGlite in DATA_DIR when no DATABASE_URL is set", () => {
    expectPglite(readEnv({ DATA_DIR: "/var/lib/academy" }).database, "/var/lib/academy");
  });

  it("reads the optional integrations", () => {
    const env = readEnv({
      CONTACT_WEBHOOK_URL: "https://hooks.example.com/contact",
      CHAT_WIDGET_URL: "https://embed.tawk.to/abc/default",
    });
    expect(env.contactWebhookUrl).toBe("https://hooks.example.com/contact");
    expect(env.chatWidgetUrl).toBe("https://embed.tawk.to/abc/default");
  });

  it("keeps attachments in the database unless all three bucket settings are given", () => {
    expect(readEnv({}).s3).toBeNull();
    const bucket = { S3_BUCKET: "academy-files", S3_ACCESS_KEY_ID: "key", S3_SECRET_ACCESS_KEY: "secret" };
    expect(readEnv(bucket).s3).toEqual({ bucket: "academy-files", endpoint: null, region: "us-east-1", accessKeyId: "key", secretAccessKey: "secret" });
    expect(readEnv({ ...bucket, S3_ENDPOINT: "http://127.0.0.1:9000", S3_REGION: "af-south-1" }).s3).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
      region: "af-south-1",
    });
    expect(() => readEnv({ S3_BUCKET: "academy-files" })).toThrow(/set all three/);
    expect(() => readEnv({ ...bucket, S3_BUCKET: "Not A Bucket" })).toThrow(/S3_BUCKET: must be a bucket name/);
  });

  it("loads YouTube's IFrame Player API unless YOUTUBE_IFRAME_API_URL names a stand-in", () => {
    expect(readEnv({}).youtubeIframeApiUrl).toBe("https://www.youtube.com/iframe_api");
    const standIn = "http://localhost:3210/dev/fakes/youtube/iframe_api";
    expect(readEnv({ YOUTUBE_IFRAME_API_URL: standIn }).youtubeIframeApiUrl).toBe(standIn);
  });

  it("takes video thumbnails from YouTube's image host unless YOUTUBE_THUMBNAIL_URL names a stand-in", () => {
    expect(readEnv({}).youtubeThumbnailUrl).toBe("https://i.ytimg.com/vi/");
    expect(readEnv({ YOUTUBE_THUMBNAIL_URL: "http://localhost:3210/dev/fakes/youtube/vi" }).youtubeThumbnailUrl).toBe("http://localhost:3210/dev/fakes/youtube/vi/");
    expect(() => readEnv({ YOUTUBE_THUMBNAIL_URL: "ftp://images.example" })).toThrow(/YOUTUBE_THUMBNAIL_URL/);
  });

  it("refuses production without an AUTH_SECRET", () => {
    expect(() => readEnv({ NODE_ENV: "production" })).toThrow(/AUTH_SECRET/);
    expect(() => readEnv({ NODE_ENV: "production", AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET/);
  });

  it("marks production", () => {
    const env = readEnv(PRODUCTION);
    expect(env.nodeEnv).toBe("production");
    expect(env.isProduction).toBe(true);
  });

  it("treats empty strings as unset", () => {
    const env = readEnv({
      PORT: "",
      HOST: "",
      APP_URL: "",
      LOG_LEVEL: "",
      NODE_ENV: "",
      DATABASE_URL: "",
      DATA_DIR: "",
      CONTACT_WEBHOOK_URL: "",
      CHAT_WIDGET_URL: " ",
      SUPPORT_EMAIL: "",
      SUPPORT_PHONE: "",
    });
    expect(env).toEqual(readEnv({}));
    expect(env.port).toBe(3000);
    expectPglite(env.database, "data");
    expect(env.appUrl).toBe("http://localhost:3000");
    expect(env.contactWebhookUrl).toBeNull();
    expect(env.chatWidgetUrl).toBeNull();
  });

  it.each([["abc"], ["70000"], ["-1"], ["80.5"]])("rejects PORT=%s, naming PORT", (port) => {
    const error = readEnvError({ PORT: port });
    expect(error.message).toMatch(/^Invalid configuration: PORT: /m);
  });

  it.each([["APP_URL"], ["DATABASE_URL"], ["CONTACT_WEBHOOK_URL"], ["CHAT_WIDGET_URL"], ["YOUTUBE_IFRAME_API_URL"]])(
    "rejects a %s that is not a URL, naming it",
    (name) => {
      const error = readEnvError({ [name]: "not a url" });
      expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${name}: `, "m"));
    },
  );

  it("names every bad variable at once", () => {
    const error = readEnvError({ PORT: "abc", APP_URL: "nope", LOG_LEVEL: "loud" });
    expect(error.message).toMatch(/^Invalid configuration: PORT: /m);
    expect(error.message).toMatch(/^Invalid configuration: APP_URL: /m);
    expect(error.message).toMatch(/^Invalid configuration: LOG_LEVEL: /m);
  });

  describe("TRUST_PROXY", () => {
    const production = PRODUCTION;

    it("unset, trusts the private network's proxies in production and no proxy elsewhere", () => {
      expect(readEnv(production).trustProxy).toEqual(["loopback", "linklocal", "uniquelocal"]);
      expect(readEnv({}).trustProxy).toBe(false);
      expect(readEnv({ NODE_ENV: "test", TRUST_PROXY: "" }).trustProxy).toBe(false);
    });

    it("reads a comma-separated list of addresses, CIDR ranges and named ranges, in place of the default", () => {
      const env = readEnv({ ...production, TRUST_PROXY: " 203.0.113.10,198.51.100.0/24 , 2001:db8::/32,::1, loopback," });
      expect(env.trustProxy).toEqual(["203.0.113.10", "198.51.100.0/24", "2001:db8::/32", "::1", "loopback"]);
      expect(readEnv({ TRUST_PROXY: "203.0.113.10" }).trustProxy).toEqual(["203.0.113.10"]);
    });

    it("reads a number of hops: that many hops are trusted, and 0 trusts none", () => {
      const { trustProxy } = readEnv({ TRUST_PROXY: "2" });
      if (typeof trustProxy !== "function") throw new Error(`expected a hop test, got ${JSON.stringify(trustProxy)}`);
      expect([0, 1, 2, 3].map((hop) => trustProxy("203.0.113.10", hop))).toEqual([true, true, false, false]);
      expect(readEnv({ ...production, TRUST_PROXY: "0" }).trustProxy).toBe(false);
    });

    it.each([["true"], ["TRUE"], [" True "]])("refuses %j, explaining that a client could forge its address", (value) => {
      const error = readEnvError({ TRUST_PROXY: value });
      expect(error.message).toMatch(/^Invalid configuration: TRUST_PROXY: "true" is not accepted: trusting every hop means any client could write its own address into X-Forwarded-For/m);
    });

    it.each([["0.0.0.0/0"], ["10.0.0.1, ::/0"]])("refuses a range of every address (%s) for the same reason", (value) => {
      const error = readEnvError({ TRUST_PROXY: value });
      expect(error.message).toMatch(/^Invalid configuration: TRUST_PROXY: "(0\.0\.0\.0|::)\/0" would trust every address, and any client could write its own address/m);
    });

    it("refuses more hops than a real chain of proxies", () => {
      expect(readEnvError({ TRUST_PROXY: "11" }).message).toMatch(/^Invalid configuration: TRUST_PROXY: 11 hops is more than any real chain of proxies/m);
    });

    it.each([["false"], ["yes"], ["*"], ["proxy.internal"], ["1.5"], ["-1"], ["10.0.0.0/33"], ["::1/129"], ["10.0.0.0/8/8"], ["10.0.0.0/"], ["256.1.1.1"], [","]])(
      "refuses %j, naming TRUST_PROXY and what it expects",
      (value) => {
        const error = readEnvError({ TRUST_PROXY: value });
        expect(error.message).toMatch(/^Invalid configuration: TRUST_PROXY: /m);
        expect(error.message).toContain("expected proxy addresses or CIDR ranges separated by commas");
      },
    );

    it("names each bad entry of a list", () => {
      const error = readEnvError({ TRUST_PROXY: "10.0.0.1, nope, 203.0.113.0/24, also-nope" });
      expect(error.message).toContain('TRUST_PROXY: "nope" is not an address or a CIDR range');
      expect(error.message).toContain('TRUST_PROXY: "also-nope" is not an address or a CIDR range');
    });
  });

  describe("production and the demo (docs/operations.md)", () => {
    it("listens on loopback by default in development and on every interface by default in production", () => {
      expect(readEnv({}).host).toBe("127.0.0.1");
      expect(readEnv({ NODE_ENV: "test" }).host).toBe("127.0.0.1");
      expect(readEnv(PRODUCTION).host).toBe("0.0.0.0");
      expect(readEnv({ ...PRODUCTION, HOST: "10.0.0.5" }).host).toBe("10.0.0.5");
    });

    it.each([["127.0.0.1"], ["127.0.0.2"], ["::1"], ["localhost"]])("lets development listen on %s", (host) => {
      expect(readEnv({ HOST: host }).host).toBe(host);
    });

    it.each([["0.0.0.0"], ["::"], ["192.168.1.20"], ["academy.example.com"]])(
      "refuses development on %s, in one line that says how to run in production",
      (host) => {
        const error = readEnvError({ HOST: host });
        expect(error.message.split("\n")).toHaveLength(1);
        expect(error.message).toMatch(/^Invalid configuration: HOST: development mode listens on this machine only/);
        expect(error.message).toContain("NODE_ENV=production node dist/node/src/server/main.js");
      },
    );

    it("requires AUTH_SECRET and APP_URL in production, one line each", () => {
      const error = readEnvError({ NODE_ENV: "production" });
      expect(error.message.split("\n")).toEqual([
        expect.stringMatching(/^Invalid configuration: AUTH_SECRET: required in production: 32 or more random characters/),
        expect.stringMatching(/^Invalid configuration: APP_URL: required in production: the public address .* https:\/\//),
      ]);
    });

    it.each([["http://academy.example.com"], ["http://203.0.113.7:3000"]])("refuses a plain http APP_URL (%s) in production", (url) => {
      const error = readEnvError({ ...PRODUCTION, APP_URL: url });
      expect(error.message).toBe(
        `Invalid configuration: APP_URL: must start with https:// in production (plain http:// only for localhost), such as https://academy.example.com; got "${url}"`,
      );
    });

    it.each([["http://localhost:3000"], ["http://127.0.0.1:8080"], ["http://[::1]:3000"]])("accepts http for localhost (%s) in production", (url) => {
      expect(readEnv({ ...PRODUCTION, APP_URL: url }).appUrl).toBe(url);
    });

    it.each([["localhost:3000"], ["academy.example.com"], ["ftp://academy.example.com"], ["https://"]])(
      "refuses an APP_URL without an http(s) scheme and host (%s), saying what it should look like",
      (url) => {
        expect(readEnvError({ APP_URL: url }).message).toBe(
          "Invalid configuration: APP_URL: expected a full URL starting with https:// or http://, such as https://academy.example.com",
        );
      },
    );

    it.each([
      ["DATABASE_URL", "mysql://db/academy", "postgres://"],
      ["SMTP_URL", "https://smtp.example.com", "smtps://"],
      ["CONTACT_WEBHOOK_URL", "hooks.example.com/contact", "https://"],
      ["PAYSTACK_API_URL", "api.paystack.co", "https://"],
    ])("refuses %s=%s, naming the scheme it expects", (name, value, scheme) => {
      const error = readEnvError({ [name]: value });
      expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${name}: expected a full URL starting with .*${scheme}`));
    });
  });

  describe("missing services", () => {
    it("production without SMTP, Paystack, Hubtel and the chat widget: one warning each", () => {
      const warnings = missingServiceWarnings(readEnv(PRODUCTION));
      expect(warnings).toEqual([
        expect.stringMatching(/^SMTP_URL is not set: no email can be sent/),
        expect.stringMatching(/^PAYSTACK_SECRET_KEY is not set: payments are disabled/),
        expect.stringMatching(/^HUBTEL_CLIENT_ID and HUBTEL_CLIENT_SECRET are not set: no SMS can be sent/),
        expect.stringMatching(/^CHAT_WIDGET_URL is not set/),
      ]);
      expect(serviceStatus(readEnv(PRODUCTION))).toEqual({ email: "missing", payments: "missing", chat: "missing", sms: "missing" });
    });

    it("production with all four: no warning", () => {
      const env = readEnv({
        ...PRODUCTION,
        SMTP_URL: "smtps://u:p@smtp.example.com:465",
        PAYSTACK_SECRET_KEY: "sk_live_x",
        HUBTEL_CLIENT_ID: "client",
        HUBTEL_CLIENT_SECRET: "secret",
        CHAT_WIDGET_URL: "https://embed.tawk.to/abc/default",
      });
      expect(missingServiceWarnings(env)).toEqual([]);
      expect(serviceStatus(env)).toEqual({ email: "smtp", payments: "paystack", chat: "configured", sms: "hubtel" });
    });

    it("Hubtel: both keys or none, the default address and a sender name of 11 letters or digits at most", () => {
      expect(readEnv({ HUBTEL_CLIENT_ID: "client", HUBTEL_CLIENT_SECRET: "secret" }).hubtel).toEqual({
        url: "https://smsc.hubtel.com",
        clientId: "client",
        clientSecret: "secret",
        senderId: "TradingAcad",
      });
      expect(readEnv({ HUBTEL_CLIENT_ID: "client" }).hubtel).toBeNull();
      expect(() => readEnv({ HUBTEL_SENDER_ID: "Trading Academy" })).toThrow(/HUBTEL_SENDER_ID/);
    });

    it("the demo's stand-ins are no warning, the missing chat widget is", () => {
      const env = readEnv({});
      expect(serviceStatus(env)).toEqual({ email: "development-mailbox", payments: "simulator", chat: "missing", sms: "development-mailbox" });
      expect(missingServiceWarnings(env)).toEqual([expect.stringMatching(/^CHAT_WIDGET_URL is not set/)]);
    });
  });

  it("does not read process.env when given a source", () => {
    const previous = process.env.PORT;
    process.env.PORT = "4321";
    try {
      expect(readEnv({}).port).toBe(3000);
    } finally {
      if (previous === undefined) delete process.env.PORT;
      else process.env.PORT = previous;
    }
  });
});
