import { NextResponse } from "next/server";
import { routeMethods } from "@/lib/api/route-methods";
import { config } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { getKv } from "@/lib/kv";
import { checkHealth } from "@/lib/services/health/check-health";
import packageJson from "@/package.json";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /**
   * GET /api/health (no auth): liveness, cheap, and a report for monitoring. 503 only when this instance
   * cannot serve (the database does not answer or is not migrated). "degraded" (KV unreachable or in memory
   * beside a shared database, no keyless search provider) stays 200 on purpose: orchestrators take a failed
   * liveness check as "restart this instance", and every instance shares the cause, so they would all be
   * restarted in a loop for something a restart does not fix. Whether to send an instance traffic is
   * /api/ready, which does answer 503 while the KV store is down.
   */
  async GET() {
    const health = await checkHealth({
      ctx: { db: getDatabase, kv: getKv },
      input: { version: packageJson.version, sharedDatabase: config().database.shared },
    });
    return NextResponse.json(health, {
      status: health.status === "error" ? 503 : 200,
      headers: { "cache-control": "no-store" },
    });
  },
});
