// Announcements to the other instances (NOTIFY) on PostgreSQL, sent after the change they tell of
// has committed (docs/performance.md, "Announcing a change"). Those made in one turn of the event
// loop go out together in one statement: under load, one write to the database for many answers.
import type pg from "pg";

type Announcement = { channel: string; payload: string };

/**
 * The statement commits without waiting for the disk: a notice holds nothing to lose, and its
 * commit then does not queue behind the others that notify (each holds a lock until its own flush).
 */
const ANNOUNCE = `with asynchronous as (select set_config('synchronous_commit', 'off', true))
  select pg_notify(n.channel, n.payload) from asynchronous, unnest($1::text[], $2::text[]) as n(channel, payload)`;

export function createAnnouncer(pool: pg.Pool): (channel: string, payload: string) => Promise<void> {
  let batch: Map<string, Announcement> | null = null;
  let sent: Promise<void> = Promise.resolve();
  return (channel, payload) => {
    if (!batch) {
      const current = new Map<string, Announcement>();
      batch = current;
      sent = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        batch = null;
        const announcements = [...current.values()];
        // Named: each connection parses and plans it once.
        await pool.query({ name: "announce", text: ANNOUNCE, values: [announcements.map((a) => a.channel), announcements.map((a) => a.payload)] });
      });
    }
    batch.set(`${channel}\n${payload}`, { channel, payload });
    return sent;
  };
}
