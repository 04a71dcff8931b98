/**
 * `next build` imports every route and the modules behind them. With no AUTH_SECRET, the auth secret
 * is generated into the data directory; generated at import, it would land in the build output or image.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = mkdtempSync(path.join(tmpdir(), "smx-lazy-secret-"));
process.env.SEARCHMUX_DATA_DIR = dataDir;
// Zero configuration is the embedded database: with DATABASE_URL (as on CI) nothing may be generated.
process.env.DATABASE_URL = "";
delete process.env.AUTH_SECRET;
delete process.env.SEARCHMUX_SECRET_KEY;

describe("zero-configuration secrets", () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("are not created when the sign-in route and the platform are imported, as `next build` does", async () => {
    await import("@/app/api/auth/[...nextauth]/route");
    await import("@/lib/auth/session");
    await import("@/lib/pipeline/platform");
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("create the auth secret on first use, readable only by its owner, and reuse it", async () => {
    const { authOptions } = await import("@/lib/auth/options");
    const secret = authOptions().secret;
    const file = path.join(dataDir, "auth-secret");
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(readFileSync(file, "utf8")).toBe(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(authOptions().secret).toBe(secret);
  });
});
