// The scratch database on the local PostgreSQL: created fresh for a run, dropped at its end.
import pg from "pg";

export const SCRATCH_DATABASE = "ta_bench";

async function withClient<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The server's version, e.g. "15.20 (Debian 15.20-0+deb12u1)". */
export async function postgresVersion(adminUrl: string): Promise<string> {
  return withClient(adminUrl, async (client) => {
    const result = await client.query<{ server_version: string }>("show server_version");
    return result.rows[0]?.server_version ?? "unknown";
  });
}

/** The URL of the scratch database on the same server as `adminUrl`. */
export function scratchUrl(adminUrl: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${SCRATCH_DATABASE}`;
  return url.href;
}

/** Drops the scratch database (left over from an interrupted run, say) and creates it empty. */
export async function createScratchDatabase(adminUrl: string): Promise<string> {
  await withClient(adminUrl, async (client) => {
    await client.query(`drop database if exists ${SCRATCH_DATABASE} with (force)`);
    await client.query(`create database ${SCRATCH_DATABASE}`);
  });
  return scratchUrl(adminUrl);
}

export async function dropScratchDatabase(adminUrl: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    await client.query(`drop database if exists ${SCRATCH_DATABASE} with (force)`);
  });
}
