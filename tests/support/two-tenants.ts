import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { systemCtx, tenantCtx } from "./platform";

/**
 * Tenants "A" and "B" on `platform`, created together, with a full-scope operator context on each: the
 * pair the isolation tests look across.
 */
export async function twoTenants(platform: Platform): Promise<{ a: TenantContext; b: TenantContext }> {
  const tenant = async (name: string) =>
    tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name } })).id);
  const [a, b] = await Promise.all([tenant("A"), tenant("B")]);
  return { a, b };
}
