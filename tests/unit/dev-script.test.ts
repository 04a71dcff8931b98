/**
 * `npm run dev` as npm runs it (`sh -c <script>`), with `next` replaced by a stub that prints what it was
 * given: the development server listens on loopback unless HOST says otherwise, with the development
 * sign-in on unless AUTH_DEV_LOGIN says otherwise.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { dev: string } };
const stubDir = mkdtempSync(path.join(tmpdir(), "smx-dev-script-"));
writeFileSync(
  path.join(stubDir, "next"),
  '#!/bin/sh\nprintf \'%s\\n\' "AUTH_DEV_LOGIN=$AUTH_DEV_LOGIN" "$@"\n',
);
chmodSync(path.join(stubDir, "next"), 0o755);

function runDev(env: Record<string, string>): string[] {
  const { HOST: _host, AUTH_DEV_LOGIN: _devLogin, ...inherited } = process.env;
  const run = spawnSync("sh", ["-c", scripts.dev], {
    env: { ...inherited, ...env, PATH: `${stubDir}:${process.env.PATH ?? ""}` },
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  return run.stdout.trim().split("\n");
}

afterAll(() => rmSync(stubDir, { recursive: true, force: true }));

describe("npm run dev", () => {
  it("listens on localhost (loopback) with the development sign-in when nothing is set", () => {
    expect(runDev({})).toEqual(["AUTH_DEV_LOGIN=1", "dev", "-H", "localhost"]);
    expect(runDev({ HOST: "" })).toEqual(["AUTH_DEV_LOGIN=1", "dev", "-H", "localhost"]);
  });

  it("listens where HOST says, and leaves the development sign-in to AUTH_DEV_LOGIN", () => {
    expect(runDev({ HOST: "0.0.0.0", AUTH_DEV_LOGIN: "0" })).toEqual([
      "AUTH_DEV_LOGIN=0",
      "dev",
      "-H",
      "0.0.0.0",
    ]);
    expect(runDev({ HOST: "::1" })).toEqual(["AUTH_DEV_LOGIN=1", "dev", "-H", "::1"]);
  });
});
