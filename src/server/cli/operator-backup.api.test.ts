// GET /api/operator/backup: the whole embedded database, handed only to the CLI holding the
// running server's operator token.
import { describe, expect, it } from "vitest";
import { readDataDirArchive } from "../db/data-dir-archive.ts";
import { useOperatorChannelApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";

describe("the operator channel's backup", () => {
  const channel = useOperatorChannelApp();
  const { token } = channel;

  const backup = (authorization?: string) =>
    channel.app().inject({ method: "GET", url: "/api/operator/backup", headers: authorization ? { authorization } : {} });

  const onPglite = testDatabaseKind() === "pglite";

  it.runIf(onPglite)("refuses without the operator token", async () => {
    for (const authorization of [undefined, `Bearer ${token.slice(0, -1)}`, `Basic ${token}`]) {
      const response = await backup(authorization);
      expect(response.statusCode).toBe(401);
      expect(response.headers["content-type"]).toMatch(/application\/json/);
    }
  });

  it.runIf(onPglite)("hands the token's holder a whole archive of the data folder", async () => {
    const response = await backup(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/gzip");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(Number(response.headers["content-length"])).toBe(response.rawPayload.length);
    await expect(readDataDirArchive(response.rawPayload, [])).resolves.toBeInstanceOf(Buffer);
  });

  it.skipIf(onPglite)("is not there on PostgreSQL (pg_dump is)", async () => {
    expect((await backup(`Bearer ${token}`)).statusCode).toBe(404);
  });
});
