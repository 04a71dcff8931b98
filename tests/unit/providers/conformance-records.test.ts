/**
 * Every registered adapter has its conformance record (docs/providers/<kind>/<id>.md), and every row of a
 * record's tables names where it was read: the list of adapters comes from the registries, so an adapter added
 * tomorrow fails here until its record is written.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ProviderRegistration } from "@/lib/engine/shared/types";
import { PROVIDER_REGISTRIES } from "@/lib/pipeline/providers/catalog";
import { similarProviders } from "@/lib/providers/similar";

const RECORDS = path.resolve("docs/providers");

const adapters: Array<[string, ProviderRegistration]> = [
  ...PROVIDER_REGISTRIES.flatMap(([kind, registry]) =>
    registry.map((provider): [string, ProviderRegistration] => [kind, provider]),
  ),
  ...similarProviders.map((provider): [string, ProviderRegistration] => ["similar", provider]),
];

/**
 * An adapter's record: `<kind>/<id>.md`, or the record of that kind whose title names the id (one record covers
 * the operator's model and a workspace's own, `llm` and `workspace_llm`, which speak the same wire).
 */
function recordPath(kind: string, provider: ProviderRegistration): string {
  const own = path.join(RECORDS, kind, `${provider.id}.md`);
  if (existsSync(own) || !existsSync(path.join(RECORDS, kind))) return own;
  const shared = readdirSync(path.join(RECORDS, kind)).find((file) =>
    readFileSync(path.join(RECORDS, kind, file), "utf8")
      .split("\n")[0]
      ?.includes(`\`${provider.id}\``),
  );
  return shared === undefined ? own : path.join(RECORDS, kind, shared);
}

const isSeparator = (cells: readonly string[]) => cells.every((cell) => /^:?-+:?$/.test(cell));

/** The cells of each body row of a Markdown text's tables: header rows (above a separator) left out. */
function tableRows(markdown: string): string[][] {
  const rows = markdown
    .split("\n")
    .filter((line) => line.trimStart().startsWith("|"))
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, "")
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  return rows.filter((cells, i) => !isSeparator(cells) && !isSeparator(rows[i + 1] ?? []));
}

describe("conformance records", () => {
  it.each(adapters.map(([kind, provider]) => [`${kind}/${provider.id}`, kind, provider] as const))(
    "%s has a record",
    (_name, kind, provider) => {
      expect(existsSync(recordPath(kind, provider)), `a record of ${kind}/${provider.id}`).toBe(true);
    },
  );

  it.each(
    adapters
      .filter(([kind, provider]) => existsSync(recordPath(kind, provider)))
      .map(([kind, provider]) => [`${kind}/${provider.id}`, kind, provider] as const),
  )("%s names a source for every row and the date it was checked", (_name, kind, provider) => {
    const record = readFileSync(recordPath(kind, provider), "utf8");
    expect(record).toMatch(/checked\s+2\d{3}-\d{2}-\d{2}/i);
    const rows = tableRows(record);
    expect(rows.length).toBeGreaterThan(0);
    for (const cells of rows) {
      // The last column holds the row's source (a file of the provider's, a page, or "not checkable").
      expect(cells.at(-1), cells.join(" | ")).toMatch(/\S/);
    }
  });
});
