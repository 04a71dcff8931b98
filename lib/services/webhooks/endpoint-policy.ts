/**
 * Where a webhook may point, checked when it is saved and again before every delivery: the rule of every
 * endpoint a workspace names (lib/http/endpoint-request.ts `checkEndpoint`: https, plain http only outside
 * production or to an allowlisted loopback address; a target the SSRF guard allows, lib/http/ssrf.ts: no
 * private, loopback, link-local or metadata address, ports 80 and 443, no credentials;
 * SEARCHMUX_FETCH_ALLOWLIST exempts hosts as it does for fetch). The delivery itself goes through safeFetch,
 * which pins the connection to the address it checked, so a name that resolves elsewhere by then (DNS
 * rebinding) is refused there too.
 */
import { checkEndpoint as checkEndpointRules } from "@/lib/http/endpoint-request";
import { ProviderError } from "@/lib/http/provider-error";
import type { Resolver, SsrfPolicy } from "@/lib/http/ssrf";
import type { Env } from "@/lib/pipeline/capabilities";
import { ServiceError } from "@/lib/pipeline/errors";
import { endpointGuard } from "@/lib/pipeline/providers/workspace-model";

export const webhookPolicy = (env: Env): SsrfPolicy => ({ allowlist: endpointGuard(env).allowlist });

/** Why `url` may not receive deliveries, or undefined when it may (DNS answers included). */
export async function endpointRefusal(url: URL, env: Env, resolver?: Resolver): Promise<string | undefined> {
  try {
    await checkEndpointRules(url, { ...endpointGuard(env), resolver });
    return undefined;
  } catch (error) {
    // The rule that refused (SsrfBlocked), a name without an address, or the resolver's own error.
    if (error instanceof ProviderError) return error.message;
    if (error instanceof Error && "code" in error) return `${url.hostname} does not resolve`;
    return error instanceof Error ? error.message : String(error);
  }
}

/** The URL as stored, or invalid_input (400) saying why it is refused. */
export async function checkEndpoint(raw: string, env: Env): Promise<string> {
  if (!URL.canParse(raw)) throw new ServiceError("invalid_input", "the webhook URL is not an absolute URL");
  const url = new URL(raw);
  const refusal = await endpointRefusal(url, env);
  if (refusal !== undefined) throw new ServiceError("invalid_input", `webhook URL refused: ${refusal}`);
  return url.toString();
}
