// A JSON request to the app on this machine from a loopback source address of the caller's choice
// (all of 127.0.0.0/8 reaches the app on Linux): setting up accounts from an address of their own
// never spends the per-address allowance of the requests under test.
import http from "node:http";

export type LoopbackAnswer = { status: number; body: unknown; setCookies: string[] };

/**
 * `body` is sent as JSON; the answer's body is parsed as JSON when it is JSON, else kept as text.
 * `path` goes on the request line exactly as given (dot segments, `//` and all): unlike `fetch`,
 * node:http does not normalise it.
 */
export function loopbackCall(
  appUrl: string,
  from: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LoopbackAnswer> {
  const base = new URL(appUrl);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: Number(base.port),
        localAddress: from,
        method,
        path,
        agent: false,
        headers: {
          host: base.host,
          origin: base.origin,
          ...headers,
          ...(data === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(data) }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, setCookies: res.headers["set-cookie"] ?? [] });
        });
      },
    );
    req.on("error", reject);
    if (data !== undefined) req.write(data);
    req.end();
  });
}
