/**
 * The clients in the repository are what the OpenAPI document generates now (scripts/build-client.ts): a
 * route added or changed without `npm run build:client` fails here. Every tool of the table has its method.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOOLS } from "@/lib/tools/table";
import { generatedClientFiles, PYTHON_CLIENT_FILE } from "@/scripts/clients/generated-files";
import { TYPESCRIPT_CLIENT_DIR } from "@/scripts/clients/typescript-client";

describe("generated clients", () => {
  it("match the OpenAPI document (run npm run build:client after changing a route)", async () => {
    const files = await generatedClientFiles();
    expect(Object.keys(files).length).toBe(3);
    for (const [file, contents] of Object.entries(files)) {
      expect(readFileSync(file, "utf8"), `${file} is stale: run npm run build:client`).toBe(contents);
    }
  }, 120_000);

  it("have a method for every tool's REST route", () => {
    const python = readFileSync(PYTHON_CLIENT_FILE, "utf8");
    const operations = readFileSync(`${TYPESCRIPT_CLIENT_DIR}/src/operations.ts`, "utf8");
    for (const { rest } of TOOLS) {
      const snake = rest.operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      expect(python).toContain(`    def ${snake}(\n`);
      expect(python).toContain(`"${rest.method.toUpperCase()}", "${rest.path}"`);
      expect(operations).toContain(`  ${rest.operationId}: { method: "${rest.method}", path: "${rest.path}"`);
    }
  });
});
