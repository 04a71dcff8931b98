/**
 * Transport: the result cache read in the token check's KV round trip. A call that repeats an earlier one
 * of the same token (same method, URL and body) reads ahead the result-cache keys that earlier call read,
 * beside the token check and its rate-limit count (sent alongside it, lib/kv/alongside.ts); over a network
 * to KV that saves a round trip per cached call. It reads the request itself, hence the transport.
 *
 * Which keys to read is only a hint. A reply answers nothing but the call's own read of that very key
 * (once): when the key no longer applies (the tenant's providers changed, another tenant's token), the call
 * asks for another key and reads it as before. So the hint can never hand a call a result it would not
 * have read itself.
 */
import { createHash } from "node:crypto";
import type { Kv } from "@/lib/kv";
import { type KvAlongside, readsAlongside } from "@/lib/kv/alongside";
import { isResultCacheKey } from "@/lib/pipeline/cache/result-cache";

/** Only calls with a body of at most this many bytes are remembered (a search is a few hundred). */
const MAX_REMEMBERED_BODY_BYTES = 4096;
/** Calls remembered per process; the map is cleared when full. */
const MAX_REMEMBERED = 10_000;
/** Keys remembered per call (a call reads one result-cache key; research-like verbs read more). */
const MAX_KEYS = 4;

/** A digest of (token, method, URL, body) → the result-cache keys that call read last time. */
const remembered = new Map<string, readonly string[]>();

export interface CacheReadAhead {
  /**
   * The reads to send with the token check; none the first time. Reads the request's body (see `body`),
   * so it is only asked for a token this process saw verify.
   */
  reads(): Promise<KvAlongside>;
  /** The body `reads` read, if it read one: the request's own is then used up. */
  body(): string | undefined;
  /**
   * The call's KV: a read of a key read ahead is answered from its reply (`replies`, the replies to
   * `reads`, when they were sent), once; result-cache reads are noted.
   */
  kv(base: Kv, replies: readonly unknown[] | undefined): Kv;
  /** Remembers the result-cache keys the call read, for its next repeat. */
  remember(): void;
}

export function cacheReadAhead(request: Request, token: string): CacheReadAhead {
  let call: string | undefined;
  let body: string | undefined;
  let keys: readonly string[] = [];
  const read: string[] = [];
  return {
    async reads() {
      const length = Number(request.headers.get("content-length") ?? 0);
      if (request.body && !(length > 0 && length <= MAX_REMEMBERED_BODY_BYTES)) return readsAlongside([]);
      // Read rather than copied: a copy (a tee of the stream) cost more than the rest of the read-ahead.
      if (request.body) body = await request.text();
      call = createHash("sha256")
        .update(`${token}\n${request.method} ${request.url}\n`)
        .update(body ?? "")
        .digest("base64url");
      keys = remembered.get(call) ?? [];
      return readsAlongside(keys);
    },
    body: () => body,
    kv(base, replies) {
      const ahead = new Map<string, string | null>();
      keys.forEach((key, i) => {
        const reply = replies?.[i];
        if (typeof reply === "string" || reply === null) ahead.set(key, reply);
      });
      return {
        ...base,
        get: async (key) => {
          if (isResultCacheKey(key) && read.length < MAX_KEYS) read.push(key);
          const reply = ahead.get(key);
          if (reply === undefined) return base.get(key);
          ahead.delete(key);
          return reply;
        },
      };
    },
    remember() {
      if (call === undefined) return;
      if (read.length === 0) {
        remembered.delete(call);
        return;
      }
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(call, [...read]);
    },
  };
}
