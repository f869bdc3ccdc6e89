// A backup of the embedded database is PGlite's archive of its data folder (dumpDataDir): a
// gzipped tar. Before a restore hands one to PGlite it is read here, because PGlite given a file
// that is not a tar (or a cut one) fails with an error it does not catch, which ends the process
// before anything could be cleaned up (docs/operations.md, "Backups").
import { promisify } from "node:util";
import { gunzip } from "node:zlib";

export class InvalidArchiveError extends Error {}

const BLOCK = 512;
/** Files every PostgreSQL data folder has: an archive without them is not a database's. */
const REQUIRED_FILES = ["PG_VERSION", "global/pg_control"];

type TarEntry = { name: string; start: number; end: number };

function text(block: Buffer, from: number, length: number): string {
  const field = block.subarray(from, from + length);
  const nul = field.indexOf(0);
  return field.subarray(0, nul < 0 ? length : nul).toString("utf8");
}

function octal(block: Buffer, from: number, length: number): number {
  const digits = text(block, from, length).trim();
  return /^[0-7]+$/.test(digits) ? Number.parseInt(digits, 8) : Number.NaN;
}

/** The header's checksum: its bytes summed with the checksum field counted as spaces. */
function checksumOf(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
  return sum;
}

/** The entries of a ustar archive, each with the byte range of its header and data; throws when cut or damaged. */
export function tarEntries(tar: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return entries;
    const size = octal(header, 124, 12);
    if (octal(header, 148, 8) !== checksumOf(header) || !Number.isSafeInteger(size)) {
      throw new InvalidArchiveError(`damaged at byte ${offset}`);
    }
    const end = offset + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (end > tar.length) throw new InvalidArchiveError("cut short");
    const prefix = text(header, 345, 155);
    const name = `${prefix ? `${prefix}/` : ""}${text(header, 0, 100)}`.replace(/^\/+/, "");
    entries.push({ name, start: offset, end });
    offset = end;
  }
  if (offset !== tar.length) throw new InvalidArchiveError("cut short");
  return entries;
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
  const entries = tarEntries(tar);
  const names = new Set(entries.map((entry) => entry.name));
  const missing = REQUIRED_FILES.filter((name) => !names.has(name));
  if (missing.length > 0) throw new InvalidArchiveError(`no ${missing.join(" or ")}: not a database's data folder`);
  const kept = entries.filter((entry) => !drop.includes(entry.name));
  // The end of an archive: two empty blocks.
  return Buffer.concat([...kept.map((entry) => tar.subarray(entry.start, entry.end)), Buffer.alloc(2 * BLOCK)]);
}
