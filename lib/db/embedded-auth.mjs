// @ts-check
/**
 * Password authentication for the embedded database server: a random password kept in the data
 * directory (mode 0600), checked with SCRAM-SHA-256 (RFC 5802/7677), the exchange PostgreSQL itself uses.
 * The password never crosses the socket, and the client checks the server's signature, so whoever
 * answers on the port without knowing the password learns nothing that lets them in later.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from "node:crypto";
import path from "node:path";
import { readOrCreateSecret } from "../secret-file.mjs";

export const SCRAM_MECHANISM = "SCRAM-SHA-256";
const ITERATIONS = 4096;

/**
 * The password of the embedded server for `dataDir`, generated on first use.
 * @param {string} dataDir
 */
export function embeddedPassword(dataDir) {
  return readOrCreateSecret(path.join(dataDir, "server-password"), () =>
    randomBytes(32).toString("base64url"),
  );
}

/** @param {Buffer} key @param {string} text */
const hmac = (key, text) => createHmac("sha256", key).update(text).digest();

/**
 * @param {string} message
 * @returns {Map<string, string>}
 */
function attributes(message) {
  return new Map(message.split(",").map((pair) => [pair.slice(0, 1), pair.slice(2)]));
}

/**
 * The server side of SCRAM-SHA-256 for one password; the salted keys are derived once, as PostgreSQL
 * stores them.
 * @param {string} password
 */
export function scramVerifier(password) {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, ITERATIONS, 32, "sha256");
  const storedKey = createHash("sha256").update(hmac(salted, "Client Key")).digest();
  const serverKey = hmac(salted, "Server Key");

  return {
    /**
     * Answers the client-first-message, or returns null when it is malformed or asks for channel
     * binding (there is no TLS to bind to).
     * @param {string} clientFirst e.g. `n,,n=*,r=<nonce>`
     */
    start(clientFirst) {
      const match = /^([ny]),,(n=[^,]*,r=([!-+\--~]+))$/.exec(clientFirst);
      if (!match) return null;
      const [, cbFlag, clientFirstBare, clientNonce] = /** @type {string[]} */ (match);
      const nonce = `${clientNonce}${randomBytes(18).toString("base64")}`;
      const serverFirst = `r=${nonce},s=${salt.toString("base64")},i=${ITERATIONS}`;
      const channelBinding = Buffer.from(`${cbFlag},,`).toString("base64");
      return {
        serverFirst,
        /**
         * The server-final-message when the proof is right, otherwise null.
         * @param {string} clientFinal `c=<binding>,r=<nonce>,p=<proof>`
         */
        finish(clientFinal) {
          const proofAt = clientFinal.lastIndexOf(",p=");
          if (proofAt < 0) return null;
          const withoutProof = clientFinal.slice(0, proofAt);
          const fields = attributes(withoutProof);
          if (fields.get("c") !== channelBinding || fields.get("r") !== nonce) return null;
          const proof = Buffer.from(clientFinal.slice(proofAt + 3), "base64");
          if (proof.length !== storedKey.length) return null;
          const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
          const signature = hmac(storedKey, authMessage);
          const clientKey = Buffer.from(proof.map((byte, i) => byte ^ (signature[i] ?? 0)));
          const claimed = createHash("sha256").update(clientKey).digest();
          if (!timingSafeEqual(claimed, storedKey)) return null;
          return `v=${hmac(serverKey, authMessage).toString("base64")}`;
        },
      };
    },
  };
}
