/**
 * The e2e server's SMTP server as its own process (`tsx tests/e2e/support/serve-mail-server.ts`): STARTTLS
 * with the client site's certificate, sign-in required, each accepted message written to E2E_MAIL_DIR.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startMailServer } from "@/tests/support/mail-server";
import { CLIENT_SITE_ADDRESS, clientSiteFiles } from "./client-site";
import { MAIL_ACCOUNT, MAIL_SERVER_PORT, mailDir } from "./company-sign-in";

let count = 0;
const server = await startMailServer({
  address: CLIENT_SITE_ADDRESS,
  port: MAIL_SERVER_PORT,
  ...MAIL_ACCOUNT,
  tls: clientSiteFiles().tls(),
  onMessage: (raw) => {
    count++;
    writeFileSync(path.join(mailDir(), `${Date.now()}-${String(count).padStart(4, "0")}.eml`), raw);
  },
});
console.log(`mail server at ${CLIENT_SITE_ADDRESS}:${server.port}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => void server.close().then(() => process.exit(0)));
