import type { Env } from "@/lib/pipeline/capabilities";
import { secretEquals } from "@/lib/pipeline/secret-equals";

/**
 * Who may call `/api/cron/*`: a request carrying `Authorization: Bearer $CRON_SECRET` (what Vercel Cron
 * sends when the project has that variable). Without a secret, production refuses every call
 * (`not_configured`: the operator must set one); development allows them, so a local server's jobs can be
 * run by hand.
 */
export function cronAccess(bearer: string | null, env: Env): "allowed" | "unauthorized" | "not_configured" {
  const secret = env.CRON_SECRET?.trim();
  if (!secret) return env.NODE_ENV === "production" ? "not_configured" : "allowed";
  return secretEquals(bearer, secret) ? "allowed" : "unauthorized";
}
