// Announcements after a commit (docs/performance.md, "Announcing a change"): every one is heard by
// whoever listens, those made together included (on PostgreSQL they go out in one statement). The
// same one twice may be heard once or twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import type { ChannelListener } from "./listener.ts";

describe("announcing a change", () => {
  let t: TestApp;
  let listener: ChannelListener;
  const heard: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await new Promise<void>((resolve) => {
      listener = t.database.listen("announce_test", { onNotification: (payload) => heard.push(payload), onListening: resolve }, t.app.log);
    });
  });
  afterAll(async () => {
    await listener.close();
    await t.close();
  });

  async function heardSoon(count: number): Promise<string[]> {
    const started = Date.now();
    while (heard.length < count && Date.now() - started < 5_000) await new Promise((resolve) => setTimeout(resolve, 5));
    return [...new Set(heard)].sort();
  }

  it("delivers every announcement made at the same moment", async () => {
    heard.length = 0;
    await Promise.all([
      t.database.announce("announce_test", "learning:ama"),
      t.database.announce("announce_test", "learning:kofi"),
      t.database.announce("announce_test", "learning:ama"),
    ]);
    expect(await heardSoon(2)).toEqual(["learning:ama", "learning:kofi"]);
  });

  it("delivers one made after others have gone out", async () => {
    heard.length = 0;
    await t.database.announce("announce_test", "account:esi");
    await t.database.announce("announce_test", "account:yaw");
    expect(await heardSoon(2)).toEqual(["account:esi", "account:yaw"]);
  });
});
