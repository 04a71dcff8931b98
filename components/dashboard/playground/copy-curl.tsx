import { CodeBlock } from "@/components/ui/code-block";
import { curlCommand, type RestRoute } from "@/lib/dashboard/curl-command";

/**
 * A run as the REST call that does the same, to copy: the token stays $SEARCHMUX_TOKEN (the page never
 * holds one), folded away until asked for.
 */
export function CopyAsCurl({
  apiBase,
  route,
  input,
}: {
  apiBase: string;
  route: RestRoute;
  input: Readonly<Record<string, unknown>>;
}) {
  return (
    <details className="text-sm" data-testid="copy-as-curl">
      <summary className="cursor-pointer text-muted-foreground hover:text-foreground">
        Copy as curl (set SEARCHMUX_TOKEN to an API token)
      </summary>
      <CodeBlock code={curlCommand({ baseUrl: apiBase, route, input })} label="as curl" className="mt-2" />
    </details>
  );
}
