/**
 * The layering rules in biome.json fail the lint on a wrong-way import: each case writes one probe file
 * into a scratch copy of the repository layout and lints it with the project's own configuration.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const scratch = mkdtempSync(path.join(tmpdir(), "smx-layering-"));
copyFileSync("biome.json", path.join(scratch, "biome.json"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BIOME = path.resolve("node_modules/.bin/biome");

/** The noRestrictedImports diagnostics of a file at `file` that imports `specifier`. */
function restrictedImports(file: string, specifier: string): number {
  const target = path.join(scratch, file);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, `import { probe } from "${specifier}";\n\nexport const used = probe;\n`);
  try {
    const run = spawnSync(BIOME, ["lint", "--vcs-enabled=false", "--max-diagnostics=50", file], {
      cwd: scratch,
      encoding: "utf8",
    });
    return (`${run.stdout}${run.stderr}`.match(/lint\/style\/noRestrictedImports/g) ?? []).length;
  } finally {
    rmSync(target);
  }
}

describe("layering rules", () => {
  it.each([
    ["lib/http/probe.ts", "@/lib/engine/shared/abort"],
    ["lib/db/probe.ts", "@/lib/pipeline/context"],
    ["lib/kv/probe.ts", "next/server"],
    ["lib/engine/search/probe.ts", "@/lib/db"],
    ["lib/engine/fetch/probe.ts", "@/lib/providers/fetch"],
    ["lib/providers/search/probe.ts", "@/lib/pipeline/context"],
    ["lib/engine/search/probe.ts", "@/lib/pipeline/run-call"],
    ["lib/pipeline/probe.ts", "@/lib/services/search/web-search"],
    ["lib/pipeline/budgets/probe.ts", "@/lib/tools/table"],
    ["lib/services/search/probe.ts", "@/lib/api/errors"],
    ["lib/services/search/probe.ts", "next/headers"],
    ["lib/tools/probe.ts", "@/lib/mcp/build-server"],
    ["lib/mcp/probe.ts", "@/lib/providers/search/brave"],
    ["components/probe.tsx", "@/app/layout"],
    ["app/api/probe/route.ts", "@/lib/providers/search"],
    ["lib/services/search/probe.ts", "../shared/types"],
  ])("%s may not import %s", (file, specifier) => {
    expect(restrictedImports(file, specifier)).toBe(1);
  });

  it.each([
    ["lib/engine/search/probe.ts", "@/lib/http/abort"],
    ["lib/providers/search/probe.ts", "@/lib/engine/shared/types"],
    ["lib/services/search/probe.ts", "@/lib/db"],
    ["lib/tools/probe.ts", "@/lib/pipeline/context"],
    ["lib/services/search/probe.ts", "@/lib/pipeline/run-call"],
    ["lib/pipeline/probe.ts", "@/lib/engine/shared/types"],
    ["lib/mcp/probe.ts", "@/lib/tools/table"],
    ["app/api/probe/route.ts", "@/lib/api/with-token"],
    ["lib/services/search/probe.ts", "./sibling"],
  ])("%s may import %s", (file, specifier) => {
    expect(restrictedImports(file, specifier)).toBe(0);
  });
});
