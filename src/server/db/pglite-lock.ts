// PGlite is single-process: two processes on one data folder would corrupt it. A lock file with
// the owner's pid keeps a second process out, with a message that says what to do.
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";

export class DataDirInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, "trading-academy.lock");
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
