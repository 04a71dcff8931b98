/**
 * Vitest setup: no test reaches the outside network, on a laptop as on an offline CI machine. Every
 * DNS lookup and TCP connection of the test process is checked: loopback, the test infrastructure
 * (the hosts of DATABASE_URL, REDIS_URL and KV_REST_API_URL) and the reserved names that never resolve
 * (.test, .invalid, .example, RFC 6761 — answered ENOTFOUND here, without asking a resolver) pass;
 * anything else is refused exactly as an offline machine would (ENOTFOUND, ECONNREFUSED) and fails the
 * test that tried, naming the host. So a provider left at its real base URL, or a direct fetch of a real
 * page, shows up here instead of passing offline and failing with internet (or the other way round).
 * Child processes (next start, the CLI) are kept in by their environment: tests/support/provider-env.ts.
 */
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import { afterAll, afterEach, expect } from "vitest";

const RESERVED_SUFFIXES = [".test", ".invalid", ".example"];

const infrastructureHosts = new Set(
  ["DATABASE_URL", "REDIS_URL", "KV_REST_API_URL"].flatMap((name) => {
    try {
      const value = process.env[name]?.trim();
      return value ? [new URL(value).hostname.replace(/^\[|\]$/g, "").toLowerCase()] : [];
    } catch {
      return [];
    }
  }),
);

const isLoopback = (host: string) =>
  host === "localhost" ||
  host.endsWith(".localhost") ||
  host === "::1" ||
  host === "0:0:0:0:0:0:0:1" ||
  /^127\.\d+\.\d+\.\d+$/.test(host) ||
  /^::ffff:127\.\d+\.\d+\.\d+$/.test(host);

const isReserved = (host: string) => RESERVED_SUFFIXES.some((suffix) => host.endsWith(suffix));

const attempts: string[] = [];

/** Whether the test process may reach `host`; records it when not (reserved names are refused unrecorded). */
function allowed(rawHost: string): boolean {
  const host = rawHost.replace(/^\[|\]$/g, "").toLowerCase();
  if (isLoopback(host) || infrastructureHosts.has(host)) return true;
  if (!isReserved(host)) attempts.push(host);
  return false;
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
    code: "ENOTFOUND",
    errno: -3008,
    syscall: "getaddrinfo",
    hostname,
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, ...rest: unknown[]) => void;

const realLookup = dns.lookup;
const guardedLookup = (hostname: string, ...rest: unknown[]) => {
  if (allowed(hostname)) return Reflect.apply(realLookup, dns, [hostname, ...rest]);
  const callback = rest.at(-1) as LookupCallback;
  process.nextTick(() => callback(notFound(hostname)));
};
dns.lookup = guardedLookup as typeof dns.lookup;

const realPromisesLookup = dns.promises.lookup;
dns.promises.lookup = ((hostname: string, ...rest: unknown[]) =>
  allowed(hostname)
    ? Reflect.apply(realPromisesLookup, dns.promises, [hostname, ...rest])
    : Promise.reject(notFound(hostname))) as typeof dns.promises.lookup;

// Connections to an address (no lookup) are checked here; names go through the guarded lookup.
const realConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  if (!allowedConnection(args)) {
    const error = Object.assign(new Error("connect ECONNREFUSED (outside the test network)"), {
      code: "ECONNREFUSED",
      syscall: "connect",
    });
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return Reflect.apply(realConnect, this, args) as net.Socket;
} as typeof net.Socket.prototype.connect;

/** connect(options), connect(port, host) or net.connect's normalized [options, callback]. */
function allowedConnection(args: unknown[]): boolean {
  const [first, second] = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  const host =
    typeof first === "object" && first !== null
      ? (first as net.TcpNetConnectOpts).host
      : typeof second === "string"
        ? second
        : undefined;
  return !host || !net.isIP(host) || allowed(host);
}

// `import { lookup } from "node:dns/promises"` bindings follow the patched functions.
syncBuiltinESMExports();

const expectNoAttempts = () => {
  const tried = attempts.splice(0);
  expect(tried, "hosts outside the test network this test tried to reach").toEqual([]);
};
afterEach(expectNoAttempts);
// Hooks reach out too (a beforeAll warming a cache); the file fails when they did.
afterAll(expectNoAttempts);
