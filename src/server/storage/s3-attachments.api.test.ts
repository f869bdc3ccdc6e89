// Lesson attachments kept in an S3-compatible bucket (docs/operations.md, "Attachments"), against
// s3rver, a local server speaking S3's API, started by the test: the bytes go to the bucket, never
// to the database; a learner whose plan opens the program is sent to a short-lived signed link
// that answers the file as our own download would; removing it removes the object.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminProgram } from "../../shared/contracts/admin.ts";
import type { JournalEntry } from "../../shared/contracts/journal.ts";
import { journalScreenshots, lessonAttachments } from "../db/schema.ts";
import { deleteAccount } from "../features/accounts/account-deletion.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../testing/accounts.ts";
import { freePort } from "../testing/child-process-env.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const nextIp = ipAllocator(173);
const BUCKET = "academy-attachments";
/** A 1x1 PNG. */
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

describe("attachments in an S3-compatible bucket", () => {
  let t: TestApp;
  let s3: S3rver;
  let directory: string;
  let endpoint: string;
  let user: (key: "admin" | "free" | "intermediate") => TestUser;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "s3rver-"));
    const port = await freePort();
    s3 = new S3rver({ port, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
    await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: { S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" },
    });
    user = await createTestUsers(t, nextIp, {
      admin: { plan: "admin" },
      free: { plan: "legacyFree" },
      intermediate: { plan: "intermediate", status: "active", subscriptionEnd: new Date(Date.now() + 30 * 86_400_000) },
    });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const call = (who: TestUser, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...options.headers, cookie: who.cookie } });

  async function firstModuleOf(track: string) {
    const response = await call(user("admin"), { method: "GET", url: "/api/admin/programs" });
    const program = response.json<{ programs: AdminProgram[] }>().programs.find((p) => p.id === track);
    return program?.modules[0]?.id ?? "";
  }

  it("keeps the bytes in the bucket and sends an entitled learner to a signed link, which stops working when removed", async () => {
    const moduleId = await firstModuleOf("intermediate");
    const uploaded = await call(user("admin"), {
      method: "POST",
      url: `/api/admin/programs/intermediate/modules/${moduleId}/attachments?name=${encodeURIComponent("Risk sheet.pdf")}`,
      headers: { "content-type": "application/octet-stream" },
      payload: PDF,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = uploaded.json<{ program: AdminProgram }>().program.modules[0]?.attachments[0];
    if (!file) throw new Error("no attachment");

    const [row] = await t.database.db
      .select({ data: lessonAttachments.data, storageKey: lessonAttachments.storageKey })
      .from(lessonAttachments)
      .where(eq(lessonAttachments.id, file.id));
    expect(row).toEqual({ data: null, storageKey: `attachments/${file.id}` });

    expect((await call(user("free"), { method: "GET", url: file.url })).statusCode).toBe(403);

    const answer = await call(user("intermediate"), { method: "GET", url: file.url });
    expect(answer.statusCode).toBe(302);
    expect(answer.headers["cache-control"]).toBe("no-store");
    const link = new URL(String(answer.headers.location));
    expect(link.origin).toBe(endpoint);
    expect(link.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(link.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);

    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="Risk sheet.pdf"');
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);

    const removed = await call(user("admin"), {
      method: "DELETE",
      url: `/api/admin/programs/intermediate/modules/${moduleId}/attachments/${file.id}`,
    });
    expect(removed.statusCode).toBe(200);
    expect((await call(user("intermediate"), { method: "GET", url: file.url })).statusCode).toBe(404);
    expect((await fetch(link)).status).toBe(404);
  });

  it("keeps a journal screenshot in the bucket for its owner alone, and forgets it when the account is deleted", async () => {
    const journaler = (await createTestUsers(t, nextIp, { journaler: {} }))("journaler");
    const created = await call(journaler, {
      method: "POST",
      url: "/api/journal",
      payload: { kind: "real", instrument: "XAUUSD", direction: "buy", entry: "2045.10", stop: "2040.10", size: "0.1", tradedOn: "2026-11-02" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ entry: JournalEntry }>().entry;
    const put = await call(journaler, { method: "PUT", url: `/api/journal/${id}/screenshot`, headers: { "content-type": "application/octet-stream" }, payload: PNG });
    expect(put.statusCode, put.body).toBe(200);
    const [row] = await t.database.db.select({ data: journalScreenshots.data, storageKey: journalScreenshots.storageKey }).from(journalScreenshots).where(eq(journalScreenshots.entryId, id));
    expect(row?.data).toBeNull();
    expect(row?.storageKey).toMatch(/^attachments\/[0-9a-f-]{36}$/);

    const url = put.json<{ entry: JournalEntry }>().entry.screenshot?.url ?? "";
    expect((await call(user("free"), { method: "GET", url })).statusCode).toBe(404);
    const answer = await call(journaler, { method: "GET", url });
    expect(answer.statusCode).toBe(302);
    const link = new URL(String(answer.headers.location));
    const image = await fetch(link);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

    await deleteAccount(t.database.db, t.services.attachments, journaler.id, new Date());
    expect((await fetch(link)).status).toBe(404);
  });
});
