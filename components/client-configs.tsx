import { CodeBlock } from "./ui/code-block";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "./ui/tabs";

/** Stands in for a token the page does not know (it is shown only once, when created). */
const TOKEN_PLACEHOLDER = "smx_YOUR_TOKEN";

/** Copy-paste MCP client configurations for a deployment's base URL and a token. */
function clientConfigs(baseUrl: string, token = TOKEN_PLACEHOLDER) {
  const mcp = `${baseUrl}/api/mcp`;
  const json = (key: "mcpServers" | "servers") =>
    JSON.stringify(
      { [key]: { searchmux: { url: mcp, headers: { Authorization: `Bearer ${token}` } } } },
      null,
      2,
    );
  return [
    {
      id: "claude-code",
      client: "Claude Code",
      where: "Run in a terminal.",
      snippet: `claude mcp add --transport http searchmux ${mcp} --header "Authorization: Bearer ${token}"`,
    },
    { id: "cursor", client: "Cursor", where: "Add to .cursor/mcp.json.", snippet: json("mcpServers") },
    { id: "vscode", client: "VS Code", where: "Add to .vscode/mcp.json.", snippet: json("servers") },
    {
      id: "claude-desktop",
      client: "Claude Desktop / claude.ai",
      where:
        "Settings → Connectors → Add custom connector, paste this URL. It contains the token: keep it secret.",
      snippet: `${mcp}/t/${token}`,
    },
    {
      id: "curl",
      client: "curl",
      where: "REST, for scripts and a quick check.",
      snippet: `curl -s ${baseUrl}/api/v1/search -H "Authorization: Bearer ${token}" -H 'content-type: application/json' -d '{"query": "rust async runtimes"}'`,
    },
  ];
}

export function ClientConfigs({ baseUrl, token }: { baseUrl: string; token?: string }) {
  const configs = clientConfigs(baseUrl, token);
  return (
    <Tabs defaultValue={configs[0]?.id}>
      <TabsList aria-label="MCP client">
        {configs.map(({ id, client }) => (
          <TabsTrigger key={id} value={id}>
            {client}
          </TabsTrigger>
        ))}
      </TabsList>
      {configs.map(({ id, client, where, snippet }) => (
        <TabsContent key={id} value={id} className="space-y-2">
          <p className="text-sm text-muted-foreground">{where}</p>
          <CodeBlock code={snippet} label={`${client} configuration`} />
        </TabsContent>
      ))}
    </Tabs>
  );
}
