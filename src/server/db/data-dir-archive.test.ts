import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readDataDirArchive, tarEntries } from "./data-dir-archive.ts";

/** One ustar entry, as PGlite writes them (names from the data folder's root, with a leading slash). */
function tarEntry(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write("0000600\0", 100);
  header.write(`${data.length.toString(8).padStart(11, "0")}\0`, 124);
  header.write("ustar\0", 257);
  header.write("00", 263);
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding]);
}

const tarOf = (...entries: Buffer[]) => Buffer.concat([...entries, Buffer.alloc(1024)]);
const dataFolder = [tarEntry("/PG_VERSION", "17\n"), tarEntry("/global/pg_control", "control"), tarEntry("/operator.json", "{}")];

describe("backup archives", () => {
  it("reads a data folder's archive and leaves out the files asked", async () => {
    const tar = await readDataDirArchive(gzipSync(tarOf(...dataFolder)), ["operator.json"]);
    expect(tarEntries(tar).map((entry) => entry.name)).toEqual(["PG_VERSION", "global/pg_control"]);
  });

  it.each([
    ["not gzip", Buffer.from("hello"), /not a gzip file/],
    ["a cut archive", gzipSync(tarOf(...dataFolder).subarray(0, 700)), /cut short/],
    ["a damaged header", gzipSync(Buffer.concat([Buffer.alloc(512, 7), Buffer.alloc(1024)])), /damaged at byte 0/],
    ["not a database", gzipSync(tarOf(tarEntry("/notes.txt", "hello"))), /no PG_VERSION or global\/pg_control/],
  ])("refuses %s", async (_what, archive, reason) => {
    await expect(readDataDirArchive(archive, [])).rejects.toThrow(reason);
  });
});
