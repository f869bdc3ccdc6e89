// A stand-in for Hubtel's SMS API as docs/integrations.md ("Hubtel SMS") describes it:
// `POST /v1/messages/send`, HTTP Basic with the client id and secret, JSON `From`, `To`, `Content`;
// the answer carries `messageId`, `status` (0: accepted) and `rate`. Tests choose how it answers.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type HubtelRequest = { from: string; to: string; content: string; clientId: string; clientSecret: string };
/** accept: status 0; refuse: HTTP 400 with a non-zero status; down: HTTP 503 without a body. */
export type HubtelMode = "accept" | "refuse" | "down";

export type HubtelFake = {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The accepted messages, in order. */
  sent: HubtelRequest[];
  /** Every request, accepted or not. */
  requests: number;
  mode: HubtelMode;
  /** The env of a test app that sends through this fake. */
  env(): Record<string, string>;
  close(): Promise<void>;
};

export async function startHubtelFake(): Promise<HubtelFake> {
  const clientId = "test-client";
  const clientSecret = "test-secret-never-logged";
  const fake = { sent: [] as HubtelRequest[], requests: 0, mode: "accept" as HubtelMode };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      fake.requests++;
      const answer = (status: number, json?: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(json === undefined ? "" : JSON.stringify(json));
      };
      const [scheme, encoded = ""] = (req.headers.authorization ?? "").split(" ");
      const [id, secret] = Buffer.from(encoded, "base64").toString("utf8").split(":");
      if (req.method !== "POST" || req.url !== "/v1/messages/send") return answer(404, { message: "Not found" });
      if (scheme !== "Basic" || id !== clientId || secret !== clientSecret) return answer(401, { message: "Unauthorized" });
      if (fake.mode === "down") return answer(503);
      if (fake.mode === "refuse") return answer(400, { status: 4, statusDescription: "Invalid destination" });
      const message = JSON.parse(body) as { From: string; To: string; Content: string };
      fake.sent.push({ from: message.From, to: message.To, content: message.Content, clientId: id, clientSecret: secret });
      answer(201, { messageId: randomUUID(), status: 0, rate: 0.03, networkId: "62001", statusDescription: "Request submitted successfully" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    url,
    clientId,
    clientSecret,
    env: () => ({ HUBTEL_SMS_URL: url, HUBTEL_CLIENT_ID: clientId, HUBTEL_CLIENT_SECRET: clientSecret }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
