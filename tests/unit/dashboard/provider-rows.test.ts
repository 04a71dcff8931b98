import { describe, expect, it } from "vitest";
import { kindsWithoutProvider, type ProviderRow } from "@/lib/dashboard/provider-rows";

const row = (id: string, kinds: ProviderRow["kinds"], state: ProviderRow["state"]): ProviderRow => ({
  id,
  name: id,
  kinds,
  takesKey: state !== "keyless",
  configuredByWorkspace: false,
  state,
  key: null,
  freeTier: null,
  link: null,
});

describe("kindsWithoutProvider", () => {
  it("names only the kinds no provider can serve, with the providers a key would enable", () => {
    const rows = [
      row("duckduckgo", ["search"], "keyless"),
      row("brave", ["search"], "no_key"),
      row("tavily", ["search", "answer"], "no_key"),
      row("perplexity", ["answer"], "no_key"),
      row("llm", ["answer"], "not_configured"),
    ];
    expect(kindsWithoutProvider(rows)).toEqual([{ kind: "answer", needsKeyOf: [rows[2], rows[3]] }]);
  });

  it("is empty once every kind has a usable provider", () => {
    const rows = [row("tavily", ["search", "answer"], "your_key"), row("brave", ["search"], "no_key")];
    expect(kindsWithoutProvider(rows)).toEqual([]);
  });
});
