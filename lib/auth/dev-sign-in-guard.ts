/**
 * The development sign-in signs whoever asks in as the developer, so it answers the developer's own
 * machine only: the request's Host must be an allowed one (a page on another name made to resolve to
 * 127.0.0.1 is not), and its client a loopback address.
 *
 * Where the client address comes from: a route handler sees no socket. `next dev` and `next start` write
 * the socket's peer into X-Forwarded-For when the request carries none, and a proxy or tunnel in front
 * appends the peer it saw; so every entry must be a loopback address. A browser sends no X-Forwarded-For,
 * so one elsewhere on the network is refused, as is anyone coming through a tunnel or proxy that appends
 * its client (ngrok, a port forward). What no header can show is a client that writes loopback entries
 * itself and reaches the socket directly: that is why `npm run dev` listens on 127.0.0.1 only. A proxy
 * that does not append X-Forwarded-For makes every client look local; do not put the development
 * sign-in behind one.
 */
import ipaddr from "ipaddr.js";
import { foreignHostReason } from "@/lib/api/allowed-host";
import type { AllowedHost } from "@/lib/config";

function isLoopback(entry: string): boolean {
  return ipaddr.isValid(entry) && ipaddr.process(entry).range() === "loopback";
}

/** Why the development sign-in refuses a request with these headers, or null when it may proceed. */
export function devSignInRefusal(headers: Headers, allowedHosts: readonly AllowedHost[]): string | null {
  const foreignHost = foreignHostReason(headers.get("host"), allowedHosts);
  if (foreignHost) return `the development sign-in is refused: ${foreignHost}`;
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  const remote = hops.length === 0 ? "an unknown address" : hops.find((hop) => !isLoopback(hop));
  return remote === undefined
    ? null
    : `the development sign-in is refused: it answers this machine (loopback) only, not ${remote}`;
}
