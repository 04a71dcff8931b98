/**
 * For the failed-authentication cases of the hostile-input suite (security #14): client addresses no
 * concurrent run shares, what a client may forge in X-Forwarded-For, and the KV keys the cases leave in
 * the shared Redis, so they can be deleted.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { Kv } from "@/lib/kv/types";
import { generateToken, hashToken } from "@/lib/services/tokens/token-format";
import { tokenCacheKey } from "@/lib/services/tokens/verify-token";

/** An address in 100.64.0.0/10 (shared address space): 4 million of them, so runs do not collide. */
export const randomAddress = () => `100.${64 + randomInt(64)}.${randomInt(256)}.${1 + randomInt(254)}`;

const randomIpv6 = () => `2001:db8:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}::1`;

/** What a client writes in X-Forwarded-For before our proxy appends its entry: others' addresses, `victim`'s, junk. */
export function forgedEntries(victim: string, i: number): string[] {
  const choices = [
    [randomAddress()],
    [victim],
    [randomIpv6(), victim],
    ["unknown"],
    ["127.0.0.1", randomAddress()],
    ["not-an-address"],
    [],
  ];
  return choices[i % choices.length] ?? [];
}

/** KV keys authentication leaves: tokens' verdicts, vouches and last-use marks, addresses' failure counters. */
export class AuthKeys {
  private readonly keys = new Set<string>();
  private readonly addresses = new Set<string>();
  private readonly since = Date.now();

  /** A random token with a valid checksum, unknown to the database, so it is looked up like a real one. */
  bogusToken(): string {
    return this.token(generateToken());
  }

  token(token: string, tokenId?: string): string {
    const hash = hashToken(token);
    this.keys.add(tokenCacheKey(hash)).add(`smx:token-vouched:${hash}`);
    if (tokenId) this.keys.add(`smx:token-used:${tokenId}`);
    return token;
  }

  address(address: string): string {
    this.addresses.add(address);
    return address;
  }

  async delete(kv: Kv): Promise<void> {
    const keys = [...this.keys];
    // The sliding window's counters: one per address and minute, the previous minute included.
    for (
      let minute = Math.floor(this.since / 60_000) - 1;
      minute <= Math.floor(Date.now() / 60_000);
      minute++
    ) {
      for (const address of this.addresses) keys.push(`smx:rl:auth-fail:${address}:${minute}`);
    }
    for (let i = 0; i < keys.length; i += 500) await kv.del(...keys.slice(i, i + 500));
  }
}
