import { describe, expect, it } from "vitest";
import { parseUserChange, PerUserCache, type UserChange, type UserChanges } from "./user-changes.ts";

function feed(live = true) {
  const listeners: ((change: UserChange) => void)[] = [];
  const changes: UserChanges & { live: boolean } = {
    live,
    subscribe: (listener) => void listeners.push(listener),
    changed: (change) => listeners.forEach((listener) => listener(change)),
    announce: async (change) => listeners.forEach((listener) => listener(change)),
    start() {},
    async close() {},
  };
  return changes;
}

const options = { scope: "account" as const, maxEntries: 3, maxAgeMs: 60_000 };

describe("PerUserCache", () => {
  it("keeps a value until its user changes in its scope", () => {
    const changes = feed();
    const cache = new PerUserCache<string>(changes, options);
    cache.set("token-a", "ama", "session a", cache.stamp());
    cache.set("token-b", "kofi", "session b", cache.stamp());
    changes.changed({ scope: "learning", userId: "ama" });
    expect(cache.get("token-a")).toBe("session a");
    changes.changed({ scope: "account", userId: "ama" });
    expect(cache.get("token-a")).toBeUndefined();
    expect(cache.get("token-b")).toBe("session b");
  });

  it("does not keep a value read while its user changed", () => {
    const changes = feed();
    const cache = new PerUserCache<string>(changes, options);
    const stamp = cache.stamp();
    changes.changed({ scope: "account", userId: "ama" });
    cache.set("token-a", "ama", "stale", stamp);
    expect(cache.get("token-a")).toBeUndefined();
    cache.set("token-b", "kofi", "fresh", stamp);
    expect(cache.get("token-b")).toBe("fresh");
  });

  it("forgets everything when the feed restarts, and serves nothing while it is down", () => {
    const changes = feed();
    const cache = new PerUserCache<string>(changes, options);
    const stamp = cache.stamp();
    cache.set("token-a", "ama", "a", stamp);
    changes.changed(null);
    expect(cache.get("token-a")).toBeUndefined();
    cache.set("token-a", "ama", "a", stamp);
    expect(cache.get("token-a")).toBeUndefined();
    changes.live = false;
    cache.set("token-a", "ama", "a", cache.stamp());
    expect(cache.get("token-a")).toBeUndefined();
  });

  it("holds at most maxEntries, dropping the oldest, and reads an old entry again", () => {
    const cache = new PerUserCache<number>(feed(), options);
    for (const n of [1, 2, 3, 4]) cache.set(`k${n}`, `u${n}`, n, cache.stamp(), 1_000);
    expect(cache.size).toBe(3);
    expect(cache.get("k1", 1_000)).toBeUndefined();
    expect(cache.get("k4", 1_000)).toBe(4);
    expect(cache.get("k4", 1_000 + 60_001)).toBeUndefined();
  });
});

describe("parseUserChange", () => {
  it("reads the triggers' scope:id notices and nothing else", () => {
    expect(parseUserChange("account:abc")).toEqual({ scope: "account", userId: "abc" });
    expect(parseUserChange("learning:a:b")).toEqual({ scope: "learning", userId: "a:b" });
    expect(parseUserChange("learning:")).toBeNull();
    expect(parseUserChange("other:abc")).toBeNull();
  });
});
