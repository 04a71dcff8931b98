import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";

describe("loadConfig", () => {
  it.each([
    [{}, "embedded"],
    [{ DATABASE_URL: "  " }, "embedded"],
    [{ DATABASE_URL: "postgres://u:p@db.internal:5432/app" }, "pg"],
    [
      { DATABASE_URL: "postgresql://u:p@ep-cool-1.eu-central-1.aws.neon.tech/neondb?sslmode=require" },
      "neon",
    ],
    [{ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test", SEARCHMUX_DB_DRIVER: "neon" }, "neon"],
    [{ SEARCHMUX_DB_DRIVER: "pg" }, "embedded"],
  ])("picks the driver for %o", (env, driver) => {
    expect(loadConfig(env).database.driver).toBe(driver);
  });

  it("opens at most 10 database connections, or DATABASE_POOL_MAX", () => {
    expect(loadConfig({}).database.poolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_MAX: " 3 " }).database.poolSize).toBe(3);
    for (const bad of ["0", "2.5", "many"]) {
      expect(() => loadConfig({ DATABASE_POOL_MAX: bad })).toThrow(
        `DATABASE_POOL_MAX must be a whole number`,
      );
    }
  });

  it("keeps the embedded database under .data by default, or SEARCHMUX_DATA_DIR", () => {
    expect(loadConfig({}).dataDir).toBe(`${process.cwd()}/.data`);
    expect(loadConfig({ SEARCHMUX_DATA_DIR: "/var/lib/searchmux" }).dataDir).toBe("/var/lib/searchmux");
  });

  it.each([
    [{ AUTH_DEV_LOGIN: "1" }, true],
    [{ AUTH_DEV_LOGIN: "0" }, false],
    [{}, false],
    [{ AUTH_DEV_LOGIN: "1", NODE_ENV: "production" }, false],
    [{ AUTH_DEV_LOGIN: "1", NODE_ENV: "production", AUTH_DEV_LOGIN_ALLOW_PRODUCTION: "1" }, true],
    [{ NODE_ENV: "production", AUTH_DEV_LOGIN_ALLOW_PRODUCTION: "1" }, false],
  ])("development sign-in for %o is %s", (env, enabled) => {
    expect(loadConfig(env).auth.devLogin).toBe(enabled);
  });

  it("offers OAuth providers only when both id and secret are set", () => {
    expect(loadConfig({ GITHUB_ID: "id" }).auth.github).toBeUndefined();
    expect(loadConfig({ GITHUB_ID: "id", GITHUB_SECRET: "s" }).auth.github).toEqual({
      clientId: "id",
      clientSecret: "s",
    });
    expect(loadConfig({ GOOGLE_ID: "g", GOOGLE_SECRET: "t" }).auth.google).toEqual({
      clientId: "g",
      clientSecret: "t",
    });
  });

  it("rejects an unknown database driver", () => {
    expect(() => loadConfig({ SEARCHMUX_DB_DRIVER: "mysql" })).toThrow();
  });
});
