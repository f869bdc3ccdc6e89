// A backup of the embedded database is PGlite's archive of its data folder (dumpDataDir): a
// gzipped tar. Before a restore hands one to PGlite it is read here, because PGlite given a file
// that is not a tar (or a cut one) fails with an error it does not catch, which ends the process
// before anything could be cleaned up (docs/operations.md, "Backups").
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { extract, pack, type Header } from "tar-stream";

export class InvalidArchiveError extends Error {}

/** Files every PostgreSQL data folder has: an archive without them is not a database's. */
const REQUIRED_FILES = ["PG_VERSION", "global/pg_control"];

export type TarEntry = { header: Partial<Header> & Pick<Header, "name">; data: Buffer };

/** PGlite names its entries from the folder's root ("/PG_VERSION"). */
export const entryPath = (entry: TarEntry) => entry.header.name.replace(/^\/+/, "");

/** The library's streams yield bytes, typed as unknown. */
const asBuffer = (chunk: unknown) => (chunk instanceof Uint8Array ? Buffer.from(chunk) : Buffer.from(String(chunk)));

/** Every entry of a tar archive, with its content; throws InvalidArchiveError when it is cut or damaged. */
export async function readTar(tar: Uint8Array): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const reader = extract();
  reader.end(tar);
  try {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(asBuffer(chunk));
      entries.push({ header: entry.header, data: Buffer.concat(chunks) });
    }
  } catch (error) {
    throw new InvalidArchiveError(error instanceof Error ? error.message : String(error));
  }
  return entries;
}

/** A tar archive of `entries`, as they were read. */
export async function writeTar(entries: TarEntry[]): Promise<Buffer> {
  const writer = pack();
  for (const { header, data } of entries) writer.entry(header, data);
  writer.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of writer) chunks.push(asBuffer(chunk));
  return Buffer.concat(chunks);
}

/**
 * The tar inside a backup file, checked to be a whole PostgreSQL data folder, without the files
 * named in `drop` (those the app keeps in the folder for a running server: its lock, its operator
 * channel). Throws InvalidArchiveError with the reason.
 */
export async function readDataDirArchive(archive: Uint8Array, drop: readonly string[]): Promise<Buffer> {
  let tar: Buffer;
  try {
    tar = await promisify(gunzip)(archive);
  } catch {
    throw new InvalidArchiveError("not a gzip file");
  }
  const entries = await readTar(tar);
  const names = new Set(entries.map(entryPath));
  const missing = REQUIRED_FILES.filter((name) => !names.has(name));
  if (missing.length > 0) throw new InvalidArchiveError(`no ${missing.join(" or ")}: not a database's data folder`);
  return writeTar(entries.filter((entry) => !drop.includes(entryPath(entry))));
}
