import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ClientConfigs } from "@/components/client-configs";
import { sessionContext } from "@/lib/auth/context";
import { currentSession } from "@/lib/auth/session";
import { config } from "@/lib/config";
import { getTenant } from "@/lib/services/tenants/get-tenant";

/** The deployment's public base URL: AUTH_URL, else the host this page was requested on. */
async function baseUrl(): Promise<string> {
  const configured = config().auth.url;
  if (configured) return configured.replace(/\/$/, "");
  const h = await headers();
  const proto = h.get("x-forwarded-proto") ?? "http";
  return `${proto}://${h.get("host") ?? "localhost:3000"}`;
}

export default async function DashboardPage() {
  const session = await currentSession();
  if (!session) redirect("/signin");
  const tenant = await getTenant({ ctx: await sessionContext(session) });
  const base = await baseUrl();
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">{tenant.name}</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Workspace <code className="font-mono">{tenant.id}</code> · your role: {session.role}
        </p>
      </div>
      <section className="rounded-lg border border-zinc-200 p-6 dark:border-zinc-800">
        <h2 className="font-medium">Connect a client</h2>
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          Your MCP endpoint is <code className="font-mono">{base}/api/mcp</code>. Create a token with the{" "}
          <code className="font-mono">mcp</code> scope (an operator can run{" "}
          <code className="font-mono">npm run smx -- token create --tenant {tenant.id} --name my-agent</code>
          ), then paste it in place of <code className="font-mono">smx_YOUR_TOKEN</code>:
        </p>
        <div className="mt-4">
          <ClientConfigs baseUrl={base} />
        </div>
      </section>
    </div>
  );
}
