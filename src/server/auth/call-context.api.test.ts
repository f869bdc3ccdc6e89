// Context across awaits only while a call needs it (docs/performance.md, "Context only while a
// call needs it"): after the auth library's calls and our own stores' runs end, Node's hook for
// every new promise is off again, and overlapping calls keep their values until each ends.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignedInUser, forgotPassword, ipAllocator, me, PASSWORD, signIn } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { CallContext } from "./call-context.ts";

const nextIp = ipAllocator(72);

/**
 * Whether Node's hook ran for a promise made now: while any AsyncLocalStorage is enabled, the hook
 * stores the current context on every new promise, under a symbol of each storage.
 */
function hookRanForNewPromise(): boolean {
  return Object.getOwnPropertySymbols(Promise.resolve()).length > 0;
}

describe("context only while a call needs it", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("turns Node's hook off once the auth library's calls end: registration, verification, sign-in, a reset mail", async () => {
    const context = new CallContext<string>();
    const seenInside = await context.run("inside", async () => {
      await sleep(1);
      return { value: context.get(), hooked: hookRanForNewPromise() };
    });
    expect(seenInside).toEqual({ value: "inside", hooked: true });
    expect(hookRanForNewPromise()).toBe(false);

    const learner = await createSignedInUser(t, { email: "context-off@example.com", nextIp });
    expect(hookRanForNewPromise()).toBe(false);
    expect((await forgotPassword(t, { email: "context-off@example.com" }, nextIp())).statusCode).toBe(200);
    expect(hookRanForNewPromise()).toBe(false);
    const again = await signIn(t, "context-off@example.com", PASSWORD, nextIp());
    expect(again.statusCode).toBe(200);
    expect(hookRanForNewPromise()).toBe(false);
    expect(await me(t, learner.cookie)).toMatchObject({ email: "context-off@example.com" });

    const track = await t.app.inject({ method: "GET", url: "/api/programs/beginner", headers: { cookie: learner.cookie } });
    expect(track.statusCode).toBe(200);
    expect(hookRanForNewPromise()).toBe(false);
  });

  it("keeps each overlapping call's value until that call ends, whichever ends first", async () => {
    const context = new CallContext<string>();
    let releaseFirst = () => {};
    const firstMayEnd = new Promise<void>((resolve) => (releaseFirst = resolve));
    const first = context.run("first", async () => {
      await firstMayEnd;
      return context.get();
    });
    const second = context.run("second", async () => {
      await sleep(1);
      releaseFirst();
      await first;
      // The first call has ended: this one's value is still there, after more awaits.
      await sleep(1);
      return context.get();
    });
    expect(await Promise.all([first, second])).toEqual(["first", "second"]);
    expect(context.get()).toBeUndefined();
    expect(hookRanForNewPromise()).toBe(false);
  });
});
