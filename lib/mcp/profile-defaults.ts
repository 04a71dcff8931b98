/**
 * A tool's config under a connection profile's defaults (lib/tools/profile.ts): each defaulted argument's
 * schema gets the default as its `prefault`, the value parsed when the call leaves the argument out. The SDKs
 * parse a call's arguments with the registered schema, filling the schema's own defaults, so a profile's
 * default has to be in that schema to lose to nothing but an explicit argument; the tool list then shows the
 * model the connection's defaults. Configs are kept per tool and defaults (one object each, which the
 * 2026-07-28 adapter's JSON Schema cache keys by), a bounded number per process.
 */
import type { z } from "zod";
import type { ToolConfig } from "./offered";

const MAX_KEPT_PER_TOOL = 256;
const kept = new WeakMap<ToolConfig, Map<string, ToolConfig>>();

export function withDefaults(config: ToolConfig, defaults: Record<string, unknown> | undefined): ToolConfig {
  if (!defaults || Object.keys(defaults).length === 0) return config;
  let configs = kept.get(config);
  if (!configs) {
    configs = new Map();
    kept.set(config, configs);
  }
  const key = JSON.stringify(defaults);
  let profiled = configs.get(key);
  if (!profiled) {
    const shape = config.inputSchema.shape as Record<string, z.ZodType>;
    const fields = Object.fromEntries(
      Object.entries(defaults).flatMap(([name, value]) => {
        const field = shape[name];
        return field ? [[name, field.prefault(value as never)]] : [];
      }),
    );
    profiled = { ...config, inputSchema: config.inputSchema.safeExtend(fields) };
    if (configs.size >= MAX_KEPT_PER_TOOL) configs.clear();
    configs.set(key, profiled);
  }
  return profiled;
}
