// What an uploaded file is, by its content and not only its name (docs/product.md,
// "Attachments"): the name's extension says what the admin means to attach, and the bytes must be
// that. A CSV file has no signature: it must be text (UTF-8, no NUL).
import { fileTypeFromBuffer } from "file-type";
import { ATTACHMENT_KINDS, ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGES } from "../../../shared/contracts/learning.ts";

type Kind = (typeof ATTACHMENT_KINDS)[number];

/** The types file-type names for each kind: an XLS is an OLE compound file ("cfb") to it. */
const DETECTED: Record<Kind["contentType"], readonly string[]> = {
  "application/pdf": ["application/pdf"],
  "image/png": ["image/png"],
  "image/jpeg": ["image/jpeg"],
  "image/gif": ["image/gif"],
  "image/webp": ["image/webp"],
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": [
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ],
  "application/vnd.ms-excel": ["application/x-cfb"],
  "application/vnd.oasis.opendocument.spreadsheet": ["application/vnd.oasis.opendocument.spreadsheet"],
  "text/csv": [],
};

/**
 * The name as stored and sent back in Content-Disposition: the last part of a path, without
 * control characters, at most 200 characters with its extension kept.
 */
export function cleanFileName(name: string): string {
  const base = [...(name.split(/[\\/]/).pop() ?? "")]
    .filter((char) => char !== '"' && char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f)
    .join("")
    .trim();
  if (base.length <= 200) return base;
  const dot = base.lastIndexOf(".");
  const extension = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : "";
  return base.slice(0, 200 - extension.length) + extension;
}

function kindOfName(fileName: string): Kind | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return ATTACHMENT_KINDS.find((kind) => (kind.extensions as readonly string[]).includes(extension ?? "")) ?? null;
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The attachment's kind, or why it is refused (the messages name the limit and the kinds allowed). */
export async function checkAttachment(
  rawName: string,
  bytes: Uint8Array,
): Promise<{ fileName: string; contentType: string } | { error: string; status: 400 | 413 | 415 }> {
  const fileName = cleanFileName(rawName);
  if (fileName === "" || fileName.startsWith(".")) return { error: ATTACHMENT_MESSAGES.nameRequired, status: 400 };
  if (bytes.byteLength > ATTACHMENT_MAX_BYTES) return { error: ATTACHMENT_MESSAGES.tooLarge, status: 413 };
  if (bytes.byteLength === 0) return { error: ATTACHMENT_MESSAGES.empty, status: 400 };
  const kind = kindOfName(fileName);
  if (!kind) return { error: ATTACHMENT_MESSAGES.notAllowed, status: 415 };
  const detected = await fileTypeFromBuffer(bytes);
  const matches = kind.contentType === "text/csv" ? detected === undefined && isText(bytes) : DETECTED[kind.contentType].includes(detected?.mime ?? "");
  if (!matches) return { error: ATTACHMENT_MESSAGES.mismatch(fileName), status: 415 };
  return { fileName, contentType: kind.contentType };
}
