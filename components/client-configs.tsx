import { Download } from "lucide-react";
import { type ClientConfig, clientConfigs } from "@/lib/dashboard/client-configs";
import { Button } from "./ui/button";
import { CodeBlock } from "./ui/code-block";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "./ui/tabs";

/** The client's one-click install, which opens the client itself (the token never passes a web page). */
function InstallLink({ id, install }: ClientConfig) {
  if (!install) return null;
  return (
    <Button asChild variant="outline" size="sm">
      <a href={install.href} data-testid={`install-${id}`}>
        <Download aria-hidden />
        {install.label}
      </a>
    </Button>
  );
}

/** Copy-paste MCP client configurations (and install links) for a deployment's base URL and a token. */
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
      {configs.map((config) => (
        <TabsContent key={config.id} value={config.id} className="space-y-2">
          <p className="text-sm text-muted-foreground">{config.where}</p>
          <InstallLink {...config} />
          <CodeBlock code={config.snippet} label={`${config.client} configuration`} />
        </TabsContent>
      ))}
    </Tabs>
  );
}
