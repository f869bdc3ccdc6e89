import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { entryPath, readDataDirArchive, readTar, writeTar } from "./data-dir-archive.ts";

/** A tar as PGlite writes them (names from the data folder's root, with a leading slash). */
const tarOf = (files: Record<string, string>) =>
  writeTar(Object.entries(files).map(([name, content]) => ({ header: { name, mode: 0o600 }, data: Buffer.from(content) })));
const dataFolder = { "/PG_VERSION": "17\n", "/global/pg_control": "control", "/operator.json": "{}" };

describe("backup archives", () => {
  it("reads a data folder's archive and leaves out the files asked", async () => {
    const tar = await readDataDirArchive(gzipSync(await tarOf(dataFolder)), ["operator.json"]);
    const entries = await readTar(tar);
    expect(entries.map(entryPath)).toEqual(["PG_VERSION", "global/pg_control"]);
    expect(entries.map((entry) => entry.data.toString())).toEqual(["17\n", "control"]);
  });

  it.each([
    ["not gzip", async () => Buffer.from("hello"), /not a gzip file/],
    ["a cut archive", async () => gzipSync((await tarOf(dataFolder)).subarray(0, 700)), /./],
    ["a damaged header", async () => gzipSync(Buffer.concat([Buffer.alloc(512, 7), Buffer.alloc(1024)])), /./],
    ["not a database", async () => gzipSync(await tarOf({ "/notes.txt": "hello" })), /no PG_VERSION or global\/pg_control/],
  ])("refuses %s", async (_what, archive, reason) => {
    await expect(readDataDirArchive(await archive(), [])).rejects.toThrow(reason);
  });
});
