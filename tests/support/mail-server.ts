/**
 * A real SMTP server for the tests (smtp-server, from the nodemailer project): STARTTLS with the test
 * authority's certificate when given one, sign-in required, and every message kept raw and parsed
 * (mailparser). Recipients at REFUSED_DOMAIN are refused (550), as a server refuses an unknown mailbox.
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export const REFUSED_DOMAIN = "refused.test";

export interface MailServerOptions {
  address: string;
  /** 0: any free port. */
  port: number;
  user: string;
  password: string;
  /** With a certificate the server offers STARTTLS (and nodemailer must use it); without, plain text. */
  tls?: { key: string; cert: string };
  /** Called with each message's raw bytes once it is accepted. */
  onMessage?: (raw: Buffer) => void;
}

export interface MailServer {
  port: number;
  /** smtp://user:password@address:port */
  url: string;
  /** Messages accepted so far, parsed, oldest first. */
  messages(): Promise<ParsedMail[]>;
  /** Sign-ins tried with a wrong user or password. */
  refusedSignIns(): number;
  close(): Promise<void>;
}

export async function startMailServer(options: MailServerOptions): Promise<MailServer> {
  const raws: Buffer[] = [];
  let refusedSignIns = 0;
  const server = new SMTPServer({
    // Without a certificate: no STARTTLS at all (smtp-server would offer it with a built-in expired one).
    ...(options.tls
      ? { key: options.tls.key, cert: options.tls.cert }
      : { allowInsecureAuth: true, hideSTARTTLS: true, disabledCommands: ["STARTTLS"] }),
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.password)
        return callback(null, { user: auth.username });
      refusedSignIns++;
      return callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.toLowerCase().endsWith(`@${REFUSED_DOMAIN}`)) {
        const error = Object.assign(new Error("No such mailbox"), { responseCode: 550 });
        return callback(error);
      }
      return callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        raws.push(raw);
        options.onMessage?.(raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.address, resolve));
  const port = (server.server.address() as AddressInfo).port;
  const credentials = `${encodeURIComponent(options.user)}:${encodeURIComponent(options.password)}`;
  return {
    port,
    url: `smtp://${credentials}@${options.address}:${port}`,
    messages: () => Promise.all(raws.map((raw) => simpleParser(raw))),
    refusedSignIns: () => refusedSignIns,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
