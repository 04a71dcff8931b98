/**
 * Every token-authenticated route handler labels its metrics with its own template (its path under app/),
 * so a copied handler cannot report under another route's name.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const appDir = path.join(import.meta.dirname, "../../../app");
const routeFiles = readdirSync(path.join(appDir, "api"), { recursive: true, encoding: "utf8" })
  .filter((file) => path.basename(file) === "route.ts")
  .map((file) => path.join("api", file));

describe("route templates", () => {
  it.each(routeFiles)("%s passes its own template", (file) => {
    const source = readFileSync(path.join(appDir, file), "utf8");
    const wrapped = (source.match(/\bwithToken\b(<[^>]*>)?\(|\bmcpPost\b(<[^>]*>)?\(/g) ?? []).length;
    const templates = [...source.matchAll(/\broute: "([^"]*)"|\bmcpPost(?:<[^>]*>)?\("([^"]*)"/g)].map(
      (match) => match[1] ?? match[2],
    );
    const own = `/${path.dirname(file).split(path.sep).join("/")}`;
    expect(templates.length).toBeGreaterThanOrEqual(wrapped === 0 ? 0 : 1);
    for (const template of templates) expect(template).toBe(own);
  });
});
