import { ServiceError } from "@/lib/pipeline/errors";

/** Request bodies larger than this are refused with 413 before they are parsed. */
export const MAX_BODY_BYTES = 256 * 1024;
/** Bodies up to this size are read to the end (and dropped) before the 413; larger ones are cut off. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Reads a body with a byte cap, checked while streaming (nothing past it is kept): 413 beyond it, 400
 * without a body.
 */
export async function readBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const tooLarge = () => new ServiceError("payload_too_large", `request body over ${maxBytes} bytes`);
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > DRAIN_LIMIT_BYTES) throw tooLarge();
  const reader = request.body?.getReader();
  if (!reader) throw new ServiceError("invalid_input", "a request body is required");
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > DRAIN_LIMIT_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    // Past the cap the rest is read and dropped, so the client is still reading when the 413 arrives:
    // cutting the upload short would reset the connection under it and lose the answer.
    if (size <= maxBytes) chunks.push(value);
  }
  if (size > maxBytes || declared > maxBytes) throw tooLarge();
  return Buffer.concat(chunks);
}

/**
 * Reads a JSON object body with a byte cap (readBody). `T` is what the receiving verb declares; the verb
 * validates the fields with its zod schema, so nothing is trusted here beyond the body being an object.
 */
export async function readJsonBody<T extends object = Record<string, unknown>>(
  request: Request,
  maxBytes = MAX_BODY_BYTES,
): Promise<T> {
  if (!request.body) throw new ServiceError("invalid_input", "a JSON body is required");
  return parseJsonObject<T>((await readBody(request, maxBytes)).toString("utf8"));
}

/** A body already read (within the cap) as a JSON object, with readJsonBody's errors. */
export function parseJsonObject<T extends object = Record<string, unknown>>(text: string): T {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServiceError("invalid_input", "the body is not valid JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw new ServiceError("invalid_input", "the body must be a JSON object");
  return body as T;
}
