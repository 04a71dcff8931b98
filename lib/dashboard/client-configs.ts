/**
 * How each MCP client is pointed at a workspace: copy-paste configurations in each client's own format
 * (checked against the clients' documentation, see docs/decisions.md "Client configurations") and one-click
 * install links for Cursor and VS Code. Pure functions of the deployment's base URL and a token; a token the
 * page does not know (it is shown only once) is a placeholder, except in VS Code, which asks for it.
 */

/** Stands in for a token the page does not know. */
export const TOKEN_PLACEHOLDER = "smx_YOUR_TOKEN";

/** The server's name in every client's configuration. */
const SERVER_NAME = "searchmux";

/** VS Code's input variable: the editor prompts for the token and keeps it in its secret storage. */
const VSCODE_TOKEN_INPUT = {
  type: "promptString",
  id: "searchmux-token",
  description: "Searchmux API token (smx_…)",
  password: true,
} as const;

export type ClientId =
  | "claude-code"
  | "cursor"
  | "vscode"
  | "windsurf"
  | "zed"
  | "codex"
  | "gemini"
  | "cline"
  | "claude-desktop"
  | "curl";

export interface ClientConfig {
  id: ClientId;
  client: string;
  /** Where the snippet goes, for a person. */
  where: string;
  snippet: string;
  format: "json" | "toml" | "shell" | "url";
  /** A link that installs the server in the client, when the client has one. */
  install?: { label: string; href: string };
}

type AuthHeaders = { Authorization: string };

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** VS Code's server entry: the token itself, or a prompt for it when the page does not know it. */
function vscodeServer(url: string, token: string | undefined) {
  const bearer = token ?? `\${input:${VSCODE_TOKEN_INPUT.id}}`;
  return { type: "http", url, headers: { Authorization: `Bearer ${bearer}` } };
}

/** The `inputs` VS Code needs next to a server entry that prompts for the token. */
const vscodeInputs = (token: string | undefined) =>
  token === undefined ? { inputs: [VSCODE_TOKEN_INPUT] } : {};

/** Base64 of UTF-8 text, in the browser as on the server. */
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

/** `cursor://…/mcp/install?name=…&config=<base64 of the server entry>`, as Cursor's MCP install links are made. */
function cursorInstallLink(url: string, headers: AuthHeaders): string {
  const config = base64(JSON.stringify({ url, headers }));
  return `cursor://anysphere.cursor-deeplink/mcp/install?name=${SERVER_NAME}&config=${config}`;
}

/**
 * `vscode:mcp/install?<URL-encoded server entry with its name>` (VS Code's MCP URL handler). The web redirect
 * (vscode.dev/redirect/…) is not used: it would send the token to a third party's server in the query string.
 */
function vscodeInstallLink(url: string, token: string | undefined): string {
  const entry = { name: SERVER_NAME, ...vscodeServer(url, token), ...vscodeInputs(token) };
  return `vscode:mcp/install?${encodeURIComponent(JSON.stringify(entry))}`;
}

/** A TOML basic string; JSON's escaping is valid TOML for the characters a URL or token holds. */
const tomlString = (value: string) => JSON.stringify(value);

/** Every client's configuration for the MCP endpoint of `baseUrl`, with `token` or the placeholder. */
export function clientConfigs(baseUrl: string, token?: string): ClientConfig[] {
  const url = `${baseUrl}/api/mcp`;
  const shown = token ?? TOKEN_PLACEHOLDER;
  const headers: AuthHeaders = { Authorization: `Bearer ${shown}` };
  return [
    {
      id: "claude-code",
      client: "Claude Code",
      where: "Run in a terminal.",
      snippet: `claude mcp add --transport http ${SERVER_NAME} ${url} --header "Authorization: Bearer ${shown}"`,
      format: "shell",
    },
    {
      id: "cursor",
      client: "Cursor",
      where: "Add to ~/.cursor/mcp.json (every project) or .cursor/mcp.json (this project).",
      snippet: pretty({ mcpServers: { [SERVER_NAME]: { url, headers } } }),
      format: "json",
      install:
        token === undefined ? undefined : { label: "Add to Cursor", href: cursorInstallLink(url, headers) },
    },
    {
      id: "vscode",
      client: "VS Code",
      where:
        token === undefined
          ? "Add to .vscode/mcp.json; VS Code asks for the token once and keeps it in its secret storage."
          : "Add to .vscode/mcp.json.",
      snippet: pretty({ ...vscodeInputs(token), servers: { [SERVER_NAME]: vscodeServer(url, token) } }),
      format: "json",
      install: { label: "Add to VS Code", href: vscodeInstallLink(url, token) },
    },
    {
      id: "windsurf",
      client: "Windsurf",
      where: "Add to ~/.codeium/windsurf/mcp_config.json, then refresh the MCP servers in Cascade.",
      snippet: pretty({ mcpServers: { [SERVER_NAME]: { serverUrl: url, headers } } }),
      format: "json",
    },
    {
      id: "zed",
      client: "Zed",
      where: "Add to Zed's settings.json (command palette: zed: open settings).",
      snippet: pretty({ context_servers: { [SERVER_NAME]: { url, headers } } }),
      format: "json",
    },
    {
      id: "codex",
      client: "Codex CLI",
      where:
        'Add to ~/.codex/config.toml. To keep the token out of the file, write bearer_token_env_var = "SEARCHMUX_TOKEN" instead of http_headers and export SEARCHMUX_TOKEN.',
      snippet: [
        `[mcp_servers.${SERVER_NAME}]`,
        `url = ${tomlString(url)}`,
        `http_headers = { Authorization = ${tomlString(headers.Authorization)} }`,
      ].join("\n"),
      format: "toml",
    },
    {
      id: "gemini",
      client: "Gemini CLI",
      where: "Add to ~/.gemini/settings.json (httpUrl is Streamable HTTP; url would mean SSE).",
      snippet: pretty({ mcpServers: { [SERVER_NAME]: { httpUrl: url, headers } } }),
      format: "json",
    },
    {
      id: "cline",
      client: "Cline",
      where: "MCP Servers → Configure → Configure MCP Servers opens cline_mcp_settings.json; add:",
      snippet: pretty({ mcpServers: { [SERVER_NAME]: { type: "streamableHttp", url, headers } } }),
      format: "json",
    },
    {
      id: "claude-desktop",
      client: "Claude Desktop / claude.ai",
      where:
        "Settings → Connectors → Add custom connector, paste this URL. It contains the token: keep it secret.",
      snippet: `${url}/t/${shown}`,
      format: "url",
    },
    {
      id: "curl",
      client: "curl",
      where: "REST, for scripts and a quick check.",
      snippet: `curl -s ${baseUrl}/api/v1/search -H "Authorization: Bearer ${shown}" -H 'content-type: application/json' -d '{"query": "rust async runtimes"}'`,
      format: "shell",
    },
  ];
}
