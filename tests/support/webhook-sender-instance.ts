/**
 * One "app instance" sending webhook deliveries, for the test that kills it mid-delivery: its own process and
 * database pool against the shared PostgreSQL, a short lease, sending every 200 ms. Prints its lease name,
 * then runs until killed.
 *   tsx tests/support/webhook-sender-instance.ts
 * Env: DATABASE_URL, SEARCHMUX_SECRET_KEY (the one the webhooks' secrets were sealed with),
 * SEARCHMUX_FETCH_ALLOWLIST (the receiver's loopback address).
 */
import { tmpdir } from "node:os";
import { createDatabase } from "@/lib/db/client";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { deliverWebhooks } from "@/lib/services/webhooks/deliver-webhooks";

const db = await createDatabase({
  driver: "pg",
  url: process.env.DATABASE_URL,
  dataDir: tmpdir(),
  poolSize: 2,
});
const platform = {
  db,
  keyring: parseKeyring(process.env.SEARCHMUX_SECRET_KEY ?? ""),
  env: process.env,
  now: () => new Date(),
};
const owner = `killed-sender:${process.pid}`;
console.log(owner);
let sending = false;
setInterval(() => {
  if (sending) return;
  sending = true;
  void deliverWebhooks(platform, { batch: 5, perWorkspace: 5, leaseMs: 1_500, owner }).finally(() => {
    sending = false;
  });
}, 200);
