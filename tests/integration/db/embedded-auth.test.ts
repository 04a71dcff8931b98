/**
 * The embedded server listens on 127.0.0.1, which every local user can reach: only a client that knows
 * the password in the data directory gets to the database, and the files themselves are private.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@/lib/db/client";
import { embeddedDatabaseUrl } from "@/lib/db/embedded";
import { stopEmbeddedServer } from "@/tests/support/database";

const dataDir = mkdtempSync(path.join(tmpdir(), "smx-embedded-auth-"));
let url: URL;

const mode = (name: string) => statSync(path.join(dataDir, name)).mode & 0o777;

function startupMessage(): Buffer {
  const params = Buffer.from("user\0postgres\0database\0postgres\0\0");
  const message = Buffer.alloc(8 + params.length);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(196608, 4); // protocol 3.0
  params.copy(message, 8);
  return message;
}

function query(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message.write("Q", 0);
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

/** Writes `bytes` on a raw connection and returns everything the server sent until it closed. */
function exchange(bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) }, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks)));
    socket.setTimeout(15_000, () => reject(new Error("the server neither answered nor closed")));
  });
}

/** The (type, SQLSTATE) of each backend message in `bytes`. */
function messages(bytes: Buffer): string[] {
  const found: string[] = [];
  for (let at = 0; at + 5 <= bytes.length; at += 1 + bytes.readInt32BE(at + 1)) {
    const type = String.fromCharCode(bytes[at] ?? 0);
    const body = bytes.subarray(at + 5, at + 1 + bytes.readInt32BE(at + 1)).toString();
    found.push(type === "E" ? `E ${/C([0-9A-Z]{5})/.exec(body)?.[1]}` : type);
  }
  return found;
}

async function tenantCount(connectionString: string): Promise<number> {
  const client = new pg.Client({ connectionString });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query("select count(*)::int as n from tenants")).rows[0].n;
  } finally {
    await client.end();
  }
}

describe("embedded database server authentication", { timeout: 90_000 }, () => {
  beforeAll(async () => {
    url = new URL(await embeddedDatabaseUrl(dataDir));
  });

  afterAll(() => {
    stopEmbeddedServer(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lets the application in with the password from the data directory", async () => {
    const db = await createDatabase({ driver: "embedded", dataDir, poolSize: 1 });
    await db.ping();
    await db.close();
    expect(await tenantCount(url.toString())).toBe(0);
  });

  it("refuses a client with a wrong password", async () => {
    const wrong = new URL(url);
    wrong.password = "not-the-password";
    await expect(tenantCount(wrong.toString())).rejects.toMatchObject({ code: "28P01" });
  });

  it("answers a query sent without authenticating with an error, never with rows", async () => {
    const reply = messages(await exchange(Buffer.concat([startupMessage(), query("select * from tenants")])));
    expect(reply).toEqual(["R", "E 28000"]);
  });

  it("drops a startup packet with an impossible length instead of spinning on it", async () => {
    const bogus = Buffer.alloc(8); // length 0
    expect(messages(await exchange(bogus))).toEqual(["E 08P01"]);
    expect(await tenantCount(url.toString())).toBe(0);
  });

  it("keeps the password and the database files to the owner", () => {
    expect(mode("server-password")).toBe(0o600);
    expect(mode("pgdata")).toBe(0o700);
    expect(mode("server.log")).toBe(0o600);
  });
});
