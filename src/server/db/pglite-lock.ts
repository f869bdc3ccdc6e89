// PGlite is single-process: two processes on one data folder would corrupt it. A lock file with
// the owner's pid keeps a second process out, with a message that says what to do.
import { chmodSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";

export class DataDirInUseError extends Error {}

/** In the data folder while a process has the database open (a restore leaves it out). */
export const LOCK_FILE_NAME = "trading-academy.lock";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function lockDataDir(dataDir: string): () => void {
  // The folder holds sessions and reset tokens: only the server's user may enter it, also when
  // an older version created it open to all (docs/operations.md, Data folder).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const lockPath = join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(readFileSync(lockPath, "utf8"), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirInUseError(
          `The embedded database in "${dataDir}" is in use by another process (pid ${owner}). ` +
            "Stop the running server first, or set DATABASE_URL to use PostgreSQL.",
        );
      }
      rmSync(lockPath, { force: true }); // left behind by a process that is gone
    }
  }
  throw new DataDirInUseError(`Could not lock the embedded database in "${dataDir}".`);
}

/**
 * The embedded database writes some files open to every account whatever the umask: its folder
 * is closed (0700) and every file in it made the owner's alone (0600), at every start.
 */
export function keepDataDirPrivate(dataDir: string): void {
  chmodSync(dataDir, 0o700);
  for (const entry of readdirSync(dataDir, { withFileTypes: true, recursive: true })) {
    chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
  }
}
