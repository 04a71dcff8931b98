/**
 * fetch input, shared by the engine, REST and MCP. Provider names are checked against the fetch providers
 * the caller knows (its registry), so a typo is an invalid-input error rather than a silently ignored
 * step. A URL one of their domain routes refuses (a path traversal, a malformed escape on github.com, …)
 * is invalid input too, before any step.
 */
import { z } from "zod";
import { clampedInteger, deadlineField } from "@/lib/engine/shared/input-fields";
import type { FetchProvider } from "./types";

export const DEFAULT_MAX_CHARS = 50_000;
export const MIN_CHARS = 100;
export const MAX_CHARS_CAP = 1_000_000;
const DEFAULT_TIMEOUT_MS = 30_000;
export const MIN_TIMEOUT_MS = 1_000;
export const MAX_TIMEOUT_MS = 120_000;

const schemas = new WeakMap<readonly FetchProvider[], FetchInputSchema>();

/** The input schema for a registry of fetch providers, built once per list (zod compiles it on first use). */
export function fetchInputSchemaFor(registry: readonly FetchProvider[]): FetchInputSchema {
  let schema = schemas.get(registry);
  if (schema === undefined) {
    schema = inputSchema(registry);
    schemas.set(registry, schema);
  }
  return schema;
}

/** Why one of the registry's domain routes refuses `url`, whether or not the call would use that route. */
function routeRefusal(registry: readonly FetchProvider[], url: URL): string | undefined {
  for (const provider of registry) {
    const refusal = provider.refuses?.(url);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

/** A URL to fetch: absolute, and not refused by one of the registry's domain routes. */
export function fetchUrlField(registry: readonly FetchProvider[]) {
  return z
    .string()
    .trim()
    .min(1)
    .max(8_192)
    .refine((value) => URL.canParse(value), { message: "not an absolute URL", abort: true })
    .superRefine((value, ctx) => {
      const refusal = routeRefusal(registry, new URL(value));
      if (refusal !== undefined) ctx.addIssue({ code: "custom", message: refusal });
    });
}

function inputSchema(registry: readonly FetchProvider[]) {
  const ids = registry.map((provider) => provider.id) as [string, ...string[]];
  const providerList = z
    .array(z.string().trim().toLowerCase().pipe(z.enum(ids)))
    .max(ids.length * 2)
    .transform((names) => [...new Set(names)]);

  return z.object({
    url: fetchUrlField(registry).describe("The page to fetch (http or https)"),
    format: z.enum(["markdown", "text", "html"]).default("markdown"),
    max_chars: clampedInteger({
      min: MIN_CHARS,
      max: MAX_CHARS_CAP,
      defaultValue: DEFAULT_MAX_CHARS,
    }).describe("Longer content is cut with a marker"),
    providers: providerList.optional().describe("Only these steps, in order"),
    skip_providers: providerList.optional().describe("Steps to skip (a second opinion)"),
    timeout_ms: deadlineField({
      defaultMs: DEFAULT_TIMEOUT_MS,
      minMs: MIN_TIMEOUT_MS,
      maxMs: MAX_TIMEOUT_MS,
    }),
  });
}

export type FetchInputSchema = ReturnType<typeof inputSchema>;
export type FetchInputRaw = z.input<FetchInputSchema>;
export type FetchInput = z.output<FetchInputSchema>;
