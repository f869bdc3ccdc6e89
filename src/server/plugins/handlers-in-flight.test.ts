import Fastify from "fastify";
import http from "node:http";
import { describe, expect, it } from "vitest";
import { trackHandlersInFlight } from "./handlers-in-flight.ts";

describe("handlers in flight", () => {
  it("waits for a handler whose client went away before the app closed", async () => {
    const app = Fastify();
    const handlers = trackHandlersInFlight(app);
    const events: string[] = [];
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    app.get("/slow", async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 200));
      events.push("handler finished");
      return { ok: true };
    });
    app.get("/fast", async () => ({ ok: true }));
    app.addHook("onClose", async () => {
      await handlers.settled(5_000);
      events.push("settled");
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    expect((await fetch(`http://127.0.0.1:${port}/fast`)).status).toBe(200);
    expect(handlers.count).toBe(0);

    const request = http.get(`http://127.0.0.1:${port}/slow`);
    request.on("error", () => {});
    await handlerStarted;
    expect(handlers.count).toBe(1);
    request.destroy();
    await app.close();
    expect(events).toEqual(["handler finished", "settled"]);
    expect(handlers.count).toBe(0);
  });

  it("stops waiting at the deadline", async () => {
    const app = Fastify();
    const handlers = trackHandlersInFlight(app);
    app.get("/stuck", () => new Promise(() => {}));
    await app.ready();
    void app.inject({ method: "GET", url: "/stuck" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handlers.count).toBe(1);
    const started = Date.now();
    await handlers.settled(100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(handlers.count).toBe(1);
  });

  it("counts a handler that throws as finished", async () => {
    const app = Fastify();
    const handlers = trackHandlersInFlight(app);
    app.get("/throws", () => {
      throw new Error("boom");
    });
    app.get("/rejects", async () => {
      throw new Error("boom");
    });
    await app.ready();
    expect((await app.inject({ method: "GET", url: "/throws" })).statusCode).toBe(500);
    expect((await app.inject({ method: "GET", url: "/rejects" })).statusCode).toBe(500);
    expect(handlers.count).toBe(0);
  });
});
