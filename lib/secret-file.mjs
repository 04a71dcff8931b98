// @ts-check
/**
 * Platform: a generated secret kept in a file only its owner can read (0600), for zero-configuration
 * local use (the auth secret, the key-encryption key, the embedded database password). Plain JavaScript
 * so the embedded database server (plain node) shares it.
 */
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** @param {unknown} error */
const code = (error) => /** @type {NodeJS.ErrnoException} */ (error).code;

/**
 * The trimmed contents of `file`, which is created from `generate()` when missing. The value is written
 * to a private file first and then hard-linked into place, so a concurrent reader never sees the file
 * empty and concurrent creators all end up with the first one.
 * @param {string} file
 * @param {() => string} generate
 * @returns {string}
 */
export function readOrCreateSecret(file, generate) {
  try {
    return nonEmpty(file);
  } catch (error) {
    if (code(error) !== "ENOENT") throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const mine = `${file}.${process.pid}-${randomBytes(6).toString("hex")}`;
  writeFileSync(mine, generate(), { mode: 0o600, flag: "wx" });
  try {
    linkSync(mine, file);
  } catch (error) {
    if (code(error) !== "EEXIST") throw error; // otherwise another process created it first
  } finally {
    rmSync(mine, { force: true });
  }
  return nonEmpty(file);
}

/** @param {string} file */
function nonEmpty(file) {
  const value = readFileSync(file, "utf8").trim();
  if (!value) throw new Error(`${file} is empty; delete it to generate a new secret`);
  return value;
}
