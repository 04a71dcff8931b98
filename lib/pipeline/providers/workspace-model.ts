/**
 * The workspace model's settings (`workspace_llm`, lib/providers/extract/model.ts), stored as
 * provider_keys.settings beside its sealed key: the base URL of any OpenAI-compatible API, the model to ask
 * and its price per million tokens (required, 0 allowed, so that budgets can hold its calls). Checked when
 * saved (set-key.ts, with the base URL's network check) and read back with the key on every call
 * (resolve-keys.ts); the network rules its requests are held to come from the operator's environment here.
 */
import { z } from "zod";
import type { WorkspaceEndpoint } from "@/lib/engine/shared/types";
import type { EndpointGuard } from "@/lib/http/endpoint-request";
import type { Env } from "@/lib/pipeline/capabilities";
import { fetchAllowlistFromEnv } from "./operator-providers";

/** USD per million tokens: far above any model's price, so a slip of a few zeros is refused, not charged. */
const MAX_PRICE_PER_MTOK = 1_000;

/** Why a base URL cannot be one, or undefined: the URL rules checked before any address is. */
function baseUrlProblem(raw: string): string | undefined {
  if (!URL.canParse(raw)) return "must be an absolute URL, such as https://api.example.com/v1";
  const url = new URL(raw);
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http or https URL";
  if (url.username !== "" || url.password !== "")
    return "must not hold credentials (the key is its own field)";
  if (url.search !== "" || url.hash !== "") return "must have no query or fragment";
  return undefined;
}

const price = z.number().min(0).max(MAX_PRICE_PER_MTOK);

export const workspaceModelSettings = z.strictObject({
  base_url: z
    .string()
    .trim()
    .min(1)
    .max(2_048)
    .superRefine((raw, ctx) => {
      const problem = baseUrlProblem(raw);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    // One spelling, so the key's binding (key-encryption.ts) and the requests agree.
    .transform((raw) => new URL(raw).href.replace(/\/+$/, ""))
    .describe("The API's base URL, with its version segment (https://api.openai.com/v1)"),
  model: z.string().trim().min(1).max(200).describe("The model to ask, as the API names it"),
  price_per_mtok: z
    .strictObject({
      input: price.describe("USD per million prompt tokens"),
      output: price.describe("USD per million completion tokens"),
    })
    .describe("What the model charges, for budgets (0 for a model that costs nothing)"),
});

export type WorkspaceModelSettings = z.output<typeof workspaceModelSettings>;

/** What a call needs of stored settings: the base URL, the model and its price. */
export type StoredEndpoint = WorkspaceEndpoint & { baseUrl: string };

/** Stored settings as a call uses them, or undefined when they do not parse (a row counts as no key then). */
export function storedEndpoint(settings: unknown): StoredEndpoint | undefined {
  const parsed = workspaceModelSettings.safeParse(settings);
  if (!parsed.success) return undefined;
  const { base_url, model, price_per_mtok } = parsed.data;
  return {
    baseUrl: base_url,
    model,
    price: { inputPerMillion: price_per_mtok.input, outputPerMillion: price_per_mtok.output },
  };
}

/**
 * The network rules of an endpoint a workspace names (its model server, its webhooks: one rule,
 * lib/http/endpoint-request.ts): the fetch allowlist (SEARCHMUX_FETCH_ALLOWLIST) exempts hosts from the
 * address rules, and plain http is allowed outside production only (NODE_ENV), or to an allowlisted
 * loopback address.
 */
export const endpointGuard = (env: Env): EndpointGuard => ({
  allowlist: fetchAllowlistFromEnv(env),
  allowHttp: env.NODE_ENV !== "production",
});
