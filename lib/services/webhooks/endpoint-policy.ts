/**
 * Where a webhook may point, checked when it is saved and again before every delivery: https (http only
 * outside production, NODE_ENV), and a target the SSRF guard allows (lib/http/ssrf.ts: no private, loopback,
 * link-local or metadata address, ports 80 and 443, no credentials; SEARCHMUX_FETCH_ALLOWLIST exempts hosts
 * as it does for fetch). The delivery itself goes through safeFetch, which pins the connection to the address
 * it checked, so a name that resolves elsewhere by then (DNS rebinding) is refused there too.
 */
import { checkTarget, type Resolver, type SsrfPolicy, systemResolver } from "@/lib/http/ssrf";
import type { Env } from "@/lib/pipeline/capabilities";
import { ServiceError } from "@/lib/pipeline/errors";
import { fetchAllowlistFromEnv } from "@/lib/pipeline/providers/operator-providers";

export const webhookPolicy = (env: Env): SsrfPolicy => ({ allowlist: fetchAllowlistFromEnv(env) });

/** Why `url` may not receive deliveries, or undefined when it may (DNS answers included). */
export async function endpointRefusal(
  url: URL,
  env: Env,
  resolver: Resolver = systemResolver,
): Promise<string | undefined> {
  if (url.protocol !== "https:" && !(url.protocol === "http:" && env.NODE_ENV !== "production")) {
    return "a webhook URL must use https";
  }
  try {
    await checkTarget(url, webhookPolicy(env), resolver);
    return undefined;
  } catch (error) {
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
