/**
 * A lens: a named set of domains (plus search defaults such as time_range) that web_search applies as
 * include_domains — natively on providers with a domain filter, as site: operators on those that read
 * them, as a post-filter on the rest (lib/engine/search/post-filter.ts). Built-in lenses ship with the
 * product; a tenant's own lens of the same name replaces the built-in one.
 */
import { z } from "zod";
import type { LensDefaults, lenses } from "@/lib/db/schema";
import { searchInputSchema } from "@/lib/engine/search/input";

export interface Lens {
  name: string;
  description: string;
  domains: string[];
  defaults: LensDefaults;
  source: "built_in" | "tenant";
}

export const lensName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "lowercase letters, digits, - and _ (at most 40)");

const fields = searchInputSchema.shape;

/** A lens as a caller writes it; domains are normalised like include_domains. */
export const lensDefinition = z.strictObject({
  name: lensName,
  description: z.string().trim().max(300).default(""),
  domains: fields.include_domains
    .refine((domains) => domains.length > 0, "a lens needs at least one domain")
    .describe("Domains the lens keeps results to (subdomains included)"),
  time_range: fields.time_range,
  region: fields.region,
  safesearch: fields.safesearch,
});

export function lensFromRow(row: typeof lenses.$inferSelect): Lens {
  return {
    name: row.name,
    description: row.description,
    domains: row.domains,
    defaults: row.defaults,
    source: "tenant",
  };
}
