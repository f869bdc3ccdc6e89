// Backup and restore of the embedded database (docs/operations.md, "Backups"). A backup file is
// written whole or not at all, and only its owner can read it: it holds every account's data.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { link, open, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { createPglite } from "../db/client.ts";
import { InvalidArchiveError, readDataDirArchive } from "../db/data-dir-archive.ts";
import { keepDataDirPrivate, LOCK_FILE_NAME, lockDataDir } from "../db/pglite-lock.ts";
import { OPERATOR_CHANNEL_FILE } from "./operator-channel.ts";

/** A backup or restore that cannot go ahead; the message says why and what to do. */
export class BackupError extends Error {}

export function postgresRefusal(command: "backup" | "restore"): BackupError {
  return new BackupError(
    `${command} is for the embedded database; with DATABASE_URL set, use PostgreSQL's own tools:\n` +
      `  pg_dump --format=custom --no-owner --dbname="$DATABASE_URL" --file=academy-$(date +%F).dump\n` +
      `  pg_restore --no-owner --dbname=<an empty database's URL> academy-<date>.dump\n` +
      "(docs/operations.md, Backups)",
  );
}

/** Where a new backup goes: refused when the file is there already or its folder is not. */
export function backupTarget(file: string): string {
  const target = resolve(file);
  if (existsSync(target)) {
    throw new BackupError(`${target} already exists: give a new file name (a backup never replaces a file).`);
  }
  if (!existsSync(dirname(target))) throw new BackupError(`The folder ${dirname(target)} does not exist.`);
  return target;
}

/**
 * Checks that `archive` is a whole backup, then writes it to `target` privately (0600) through a
 * temporary file in the same folder, linked into place only once complete: an interrupted backup
 * leaves no file, and a file that appeared meanwhile is never replaced.
 */
export async function writeBackupFile(target: string, archive: Uint8Array): Promise<void> {
  try {
    await readDataDirArchive(archive, []);
  } catch (error) {
    if (!(error instanceof InvalidArchiveError)) throw error;
    throw new BackupError(`The archive came back damaged (${error.message}): nothing was written.`);
  }
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.partial`);
  const handle = await open(temporary, "wx", 0o600);
  try {
    try {
      await handle.writeFile(archive);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(temporary, target).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") throw new BackupError(`${target} appeared while backing up: nothing was replaced.`);
      // A file system without hard links: the target was checked to be absent at the start.
      await rename(temporary, target);
    });
  } finally {
    await rm(temporary, { force: true });
  }
}

/** The entries of `dataDir`, or null when there is no such folder. */
function entriesOf(dataDir: string): string[] | null {
  if (!existsSync(dataDir)) return null;
  if (!statSync(dataDir).isDirectory()) throw new BackupError(`DATA_DIR ${dataDir} is not a folder: nothing was changed.`);
  return readdirSync(dataDir);
}

/**
 * Restores a backup into `dataDir`, which must be empty or absent (created 0700); the server must
 * be stopped. On any failure, whatever the restore made is removed and `dataDir` is as it was.
 */
export async function restoreDataDir(dataDir: string, file: string): Promise<string> {
  const archive = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`Cannot read ${file}: ${error.code === "ENOENT" ? "no such file" : error.message}.`);
  });
  let tar: Buffer;
  try {
    // The lock and the operator channel belonged to the process that made the backup.
    tar = await readDataDirArchive(archive, [LOCK_FILE_NAME, OPERATOR_CHANNEL_FILE]);
  } catch (error) {
    if (!(error instanceof InvalidArchiveError)) throw error;
    throw new BackupError(`${file} is not a backup of the embedded database (${error.message}): nothing was changed.`);
  }
  const entries = entriesOf(dataDir);
  if (entries && entries.length > 0) {
    throw new BackupError(
      `DATA_DIR ${dataDir} is not empty: nothing was changed. Restore goes into an empty or new folder: ` +
        "stop the server, move the folder away (or set DATA_DIR to a new one), then restore.",
    );
  }
  // The first folder this made, to remove on failure (the folder itself, or a missing parent).
  const created = mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const unlock = lockDataDir(dataDir);
  let client: PGlite | null = null;
  try {
    client = createPglite({ dataDir, loadDataDir: new Blob([new Uint8Array(tar)], { type: "application/x-tar" }) });
    await client.waitReady;
    // The app's own database: it has the migrations' journal (newer migrations apply at start).
    const { rows } = await client.query<{ count: number }>("select count(*)::int as count from drizzle.__drizzle_migrations");
    await client.close();
    client = null;
    keepDataDirPrivate(dataDir);
    return `Restored ${file} into ${dataDir} (${rows[0]?.count ?? 0} migrations applied in it). Start the server on it.`;
  } catch (error) {
    await client?.close().catch(() => {});
    if (created) rmSync(created, { recursive: true, force: true });
    else for (const entry of readdirSync(dataDir)) rmSync(join(dataDir, entry), { recursive: true, force: true });
    const reason = error instanceof Error ? error.message : String(error);
    throw new BackupError(`${file} could not be restored (${reason}): ${dataDir} is as it was.`);
  } finally {
    unlock();
  }
}
