/**
 * After the run: the e2e server's data directory (created by playwright.config.ts) goes, its detached
 * embedded database server first, the client site's certificates and the test mail server's messages. Runs before Playwright stops `next start`, which no spec calls any more.
 */
import { rmSync } from "node:fs";
import { stopEmbeddedServer } from "@/tests/support/database";

export default function removeServerData(): void {
  const clientSite = process.env.E2E_CLIENT_SITE_DIR;
  if (clientSite) rmSync(clientSite, { recursive: true, force: true });
  const mail = process.env.E2E_MAIL_DIR;
  if (mail) rmSync(mail, { recursive: true, force: true });
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) return;
  stopEmbeddedServer(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
}
