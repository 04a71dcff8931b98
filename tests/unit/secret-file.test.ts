import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { readOrCreateSecret } from "@/lib/secret-file.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "smx-secret-file-"));
const moduleUrl = pathToFileURL(path.resolve("lib/secret-file.mjs")).href;
const run = promisify(execFile);

describe("readOrCreateSecret", () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("creates the file once, mode 0600, and leaves no temporary file behind", () => {
    const file = path.join(dir, "nested", "secret");
    const first = readOrCreateSecret(file, () => "first");
    expect(readOrCreateSecret(file, () => "second")).toBe(first);
    expect(first).toBe("first");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(["secret"]);
  });

  it("gives racing processes the same secret", async () => {
    const file = path.join(dir, "raced");
    const script = `import { readOrCreateSecret } from ${JSON.stringify(moduleUrl)};
      process.stdout.write(readOrCreateSecret(${JSON.stringify(file)}, () => String(process.pid)));`;
    const outputs = await Promise.all(
      Array.from({ length: 6 }, () => run(process.execPath, ["--input-type=module", "-e", script])),
    );
    expect(new Set(outputs.map((o) => o.stdout)).size).toBe(1);
  });

  it("refuses an empty file instead of using an empty secret", () => {
    const file = path.join(dir, "empty");
    writeFileSync(file, "\n");
    expect(() => readOrCreateSecret(file, () => "unused")).toThrow(/is empty/);
  });
});
