// A small HTTP client for simulated users: every request leaves from the user's own loopback
// address (127.x.y.z; the app limits registration and sign-in per address), carries the user's
// cookies, and is timed. A network failure or a timeout is an answer too (status 0), so that a
// scenario can count it instead of stopping.
import http, { type IncomingHttpHeaders } from "node:http";
import { performance } from "node:perf_hooks";

export type Answer = {
  /** The HTTP status, or 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  /** Why no answer came (ECONNREFUSED, ECONNRESET, TIMEOUT ...), or null. */
  networkError: string | null;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  ms: number;
};

export type RequestOptions = {
  body?: unknown;
  headers?: Record<string, string>;
  /** Gives up after this long (status 0, networkError TIMEOUT). */
  timeoutMs?: number;
};

export type ClientOptions = {
  baseUrl: string;
  /** The source address of every request: 127.x.y.z. */
  localAddress: string;
  /** Reuse connections, as a browser does (off for scenarios that kill the server). */
  keepAlive?: boolean;
  timeoutMs?: number;
};

/** One simulated person: an address, a cookie jar and (optionally) kept-alive connections. */
export class Client {
  readonly baseUrl: string;
  readonly localAddress: string;
  readonly cookies = new Map<string, string>();
  private readonly url: URL;
  private readonly agent: http.Agent;
  private readonly timeoutMs: number;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, "");
    this.url = new URL(this.baseUrl);
    this.localAddress = options.localAddress;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.agent = new http.Agent({ keepAlive: options.keepAlive ?? false, maxSockets: 4, localAddress: options.localAddress });
  }

  /** The Cookie header value for the jar's cookies. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  get(path: string, options: RequestOptions = {}): Promise<Answer> {
    return this.request("GET", path, options);
  }

  post(path: string, body: unknown, options: RequestOptions = {}): Promise<Answer> {
    return this.request("POST", path, { ...options, body });
  }

  request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const data = options.body === undefined ? undefined : JSON.stringify(options.body);
    const cookie = this.cookieHeader();
    const headers: Record<string, string | number> = {
      host: this.url.host,
      // Better Auth accepts requests from the app's own origin only, as a browser on the site sends.
      origin: this.url.origin,
      accept: "application/json",
      ...(cookie ? { cookie } : {}),
      ...(data === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(data) }),
      ...options.headers,
    };
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const started = performance.now();
    return new Promise<Answer>((resolve) => {
      let settled = false;
      const finish = (answer: Omit<Answer, "ms">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...answer, ms: performance.now() - started });
      };
      const fail = (networkError: string) =>
        finish({ status: 0, networkError, headers: {}, text: "", json: undefined });
      const req = http.request(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: this.agent,
          localAddress: this.localAddress,
          headers,
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("error", (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
          res.on("end", () => {
            this.storeCookies(res.headers["set-cookie"] ?? []);
            let json: unknown;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = undefined;
            }
            finish({ status: res.statusCode ?? 0, networkError: null, headers: res.headers, text, json });
          });
        },
      );
      const timer = setTimeout(() => {
        fail("TIMEOUT");
        req.destroy(new Error("TIMEOUT"));
      }, timeoutMs);
      req.on("error", (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
      if (data !== undefined) req.write(data);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }

  private storeCookies(setCookies: string[]) {
    for (const header of setCookies) {
      const [pair = "", ...attributes] = header.split(";");
      const separator = pair.indexOf("=");
      if (separator <= 0) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** "POST 503 ECONNREFUSED"-style label of an answer for error tables. */
export function outcomeLabel(answer: Answer): string {
  return answer.status === 0 ? `network ${answer.networkError ?? "error"}` : String(answer.status);
}

/** True when the body is the app's one error shape: { error: { code, message } }. */
export function isErrorShape(json: unknown): boolean {
  if (typeof json !== "object" || json === null || !("error" in json)) return false;
  const { error } = json;
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof error.code === "string" &&
    "message" in error &&
    typeof error.message === "string"
  );
}
