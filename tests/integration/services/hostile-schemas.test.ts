/**
 * A caller's JSON Schema costs at most its own request (issue: one small schema stalled or killed the
 * server). Ajv copied a definition into every place that referenced it, so a 5 KB schema (one definition of
 * 50 properties referenced 100 times) blocked the event loop for about 2 s and a 9 KB one (100 × 150) ran
 * the 256 MiB heap out, with `estimate: true` alone. Now references are counted among the limits, a schema is
 * compiled without inlining in a worker (heap and time caps), once, and kept by hash.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SCHEMA_REFS } from "@/lib/engine/extract/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { estimateExtract } from "@/lib/services/extract/estimate-extract";
import { estimateResearch } from "@/lib/services/research/estimate-research";
import { startResearch } from "@/lib/services/research/start-research";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { primaryTarget, type TestDatabase } from "@/tests/support/database";
import { ticksDuring } from "@/tests/support/event-loop-ticks";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

/** One definition of `properties` string properties, referenced from `references` properties of the root. */
function referencedDefinition(properties: number, references: number, salt: string) {
  const entry = {
    type: "object",
    properties: Object.fromEntries(
      Array.from({ length: properties }, (_, i) => [`${salt}_${i}`, { type: "string" }]),
    ),
  };
  return {
    type: "object",
    $defs: { entry },
    properties: Object.fromEntries(
      Array.from({ length: references }, (_, i) => [`r${i}`, { $ref: "#/$defs/entry" }]),
    ),
  };
}

const URL_ = "https://example.com/report";

describe.each(primaryTarget())("hostile JSON Schemas ($name)", (target) => {
  let t: TestDatabase;
  let ctx: TenantContext;

  beforeAll(async () => {
    t = await target.create();
    // An extractor is named so that an estimate gets past choosing one; nothing is ever called.
    const platform = testPlatform(t.db, {
      env: { SEARCHMUX_LLM_BASE_URL: "http://127.0.0.1:9/v1", SEARCHMUX_LLM_MODEL: "extractor" },
    });
    ctx = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "schemas" } })).id,
    );
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("refuses 150 references to a definition of 100 properties with invalid_input naming the limit, and lives on", async () => {
    const schema = referencedDefinition(100, 150, "wide");
    const limit = new RegExp(`uses \\$ref 150 times; at most ${MAX_SCHEMA_REFS} references`);
    await expect(estimateExtract({ ctx, input: { urls: [URL_], schema } })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(limit),
    });
    await expect(
      estimateResearch({ ctx, input: { question: "solar", output_schema: schema } }),
    ).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(limit) });
    // The process is still here, and so is its heap: a small schema's estimate answers.
    const small = { type: "object", properties: { a: { type: "string" } } };
    const { providers } = await estimateExtract({ ctx, input: { urls: [URL_], schema: small } });
    expect(providers).toContain("llm");
  });

  it("compiles 100 references to a definition of 50 properties in a worker, the event loop free meanwhile", async () => {
    const schema = referencedDefinition(50, 100, "compiled");
    const estimate = () => estimateExtract({ ctx, input: { urls: [URL_], schema } });
    // The first estimate compiles the schema (a worker start, Ajv loaded, the schema compiled: hundreds of
    // milliseconds however fast the machine); the second finds it compiled. Blocking the loop, the compile
    // let no timer run and both counts were alike.
    const compiling = await ticksDuring(estimate);
    const kept = await ticksDuring(estimate);
    expect(compiling.result).toEqual(kept.result);
    expect(compiling.ticks - kept.ticks).toBeGreaterThanOrEqual(20);
  });

  it("refuses a schema Ajv refuses when a research job would start, not when it runs", async () => {
    const invalid = { type: "object", properties: { a: { type: "strnig" } } };
    await expect(
      startResearch({ ctx, input: { question: "solar", output_schema: invalid } }),
    ).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/output_schema is not a valid JSON Schema \(2020-12\)/),
    });
  });
});
