// Where the bytes of lesson attachments live (docs/product.md, "Attachments"): in the database by
// default, so that every instance sees them and every backup holds them. The row of the attachment
// (lesson_attachments) is written by the caller, with what `keep` answers: the bytes themselves,
// or the key of an object a bucket holds.
/** How an attachment's bytes are kept: in its row (`data`), or by a bucket (`storageKey`). */
export type KeptBytes = { data: Uint8Array; storageKey: null } | { data: null; storageKey: string };

/** What a reader is answered with: the bytes, or a short-lived link to them. */
export type Delivery = { bytes: Uint8Array } | { redirectTo: string };

export type AttachmentFile = { id: string; fileName: string; contentType: string };

export type AttachmentStore = {
  readonly kind: "database" | "s3";
  /** Stores the bytes of a new attachment; a bucket holds them before the row is written. */
  keep(file: AttachmentFile, bytes: Uint8Array): Promise<KeptBytes>;
  /** How the reader gets the bytes of a stored attachment. */
  deliver(file: AttachmentFile, kept: KeptBytes): Promise<Delivery>;
  /** Forgets the objects of attachments whose rows are gone (nothing to do for the database). */
  discard(storageKeys: readonly string[]): Promise<void>;
};

export function databaseAttachmentStore(): AttachmentStore {
  return {
    kind: "database",
    keep: async (_file, bytes) => ({ data: bytes, storageKey: null }),
    deliver: async (file, kept) => {
      if (kept.data === null) throw new Error(`attachment ${file.id} is kept in a bucket, and none is configured`);
      return { bytes: kept.data };
    },
    discard: async () => {},
  };
}

declare module "fastify" {
  interface FastifyInstance {
    attachments: AttachmentStore;
  }
}
