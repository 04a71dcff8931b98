/**
 * Where oauth.spec's clients publish their Client ID Metadata Documents: an HTTPS site on a loopback
 * address of its own, with the certificate playwright.config.ts made once (E2E_CLIENT_SITE_DIR) under an
 * authority the e2e server trusts (NODE_EXTRA_CA_CERTS).
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export const CLIENT_SITE_ADDRESS = "127.0.0.2";

/** The site's certificate files (tests/reliability/support/local-ca.ts names them). */
export function clientSiteFiles() {
  const dir = process.env.E2E_CLIENT_SITE_DIR;
  if (!dir) throw new Error("E2E_CLIENT_SITE_DIR is not set: run the specs through playwright.config.ts");
  return {
    caFile: path.join(dir, "ca.pem"),
    tls: () => ({
      key: readFileSync(path.join(dir, "leaf.key"), "utf8"),
      cert: readFileSync(path.join(dir, "leaf.pem"), "utf8"),
    }),
  };
}
