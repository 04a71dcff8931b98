import { NextResponse } from "next/server";
import { routeMethods } from "@/lib/api/route-methods";
import { getDatabase } from "@/lib/db";
import { getKv } from "@/lib/kv";
import { processKeyring } from "@/lib/pipeline/platform";
import { checkReadiness } from "@/lib/services/health/check-readiness";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /**
   * GET /api/ready (no auth): 200 when this instance can serve requests, 503 with the failed parts and
   * why when it cannot (the database or the KV store does not answer within 2 s each, or the
   * key-encryption keys cannot read what is stored). For load balancers and orchestrators: unlike
   * /api/health (liveness), a 503 here means "send no traffic", not "restart"; the instance turns ready
   * again by itself once the dependency answers.
   */
  async GET() {
    const readiness = await checkReadiness({ ctx: { db: getDatabase, kv: getKv, keyring: processKeyring } });
    return NextResponse.json(readiness, {
      status: readiness.status === "ok" ? 200 : 503,
      headers: { "cache-control": "no-store" },
    });
  },
});
