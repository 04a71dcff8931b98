/** Copy-paste MCP client configurations for a deployment's base URL (token left as a placeholder). */
const TOKEN = "smx_YOUR_TOKEN";

export function clientConfigs(baseUrl: string) {
  const mcp = `${baseUrl}/api/mcp`;
  const json = (key: "mcpServers" | "servers") =>
    JSON.stringify(
      { [key]: { searchmux: { url: mcp, headers: { Authorization: `Bearer ${TOKEN}` } } } },
      null,
      2,
    );
  return [
    {
      client: "Claude Code",
      snippet: `claude mcp add --transport http searchmux ${mcp} --header "Authorization: Bearer ${TOKEN}"`,
    },
    { client: "Cursor (.cursor/mcp.json)", snippet: json("mcpServers") },
    { client: "VS Code (.vscode/mcp.json)", snippet: json("servers") },
    { client: "Claude Desktop / claude.ai (URL only — keep it secret)", snippet: `${mcp}/t/${TOKEN}` },
    {
      client: "curl (REST)",
      snippet: `curl -s ${baseUrl}/api/v1/search -H "Authorization: Bearer ${TOKEN}" -H 'content-type: application/json' -d '{"query": "rust async runtimes"}'`,
    },
  ];
}

export function ClientConfigs({ baseUrl }: { baseUrl: string }) {
  return (
    <ul className="space-y-4">
      {clientConfigs(baseUrl).map(({ client, snippet }) => (
        <li key={client}>
          <h3 className="text-sm font-medium">{client}</h3>
          <pre className="mt-1 overflow-x-auto rounded bg-zinc-100 px-3 py-2 font-mono text-xs dark:bg-zinc-900">
            {snippet}
          </pre>
        </li>
      ))}
    </ul>
  );
}
