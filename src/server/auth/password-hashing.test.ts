import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createPasswordHashing, withPasswordHashedAhead } from "./password-hashing.ts";

describe("password hashing, a few at a time", () => {
  it("hashes with the auth library's scrypt: the hash verifies its password and no other", async () => {
    const hashing = createPasswordHashing();
    const hash = await hashing.hash("correct horse battery");
    expect(hash).not.toContain("correct horse battery");
    expect(await hashing.verify({ hash, password: "correct horse battery" })).toBe(true);
    expect(await hashing.verify({ hash, password: "correct horse batterY" })).toBe(false);
  });

  it("never runs more hashes at once than allowed, and every caller gets its own answer", async () => {
    let running = 0;
    let mostAtOnce = 0;
    const slow = async <T>(value: T) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await sleep(5);
      running--;
      return value;
    };
    const hashing = createPasswordHashing(2, {
      hash: (password) => slow(`hashed:${password}`),
      verify: ({ hash, password }) => slow(hash === `hashed:${password}`),
    });
    const burst = await Promise.all([
      ...["a", "b", "c", "d", "e"].map((password) => hashing.hash(password)),
      hashing.verify({ hash: "hashed:a", password: "a" }),
      hashing.verify({ hash: "hashed:a", password: "b" }),
    ]);
    expect(burst).toEqual(["hashed:a", "hashed:b", "hashed:c", "hashed:d", "hashed:e", true, false]);
    expect(mostAtOnce).toBe(2);
  });

  it("hashes a sign-up's password before the call, which then takes that hash without hashing again", async () => {
    const hashed: string[] = [];
    const hashing = createPasswordHashing(1, {
      hash: async (password) => {
        hashed.push(password);
        return `hashed:${password}:${hashed.length}`;
      },
      verify: async () => false,
    });
    const inside = await withPasswordHashedAhead(hashing.hash, "new password", async () => {
      // What the sign-up does inside its transaction: hashes the same password, and no other.
      expect(hashed).toEqual(["new password"]);
      return [await hashing.hash("new password"), await hashing.hash("another")];
    });
    expect(inside).toEqual(["hashed:new password:1", "hashed:another:2"]);
    expect(await hashing.hash("new password")).toBe("hashed:new password:3");
  });
});
