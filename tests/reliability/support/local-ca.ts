/**
 * A throwaway certificate authority and a certificate for 127.0.0.1 (or another loopback address) signed
 * by it, made with the machine's openssl: fake providers serve HTTPS with the certificate, and a server under test trusts
 * the authority through NODE_EXTRA_CA_CERTS, so provider calls pay for TLS as they do in production.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface LocalCa {
  /** PEM of the authority: the file to name in NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** The server certificate and its key, PEM. */
  key: string;
  cert: string;
  remove(): void;
}

/** ECDSA P-256, as most providers' certificates are; valid for two days; the server's at `address`. */
export function createLocalCa(address = "127.0.0.1"): LocalCa {
  const dir = mkdtempSync(path.join(tmpdir(), "smx-ca-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  const ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...ecKey,
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=Searchmux test CA",
  );
  openssl("req", ...ecKey, "-keyout", file("leaf.key"), "-out", file("leaf.csr"), "-subj", `/CN=${address}`);
  writeFileSync(file("leaf.ext"), `subjectAltName=IP:${address},DNS:localhost\n`);
  openssl(
    "x509",
    "-req",
    "-in",
    file("leaf.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-out",
    file("leaf.pem"),
    "-days",
    "2",
    "-extfile",
    file("leaf.ext"),
  );
  return {
    caFile: file("ca.pem"),
    key: readFileSync(file("leaf.key"), "utf8"),
    cert: readFileSync(file("leaf.pem"), "utf8"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
