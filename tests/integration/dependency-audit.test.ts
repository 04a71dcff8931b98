/**
 * CI's dependency audit (scripts/audit-deps.mjs) against a local registry that answers npm's bulk advisory
 * endpoint as the real one does: a high advisory for a package the server runs fails it, naming the
 * package; one for a build or test tool, or a moderate one, does not; a registry that refuses the
 * endpoint (the machine's own answers 405) is reported and passes unless SEARCHMUX_AUDIT_REQUIRED=1.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, { version: string }>;
};
const installed = (name: string) => lock.packages[`node_modules/${name}`]?.version ?? "0.0.0";

interface Advisory {
  name: string;
  severity: "moderate" | "high" | "critical";
}
let advisories: Advisory[] = [];
let refuse = false;
/** What npm sent to the bulk endpoint: package name → versions. */
let asked: Record<string, string[]> = {};
let registry: Server;
/** npm's own cache, apart: it keeps what it computed of an advisory by the advisory's id. */
const npmCache = mkdtempSync(path.join(tmpdir(), "smx-audit-cache-"));
let registryUrl = "";

let advisoryIds = 1_000;
function advisoryBody(advisory: Advisory, index: number) {
  return {
    id: advisoryIds++,
    url: `https://github.com/advisories/GHSA-test-${index}`,
    title: `Test advisory for ${advisory.name}`,
    severity: advisory.severity,
    vulnerable_versions: `<=${installed(advisory.name)}`,
    cwe: ["CWE-400"],
    cvss: { score: 7.5, vectorString: null },
  };
}

beforeAll(async () => {
  registry = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://registry");
      if (request.method === "POST" && url.pathname === "/-/npm/v1/security/advisories/bulk") {
        if (refuse) {
          response.writeHead(405, { allow: "GET,HEAD" }).end();
          return;
        }
        const raw = Buffer.concat(chunks);
        const body = request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
        asked = JSON.parse(body.toString("utf8"));
        const answer: Record<string, unknown[]> = {};
        advisories.forEach((advisory, index) => {
          if (asked[advisory.name]) answer[advisory.name] = [advisoryBody(advisory, index)];
        });
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
        return;
      }
      // The packument npm reads to tell which versions an advisory covers.
      const name = decodeURIComponent(url.pathname.slice(1));
      const version = installed(name);
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          name,
          "dist-tags": { latest: version },
          versions: { [version]: { name, version, dist: { tarball: `${registryUrl}${name}/-/x.tgz` } } },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => registry.close(() => resolve()));
  rmSync(npmCache, { recursive: true, force: true });
});

/** The audit as CI runs it, against the local registry: its exit code and output. */
async function audit(env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/audit-deps.mjs"], {
      // Every request to the local registry: no update check reaches npm's own.
      env: {
        ...process.env,
        npm_config_registry: registryUrl,
        npm_config_cache: npmCache,
        npm_config_update_notifier: "false",
        ...env,
      },
      timeout: 120_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("the dependency audit", () => {
  it("audits the run-time dependencies only and passes without advisories", async () => {
    advisories = [];
    refuse = false;
    const result = await audit();
    expect(result.code).toBe(0);
    expect(Object.keys(asked)).toEqual(expect.arrayContaining(["next", "zod", "drizzle-orm"]));
    expect(Object.keys(asked)).not.toContain("vitest");
    expect(result.output).toMatch(/0 critical, 0 high/);
  });

  it("fails on a high advisory for a package the server runs, naming it", async () => {
    advisories = [{ name: "zod", severity: "high" }];
    const result = await audit();
    expect(result.code).toBe(1);
    expect(result.output).toContain("high zod");
    expect(result.output).toContain("Test advisory for zod");
  });

  it("passes a moderate advisory", async () => {
    advisories = [{ name: "zod", severity: "moderate" }];
    const result = await audit();
    expect(result.output).toMatch(/1 moderate/);
    expect(result.code).toBe(0);
  });

  it("reports a registry that refuses the endpoint, failing only when an audit is required", async () => {
    refuse = true;
    const passed = await audit();
    expect(passed.code).toBe(0);
    expect(passed.output).toContain("refused the audit endpoint (HTTP 405); nothing was audited");
    expect((await audit({ SEARCHMUX_AUDIT_REQUIRED: "1" })).code).toBe(1);
    refuse = false;
  });
});
