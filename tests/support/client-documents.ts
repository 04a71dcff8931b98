/**
 * A client's HTTPS site for Client ID Metadata Documents (MCP authorization): documents served at paths
 * of a loopback address with a certificate of a throwaway authority (tests/reliability/support/local-ca.ts),
 * each with the body, headers and delay a test sets, and a count of the fetches each path received.
 */
import https from "node:https";
import type { AddressInfo } from "node:net";

interface ClientDocumentReply {
  body: string;
  status?: number;
  headers?: Record<string, string>;
  /** Milliseconds before the reply. */
  delayMs?: number;
}

export interface ClientDocumentSite {
  /** `https://<address>:<port>` */
  origin: string;
  /** Serves `reply` at `path`; a function is called with the document's own URL. */
  serve(path: string, reply: ClientDocumentReply | ((url: string) => ClientDocumentReply)): string;
  hits(path: string): number;
  /** Replies sent at `path` (a delayed one counts once its delay is over, if the client still waits). */
  answered(path: string): number;
  close(): Promise<void>;
}

/** The metadata document a client at `url` publishes, with `redirectUris`. */
export const clientDocument = (url: string, redirectUris: string[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ client_id: url, client_name: "Document client", redirect_uris: redirectUris, ...extra });

/** The site at `address` (its certificate's), serving with `tls`, a certificate and key in PEM. */
export async function startClientDocumentSite(
  tls: { key: string; cert: string },
  address = "127.0.0.1",
): Promise<ClientDocumentSite> {
  const replies = new Map<string, (url: string) => ClientDocumentReply>();
  const counts = new Map<string, number>();
  const answered = new Map<string, number>();
  let origin = "";
  const server = https.createServer(tls, (request, response) => {
    const path = request.url ?? "/";
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const reply = replies.get(path)?.(`${origin}${path}`) ?? { status: 404, body: "{}" };
    const send = () => {
      if (response.destroyed) return;
      answered.set(path, (answered.get(path) ?? 0) + 1);
      response.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      response.end(reply.body);
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  origin = `https://${address}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    serve(path, reply) {
      replies.set(path, typeof reply === "function" ? reply : () => reply);
      return `${origin}${path}`;
    },
    hits: (path) => counts.get(path) ?? 0,
    answered: (path) => answered.get(path) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
