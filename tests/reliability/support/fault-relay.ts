/**
 * A TCP relay in front of a real service (PostgreSQL, the embedded database's server, Redis) that a test
 * turns faulty and healthy again, the service itself untouched: `down` refuses (every connection is closed
 * as it opens), `slow` takes connections and holds every byte forever (a hung dependency), `garbage`
 * answers each connection with bytes no protocol parses and closes it, `pass` relays. Each change cuts the connections open
 * so far, as a network partition or a restarted service would: clients meet the new state at once.
 */
import { once } from "node:events";
import net from "node:net";

export type RelayState = "pass" | "down" | "slow" | "garbage";

export interface FaultRelay {
  /** The service's URL with its host and port replaced by the relay's (credentials and path kept). */
  url(serviceUrl: string): string;
  set(state: RelayState): void;
  /** Connections accepted in each state since the relay opened. */
  connections(state: RelayState): number;
  close(): Promise<void>;
}

const GARBAGE = Buffer.from("\u0000\u00ff garbage \r\n\u0007\u0013 not a protocol \u00fe\r\n", "latin1");

export async function startFaultRelay(target: { host: string; port: number }): Promise<FaultRelay> {
  let state: RelayState = "pass";
  const accepted: Record<RelayState, number> = { pass: 0, down: 0, slow: 0, garbage: 0 };
  const open = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => open.delete(socket));
    return socket;
  };

  const server = net.createServer((client) => {
    accepted[state] += 1;
    track(client);
    if (state === "down") {
      client.destroy();
      return;
    }
    if (state === "slow") return; // held: nothing read, nothing written
    if (state === "garbage") {
      // Another service on the port: bytes no client of PostgreSQL or Redis parses, then the end.
      client.end(GARBAGE);
      return;
    }
    const service = track(net.connect(target.port, target.host));
    client.pipe(service).pipe(client);
    const closeBoth = () => {
      client.destroy();
      service.destroy();
    };
    client.on("close", closeBoth);
    service.on("close", closeBoth);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;

  return {
    url(serviceUrl) {
      const parsed = new URL(serviceUrl);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    set(next) {
      state = next;
      for (const socket of open) socket.destroy();
    },
    connections: (of) => accepted[of],
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
