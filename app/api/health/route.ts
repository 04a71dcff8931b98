import { NextResponse } from "next/server";
import { getDatabase } from "@/lib/db";
import { getKv } from "@/lib/kv";
import { checkHealth } from "@/lib/services/health/check-health";
import packageJson from "@/package.json";

export const dynamic = "force-dynamic";

/** GET /api/health (no auth): 200 while the database answers, 503 when it does not. */
export async function GET() {
  const health = await checkHealth({
    ctx: { db: getDatabase, kv: getKv },
    input: { version: packageJson.version },
  });
  return NextResponse.json(health, {
    status: health.db === "ok" ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
