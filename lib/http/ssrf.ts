/**
 * SSRF policy for user-supplied URLs: which schemes, ports, host names and IP addresses an outbound
 * fetch may reach. Pure checks plus DNS resolution through an injectable resolver; the connection
 * itself (pinned to the checked address) is safe-fetch.ts's job.
 *
 * Refused: anything but http/https, credentials in the URL, ports other than 80/443 (plus explicitly
 * allowed ones), single-label and internal host names (localhost, *.local, *.internal, cloud metadata
 * names), and every address that is not global unicast: private, loopback, link-local, CGNAT,
 * unique-local, multicast, reserved, unspecified, broadcast, documentation, and the IPv6 forms that
 * embed such an IPv4 address (IPv4-mapped/compatible, NAT64, 6to4), plus Teredo and cloud metadata
 * addresses. The allowlist (SEARCHMUX_FETCH_ALLOWLIST semantics: host names or CIDRs) exempts targets,
 * including from the port rule; it is empty unless the operator configures it.
 *
 * A refusal says the class of a name's address, never the address: whoever may register a webhook, a
 * workspace model or a crawl must not learn what the server's DNS answers for internal names (the log has it).
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { log } from "@/lib/observability/logger";
import { ProviderError } from "./provider-error";

/** A refused target. A ProviderError ("blocked") so engines report it like any provider failure. */
export class SsrfBlocked extends ProviderError {
  constructor(message: string) {
    super("blocked", message);
    this.name = "SsrfBlocked";
  }
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export interface Allowlist {
  hosts: ReadonlySet<string>;
  ranges: ReadonlyArray<[Address, number]>;
}

export interface SsrfPolicy {
  allowlist: Allowlist;
  /** Ports allowed besides 80 and 443. */
  allowedPorts?: readonly number[];
}

interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS lookup returning every answer; injectable so tests control what a name resolves to. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** A target that passed every check, with the one address the connection must be pinned to. */
export interface CheckedTarget {
  url: URL;
  hostname: string;
  address: ResolvedAddress;
}

export const EMPTY_ALLOWLIST: Allowlist = { hosts: new Set(), ranges: [] };

const DEFAULT_PORTS = new Set([80, 443]);
const BLOCKED_NAMES = new Set(["localhost", "metadata.goog", "metadata.google.internal"]);
const BLOCKED_SUFFIXES = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".intranet"];
/** Metadata endpoints that sit on otherwise public addresses (Azure WireServer) or need naming. */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "168.63.129.16", "100.100.100.200", "fd00:ec2::254"]);

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * Parses allowlist entries: host names (exact match, case-insensitive) and IP addresses or CIDRs.
 * Throws on an entry that is neither, so a typo in the configuration is loud.
 */
export function parseAllowlist(entries: readonly string[]): Allowlist {
  const hosts = new Set<string>();
  const ranges: Array<[Address, number]> = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry.includes("/")) {
      ranges.push(parseCidr(entry));
    } else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else if (/^[a-z0-9.-]+$/.test(entry)) {
      hosts.add(normalizeHostname(entry));
    } else {
      throw new Error(`fetch allowlist: not a host name, IP address or CIDR: ${raw}`);
    }
  }
  return { hosts, ranges };
}

/** Checks everything that can be checked without DNS; returns the normalised host name. */
export function checkUrl(url: URL, policy: SsrfPolicy): string {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SsrfBlocked(`scheme ${url.protocol} is not allowed (only http and https)`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new SsrfBlocked("credentials in the URL are not allowed");
  }
  const hostname = normalizeHostname(url.hostname);
  const literal = ipaddr.isValid(hostname) ? ipaddr.parse(hostname) : undefined;
  // Allowlisted targets (intranet services, test fixtures) may use any port.
  if (isAllowlistedHost(hostname, policy.allowlist)) return hostname;
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  if (!DEFAULT_PORTS.has(port) && !(policy.allowedPorts ?? []).includes(port)) {
    throw new SsrfBlocked(`${hostname}: port ${port} is not allowed (only 80 and 443)`);
  }
  if (literal) {
    checkAddress(hostname, policy, hostname);
    return hostname;
  }
  const why = blockedNameReason(hostname);
  if (why !== undefined) throw new SsrfBlocked(`${hostname}: ${why}`);
  return hostname;
}

/** Whether the allowlist names a URL's host: by name, or a literal address by its range. */
export function isAllowlistedHost(hostname: string, allowlist: Allowlist): boolean {
  const host = normalizeHostname(hostname);
  if (allowlist.hosts.has(host)) return true;
  return ipaddr.isValid(host) && isAllowlisted(ipaddr.parse(host), allowlist);
}

/**
 * The full check: URL rules, then DNS (one lookup), then every answer. Any blocked answer refuses the
 * whole name (a mixed answer is how rebinding attacks hedge); the first answer is the one to dial.
 */
export async function checkTarget(url: URL, policy: SsrfPolicy, resolver: Resolver): Promise<CheckedTarget> {
  const hostname = checkUrl(url, policy);
  if (ipaddr.isValid(hostname)) {
    const family = ipaddr.parse(hostname).kind() === "ipv4" ? 4 : 6;
    return { url, hostname, address: { address: hostname, family } };
  }
  const answers = await resolver(hostname);
  const [first] = answers;
  if (first === undefined) throw new ProviderError("network_error", `${hostname} did not resolve`);
  if (!policy.allowlist.hosts.has(hostname)) {
    for (const { address } of answers) checkAddress(address, policy, hostname);
  }
  return { url, hostname, address: first };
}

/** Why an address must not be dialled, or undefined when it is global unicast. */
export function blockedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return "not an IP address";
  return reasonFor(ipaddr.parse(address));
}

function checkAddress(address: string, policy: SsrfPolicy, hostname: string): void {
  const parsed = ipaddr.parse(address);
  if (isAllowlisted(parsed, policy.allowlist)) return;
  const why = reasonFor(parsed);
  if (why === undefined) return;
  if (hostname === address) throw new SsrfBlocked(`${address} is a ${why} address`);
  log().info(
    { hostname, address, class: why },
    "refused a target: its name resolves to a non-public address",
  );
  throw new SsrfBlocked(`${hostname} resolves to a ${why} address`);
}

function reasonFor(address: Address): string | undefined {
  if (METADATA_ADDRESSES.has(address.toNormalizedString()) || METADATA_ADDRESSES.has(address.toString())) {
    return "cloud metadata";
  }
  if (address instanceof ipaddr.IPv4) {
    const range = address.range();
    return range === "unicast" ? undefined : range;
  }
  // ::/96 is the deprecated IPv4-compatible form (::a.b.c.d); nothing legitimate lives there.
  if (address.parts.slice(0, 6).every((part) => part === 0)) return "IPv4-compatible (deprecated) IPv6";
  const range = address.range();
  switch (range) {
    case "unicast":
      return undefined;
    case "ipv4Mapped":
      return embedded(address.toIPv4Address(), "IPv4-mapped");
    case "rfc6052":
      // Only the well-known prefix 64:ff9b::/96 has a fixed place for the IPv4 part.
      return address.match(ipaddr.parseCIDR("64:ff9b::/96"))
        ? embedded(ipv4From(address, 6), "NAT64")
        : "local-use NAT64";
    case "6to4":
      return embedded(ipv4From(address, 1), "6to4");
    default:
      return range;
  }
}

function embedded(inner: ipaddr.IPv4, form: string): string | undefined {
  const why = reasonFor(inner);
  return why === undefined ? undefined : `${why} (as ${form} IPv6)`;
}

/** The IPv4 address held in two consecutive 16-bit parts of an IPv6 address, starting at `part`. */
function ipv4From(address: ipaddr.IPv6, part: number): ipaddr.IPv4 {
  const high = address.parts[part] ?? 0;
  const low = address.parts[part + 1] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function isAllowlisted(address: Address, allowlist: Allowlist): boolean {
  const candidates: Address[] = [address];
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress())
    candidates.push(address.toIPv4Address());
  return candidates.some((candidate) =>
    allowlist.ranges.some(
      ([network, bits]) => network.kind() === candidate.kind() && candidate.match(network, bits),
    ),
  );
}

function blockedNameReason(hostname: string): string | undefined {
  if (hostname === "") return "empty host name";
  if (BLOCKED_NAMES.has(hostname)) {
    return "internal or cloud metadata host name";
  }
  if (BLOCKED_SUFFIXES.some((suffix) => hostname.endsWith(suffix))) return "internal host name";
  // Single-label names resolve through the server's search domains, i.e. inside its network.
  if (!hostname.includes(".")) return "single-label host name";
  return undefined;
}

function normalizeHostname(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();
}

function parseCidr(entry: string): [Address, number] {
  try {
    return ipaddr.parseCIDR(entry);
  } catch {
    throw new Error(`fetch allowlist: not a valid CIDR: ${entry}`);
  }
}
