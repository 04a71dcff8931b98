/**
 * Transport: the client's address for per-address limits, taken only from X-Forwarded-For entries that
 * trusted proxies wrote (SEARCHMUX_TRUSTED_PROXIES). Next.js shows a route no socket address: `next start`
 * only puts the peer into X-Forwarded-For when the client sent none, so without trusted proxies there
 * is no address a client cannot choose, and this answers null.
 */
import type { BlockList } from "node:net";
import ipaddr from "ipaddr.js";
import { type TrustedProxies, trustedProxies } from "@/lib/config";
import type { Env } from "@/lib/pipeline/capabilities";

let parsed: { raw: string | undefined; vercel: string | undefined; proxies: TrustedProxies } | undefined;

/** The setting of `env`, parsed again only when it changes (tests change it between cases). */
function proxiesOf(env: Env): TrustedProxies {
  const raw = env.SEARCHMUX_TRUSTED_PROXIES;
  const vercel = env.VERCEL;
  if (parsed && parsed.raw === raw && parsed.vercel === vercel) return parsed.proxies;
  parsed = { raw, vercel, proxies: trustedProxies(env) };
  return parsed.proxies;
}

/**
 * The address as a rate-limit key: IPv4 (also when written IPv4-mapped), or the /64 network of an IPv6
 * address, since one client usually holds a whole /64. Null when `entry` is not an address.
 */
function addressKey(entry: string): string | null {
  if (!ipaddr.isValid(entry)) return null;
  const address = ipaddr.process(entry);
  if (address.kind() === "ipv4") return address.toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/64`);
  return `${network.toString()}/64`;
}

function isTrusted(entry: string, list: BlockList): boolean {
  if (!ipaddr.isValid(entry)) return false;
  const address = ipaddr.process(entry);
  return list.check(address.toString(), address.kind());
}

/** The client's address as `headers` and the env's trusted proxies tell it, or null when unknown. */
export function clientAddress(headers: Headers, env: Env): string | null {
  const proxies = proxiesOf(env);
  if (proxies.kind === "none") return null;
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  // Entries left of what our proxies appended are whatever the client sent: only the right end counts.
  const client =
    proxies.kind === "hops"
      ? hops[hops.length - proxies.count]
      : (hops.findLast((hop) => !isTrusted(hop, proxies.list)) ?? hops[0]);
  return client === undefined ? null : addressKey(client);
}
