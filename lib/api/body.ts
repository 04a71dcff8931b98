import { ServiceError } from "../services/errors";

/** Request bodies larger than this are refused with 413 before they are parsed. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * Reads a JSON object body with a byte cap (checked on the header and while streaming). `T` is what the
 * receiving verb declares; the verb validates the fields with its zod schema, so nothing is trusted here
 * beyond the body being an object.
 */
export async function readJsonBody<T extends object = Record<string, unknown>>(
  request: Request,
  maxBytes = MAX_BODY_BYTES,
): Promise<T> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw new ServiceError("payload_too_large", `request body over ${maxBytes} bytes`);
  const reader = request.body?.getReader();
  if (!reader) throw new ServiceError("invalid_input", "a JSON body is required");
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ServiceError("payload_too_large", `request body over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ServiceError("invalid_input", "the body is not valid JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw new ServiceError("invalid_input", "the body must be a JSON object");
  return body as T;
}
