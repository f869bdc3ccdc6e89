// Lesson attachments in an S3-compatible bucket (S3_BUCKET, docs/operations.md, "Attachments"):
// the bytes go to the bucket under attachments/{id}, and a reader is sent to a link signed for
// five minutes, which names the file's type and name as our own answer would. Attachments stored
// in the database before the bucket was configured are still served from there.
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import contentDisposition from "content-disposition";
import type { FastifyBaseLogger } from "fastify";
import type { S3Config } from "../env.ts";
import type { AttachmentStore } from "./attachment-store.ts";

/** How long a download link works: enough to start a download on a slow network, too short to share. */
export const SIGNED_LINK_SECONDS = 300;

export function s3AttachmentStore(config: S3Config, log: FastifyBaseLogger): AttachmentStore {
  const client = new S3Client({
    region: config.region,
    // Any S3-compatible service: its own address, buckets in the path (as MinIO and most others expect).
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
  });
  const Bucket = config.bucket;
  return {
    kind: "s3",
    async keep(file, bytes) {
      const Key = `attachments/${file.id}`;
      await client.send(new PutObjectCommand({ Bucket, Key, Body: bytes, ContentType: file.contentType, ContentLength: bytes.byteLength }));
      return { data: null, storageKey: Key };
    },
    async deliver(file, kept) {
      if (kept.data !== null) return { bytes: kept.data };
      const command = new GetObjectCommand({
        Bucket,
        Key: kept.storageKey,
        ResponseContentType: file.contentType,
        ResponseContentDisposition: contentDisposition(file.fileName),
      });
      return { redirectTo: await getSignedUrl(client, command, { expiresIn: SIGNED_LINK_SECONDS }) };
    },
    async discard(keys) {
      if (keys.length === 0) return;
      // The rows are gone already: an object left behind costs storage, never access, so a failure
      // is logged rather than failing the admin's change.
      try {
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
      } catch (error) {
        log.warn({ err: error, keys }, "attachment objects could not be deleted from the bucket");
      }
    },
  };
}
