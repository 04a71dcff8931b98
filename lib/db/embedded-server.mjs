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
 * PGlite is a single session, so a connection gets exclusive use of it from its first message until
 * PGlite answers ReadyForQuery with status idle ('I'). That keeps extended-protocol sequences
 * (Parse/Bind/Execute/Sync) and transactions of different clients from interleaving.
 *
 * Plain JavaScript on purpose: it runs under `npm start` without a TypeScript toolchain.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

const IDLE_MS = Number(process.env.SEARCHMUX_EMBEDDED_IDLE_MS ?? 60_000);
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

const [dataDir, migrationsDir] = process.argv.slice(2);
if (!dataDir || !migrationsDir) {
  console.error("usage: embedded-server.mjs <dataDir> <migrationsDir>");
  process.exit(2);
}
mkdirSync(dataDir, { recursive: true });
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

const db = await PGlite.create(path.join(dataDir, "pgdata"));
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

/** @param {net.Socket} socket */
function serve(socket) {
  connections++;
  clearTimeout(idleTimer);
  socket.setNoDelay(true);
  let buffer = Buffer.alloc(0);
  let startup = true;
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

  socket.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (startup) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
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
        startup = false;
        enqueue(Buffer.from(message));
        continue;
      }
      if (buffer.length < 5) return;
      const length = 1 + buffer.readInt32BE(1);
      if (buffer.length < length) return;
      const message = Buffer.from(buffer.subarray(0, length));
      buffer = buffer.subarray(length);
      if (message[0] === 0x58) {
        socket.end(); // Terminate
        return;
      }
      enqueue(message);
    }
  });

  socket.on("error", () => socket.destroy());
  socket.on("close", () => {
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
