import * as z from "zod/mini";
import { afterEach, describe, expect, it, vi } from "vitest";
import { endpoint } from "../../shared/contracts/endpoint.ts";
import { call } from "./api.ts";

const save = endpoint({
  method: "PUT",
  path: "/api/notes/:id",
  params: z.object({ id: z.string() }),
  body: z.object({ text: z.string() }),
  response: z.object({ saved: z.boolean() }),
});

/** Answers every request with `{ saved: true }` and keeps what was asked. */
function recordRequests() {
  const requests: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    requests.push({ url, init });
    return new Response(JSON.stringify({ saved: true }), { headers: { "content-type": "application/json" } });
  });
  return requests;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("call", () => {
  it("sends the declared method to the address of the call, with its body, and parses the answer", async () => {
    const requests = recordRequests();
    await expect(call(save, { params: { id: "a/1" }, body: { text: "hi" } })).resolves.toEqual({ saved: true });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe("/api/notes/a%2F1");
    expect(requests[0]?.init).toMatchObject({ method: "PUT", body: JSON.stringify({ text: "hi" }), keepalive: undefined });
  });

  it("keeps a request alive past the page when asked (a save as the learner leaves it)", async () => {
    const requests = recordRequests();
    await call(save, { params: { id: "1" }, body: { text: "bye" } }, { keepalive: true });
    expect(requests[0]?.init.keepalive).toBe(true);
  });
});
