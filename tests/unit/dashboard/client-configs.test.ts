/**
 * The Connect page's client configurations: each parses in its client's format (JSON or TOML) and carries
 * the MCP URL and the token where that client reads them (the field names each client's documentation gives:
 * docs/decisions.md, "Client configurations"); the install links decode to the same server entry.
 */
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import {
  type ClientConfig,
  type ClientId,
  clientConfigs,
  TOKEN_PLACEHOLDER,
} from "@/lib/dashboard/client-configs";

const BASE = "https://searchmux.example";
const MCP = `${BASE}/api/mcp`;
const TOKEN = "smx_live_0123456789abcdefABCDEF";
const BEARER = { Authorization: `Bearer ${TOKEN}` };

const byId = (configs: ClientConfig[], id: ClientId): ClientConfig => {
  const config = configs.find((candidate) => candidate.id === id);
  if (!config) throw new Error(`no configuration for ${id}`);
  return config;
};

const parsed = (config: ClientConfig): unknown => {
  if (config.format === "json") return JSON.parse(config.snippet);
  if (config.format === "toml") return parseToml(config.snippet);
  throw new Error(`${config.id} is not a configuration file`);
};

describe("client configurations with a token", () => {
  const configs = clientConfigs(BASE, TOKEN);

  it("offers every documented client", () => {
    expect(configs.map((config) => config.id)).toEqual([
      "claude-code",
      "cursor",
      "vscode",
      "windsurf",
      "zed",
      "codex",
      "gemini",
      "cline",
      "claude-desktop",
      "curl",
    ]);
  });

  it.each<[ClientId, unknown]>([
    ["cursor", { mcpServers: { searchmux: { url: MCP, headers: BEARER } } }],
    ["vscode", { servers: { searchmux: { type: "http", url: MCP, headers: BEARER } } }],
    ["windsurf", { mcpServers: { searchmux: { serverUrl: MCP, headers: BEARER } } }],
    ["zed", { context_servers: { searchmux: { url: MCP, headers: BEARER } } }],
    ["codex", { mcp_servers: { searchmux: { url: MCP, http_headers: BEARER } } }],
    ["gemini", { mcpServers: { searchmux: { httpUrl: MCP, headers: BEARER } } }],
    ["cline", { mcpServers: { searchmux: { type: "streamableHttp", url: MCP, headers: BEARER } } }],
  ])("%s's file parses and holds the URL and the token where the client reads them", (id, expected) => {
    expect(parsed(byId(configs, id))).toEqual(expected);
  });

  it("gives the command-line and URL-only clients the URL and the token", () => {
    expect(byId(configs, "claude-code").snippet).toBe(
      `claude mcp add --transport http searchmux ${MCP} --header "Authorization: Bearer ${TOKEN}"`,
    );
    expect(byId(configs, "claude-desktop").snippet).toBe(`${MCP}/t/${TOKEN}`);
    expect(byId(configs, "curl").snippet).toContain(`-H "Authorization: Bearer ${TOKEN}"`);
  });

  it("links Cursor's install to the base64 server entry, by name", () => {
    const href = new URL(byId(configs, "cursor").install?.href ?? "");
    expect(`${href.protocol}//${href.host}${href.pathname}`).toBe(
      "cursor://anysphere.cursor-deeplink/mcp/install",
    );
    expect(href.searchParams.get("name")).toBe("searchmux");
    const config = href.search.match(/[?&]config=([^&]*)/)?.[1] ?? "";
    expect(JSON.parse(atob(config))).toEqual({ url: MCP, headers: BEARER });
  });

  it("links VS Code's install to the URL-encoded server entry with its name", () => {
    const href = byId(configs, "vscode").install?.href ?? "";
    expect(href.startsWith("vscode:mcp/install?")).toBe(true);
    expect(JSON.parse(decodeURIComponent(href.slice("vscode:mcp/install?".length)))).toEqual({
      name: "searchmux",
      type: "http",
      url: MCP,
      headers: BEARER,
    });
  });

  it("offers install links only for Cursor and VS Code", () => {
    expect(configs.filter((config) => config.install).map((config) => config.id)).toEqual([
      "cursor",
      "vscode",
    ]);
  });
});

describe("client configurations without a token", () => {
  const configs = clientConfigs(BASE);
  const prompt = {
    type: "promptString",
    id: "searchmux-token",
    description: "Searchmux API token (smx_…)",
    password: true,
  };
  // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's input variable, which the editor substitutes
  const prompted = { Authorization: "Bearer ${input:searchmux-token}" };

  it("shows the placeholder where the token goes", () => {
    expect(parsed(byId(configs, "cursor"))).toEqual({
      mcpServers: { searchmux: { url: MCP, headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } },
    });
  });

  it("has VS Code prompt for the token, in the file and in the install link", () => {
    expect(parsed(byId(configs, "vscode"))).toEqual({
      inputs: [prompt],
      servers: { searchmux: { type: "http", url: MCP, headers: prompted } },
    });
    const href = byId(configs, "vscode").install?.href ?? "";
    expect(JSON.parse(decodeURIComponent(href.slice("vscode:mcp/install?".length)))).toEqual({
      name: "searchmux",
      type: "http",
      url: MCP,
      headers: prompted,
      inputs: [prompt],
    });
  });

  it("offers no Cursor install, which would install the placeholder", () => {
    expect(byId(configs, "cursor").install).toBeUndefined();
  });
});
