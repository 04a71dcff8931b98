// @ts-check
/**
 * The embedded database: one PGlite instance served over the Postgres wire protocol on 127.0.0.1, so
 * that every process (the `next dev` workers, `next start`, the CLI, tests) talks to it with the same
 * `pg` driver and PGlite is never opened by two processes at once.
 *
 * Started on demand by lib/db/embedded.ts as a detached process: `node embedded-server.mjs <dataDir>
 * <migrationsDir>`. It takes an exclusive lock file, applies pending migrations, listens on a free port,
 * writes `<dataDir>/server.json` ({pid, port}), and exits after IDLE_MS with no client connected.
 *
 * Other users of the machine are kept out (docs/decisions.md): a client must prove it knows the password
 * in `<dataDir>/server-password` (SCRAM-SHA-256, embedded-auth.mjs) before any message reaches PGlite,
 * and the database files are in a directory only the owner can enter (PGlite creates them 0666).
 *
 * PGlite is a single session, so a connection gets exclusive use of it from its first message until
 * PGlite answers ReadyForQuery with status idle ('I'). That keeps extended-protocol sequences
 * (Parse/Bind/Execute/Sync) and transactions of different clients from interleaving.
 *
 * Plain JavaScript on purpose: it runs under `npm start` without a TypeScript toolchain.
 */
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import path from "node:path";
import v8 from "node:v8";
import { embeddedPassword, SCRAM_MECHANISM, scramVerifier } from "./embedded-auth.mjs";

// PGlite is one large WebAssembly module. V8 compiles it quickly and then again, optimized, in the
// background: worth it for a server that lives on, not for one that serves a test for seconds (the
// optimizing pass is half the CPU of a start). Set before PGlite is loaded, so it applies to its module.
if (process.env.SEARCHMUX_EMBEDDED_QUICK_START === "1") v8.setFlagsFromString("--liftoff-only");
const { PGlite } = await import("@electric-sql/pglite");
const { drizzle } = await import("drizzle-orm/pglite");
const { migrate } = await import("drizzle-orm/pglite/migrator");

const IDLE_MS = Number(process.env.SEARCHMUX_EMBEDDED_IDLE_MS ?? 60_000);
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
/** A client that has not authenticated within this time is disconnected. */
const AUTH_TIMEOUT_MS = 10_000;
/** PostgreSQL's own limit for a startup packet; also bounds what an unauthenticated client can send. */
const MAX_UNAUTHENTICATED_MESSAGE = 10_000;
const AUTH_SASL = 10;
const AUTH_SASL_CONTINUE = 11;
const AUTH_SASL_FINAL = 12;

const [dataDir, migrationsDir] = process.argv.slice(2);
if (!dataDir || !migrationsDir) {
  console.error("usage: embedded-server.mjs <dataDir> <migrationsDir>");
  process.exit(2);
}
mkdirSync(dataDir, { recursive: true, mode: 0o700 });
const lockPath = path.join(dataDir, "server.lock");
const infoPath = path.join(dataDir, "server.json");

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * Exclusive lock: true when taken, false when a live process already serves this directory.
 * The lock file is created by hard-linking a file that already holds our pid, so no other process
 * can ever read it empty and mistake a lock being written for a stale one.
 */
function takeLock() {
  const mine = `${lockPath}.${process.pid}`;
  writeFileSync(mine, String(process.pid));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, lockPath);
        return true;
      } catch (error) {
        if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
      }
      const holder = readLockHolder(lockPath);
      if (holder === undefined) continue; // removed between our link and our read
      if (isAlive(holder)) return false;
      if (!clearStaleLock(holder)) return false;
    }
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

/** @param {string} file */
function readLockHolder(file) {
  try {
    return Number(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Removes the lock of a crashed server. The lock is moved aside first; when what was moved turns out
 * to be a fresh lock another process took meanwhile, it is put back and we give way.
 * @param {number} staleHolder
 */
function clearStaleLock(staleHolder) {
  const aside = `${lockPath}.stale-${process.pid}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true; // someone else moved it; try to take the lock again
  }
  const moved = readLockHolder(aside);
  if (moved !== staleHolder) {
    try {
      linkSync(aside, lockPath);
    } catch {}
    rmSync(aside, { force: true });
    return false;
  }
  rmSync(aside, { force: true });
  return true;
}

if (!takeLock()) process.exit(0);

const scram = scramVerifier(embeddedPassword(dataDir));
const pgdata = path.join(dataDir, "pgdata");
mkdirSync(pgdata, { recursive: true, mode: 0o700 });
chmodSync(pgdata, 0o700); // also for a directory created before the server restricted it
const db = await PGlite.create(pgdata);
await migrate(drizzle(db), { migrationsFolder: migrationsDir });

/** FIFO mutex over the single PGlite session. */
let tail = Promise.resolve();
function acquire() {
  /** @type {() => void} */
  let release = () => {};
  const held = new Promise((resolve) => {
    release = () => resolve(undefined);
  });
  const ready = tail.then(() => release);
  tail = tail.then(() => held);
  return ready;
}

let connections = 0;
/** @type {NodeJS.Timeout | undefined} */
let idleTimer;
function armIdleTimer() {
  clearTimeout(idleTimer);
  if (connections === 0) idleTimer = setTimeout(shutdown, IDLE_MS);
}

/**
 * A backend message: type byte, length, body.
 * @param {string} type
 * @param {Buffer} body
 */
function backendMessage(type, body) {
  const message = Buffer.alloc(5 + body.length);
  message.write(type, 0);
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}

/** @param {number} code @param {string} data */
function authentication(code, data) {
  const body = Buffer.alloc(4 + Buffer.byteLength(data));
  body.writeInt32BE(code, 0);
  body.write(data, 4);
  return backendMessage("R", body);
}

/** @param {string} sqlState @param {string} text */
const fatal = (sqlState, text) =>
  backendMessage("E", Buffer.from(`SFATAL\0VFATAL\0C${sqlState}\0M${text}\0\0`));

/** @param {net.Socket} socket */
function serve(socket) {
  connections++;
  clearTimeout(idleTimer);
  socket.setNoDelay(true);
  let buffer = Buffer.alloc(0);
  /** @type {"startup" | "sasl-initial" | "sasl-response" | "ready" | "refused"} */
  let phase = "startup";
  let startupMessage = Buffer.alloc(0);
  /** @type {ReturnType<typeof scram.start>} */
  let exchange = null;
  const authTimer = setTimeout(() => socket.destroy(), AUTH_TIMEOUT_MS);
  /** @type {(() => void) | null} */
  let release = null;
  let chain = Promise.resolve();

  /** @param {Buffer} message */
  async function run(message) {
    if (!release) release = await acquire();
    let lastBytes = Buffer.alloc(0);
    await db.execProtocolRawStream(new Uint8Array(message), {
      onRawData: (data) => {
        if (!socket.destroyed) socket.write(data);
        lastBytes = Buffer.concat([lastBytes, Buffer.from(data)]).subarray(-6);
      },
    });
    // ReadyForQuery ('Z', length 5, status) is the last message of a completed cycle.
    const idle = lastBytes.length === 6 && lastBytes[0] === 0x5a && lastBytes[5] === 0x49;
    if (idle && release) {
      release();
      release = null;
    }
  }

  /** @param {Buffer} message */
  function enqueue(message) {
    chain = chain
      .then(() => run(message))
      .catch((error) => {
        console.error("embedded-server: query failed", error);
        socket.destroy();
      });
  }

  /** @param {string} sqlState @param {string} text */
  function refuse(sqlState, text) {
    phase = "refused";
    socket.end(fatal(sqlState, text));
  }

  /**
   * One step of the SCRAM exchange: SASLInitialResponse, then SASLResponse ('p' both). Once the proof
   * checks out, PGlite gets the startup message and answers it (AuthenticationOk, parameters, ready).
   * @param {Buffer} message
   */
  function authenticate(message) {
    if (message[0] !== 0x70) return refuse("28000", "password authentication is required");
    const body = message.subarray(5);
    if (phase === "sasl-initial") {
      const end = body.indexOf(0);
      const mechanism = body.subarray(0, Math.max(end, 0)).toString();
      exchange =
        end > 0 && mechanism === SCRAM_MECHANISM ? scram.start(body.subarray(end + 5).toString()) : null;
      if (!exchange) return refuse("28000", `${SCRAM_MECHANISM} authentication is required`);
      socket.write(authentication(AUTH_SASL_CONTINUE, exchange.serverFirst));
      phase = "sasl-response";
      return;
    }
    const serverFinal = exchange?.finish(body.toString());
    if (!serverFinal) return refuse("28P01", "password authentication failed");
    clearTimeout(authTimer);
    socket.write(authentication(AUTH_SASL_FINAL, serverFinal));
    phase = "ready";
    enqueue(startupMessage);
  }

  socket.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (phase !== "refused") {
      if (phase === "startup") {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (length < 8 || length > MAX_UNAUTHENTICATED_MESSAGE)
          return refuse("08P01", "invalid startup packet length");
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write("N");
          continue;
        }
        if (code === CANCEL_REQUEST) {
          socket.end();
          return;
        }
        startupMessage = Buffer.from(message);
        socket.write(authentication(AUTH_SASL, `${SCRAM_MECHANISM}\0\0`));
        phase = "sasl-initial";
        continue;
      }
      if (buffer.length < 5) return;
      const length = 1 + buffer.readInt32BE(1);
      if (length < 5 || (phase !== "ready" && length > MAX_UNAUTHENTICATED_MESSAGE))
        return refuse("08P01", "invalid message length");
      if (buffer.length < length) return;
      const message = Buffer.from(buffer.subarray(0, length));
      buffer = buffer.subarray(length);
      if (message[0] === 0x58) {
        socket.end(); // Terminate
        return;
      }
      if (phase === "ready") enqueue(message);
      else authenticate(message);
    }
  });

  socket.on("error", () => socket.destroy());
  socket.on("close", () => {
    clearTimeout(authTimer);
    chain = chain.then(async () => {
      if (release) {
        // Leave the session clean for the next client: end a half-sent extended-protocol cycle and
        // roll back an open transaction.
        await db.execProtocolRawStream(new Uint8Array(SYNC), { onRawData: () => {} });
        if (db.isInTransaction()) await db.exec("ROLLBACK");
        release();
        release = null;
      }
      connections--;
      armIdleTimer();
    });
  });
}

const server = net.createServer(serve);
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("embedded-server: no TCP address");
  const tmp = `${infoPath}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify({ pid: process.pid, port: address.port }));
  renameSync(tmp, infoPath);
  console.log(`embedded-server: pid ${process.pid} serving ${dataDir} on 127.0.0.1:${address.port}`);
  armIdleTimer();
});

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  server.close();
  // Let a running cycle finish, but never hang the exit on a stuck client.
  await Promise.race([tail, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  await db.close();
  try {
    if (existsSync(infoPath) && JSON.parse(readFileSync(infoPath, "utf8")).pid === process.pid)
      rmSync(infoPath);
  } finally {
    rmSync(lockPath, { force: true });
  }
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
