/**
 * The OpenAPI document's `info.description` (Markdown): the API reference page's introduction, with the
 * clients' install and first call (the README's too; tests/integration/clients/ runs both clients).
 */
export const API_DESCRIPTION = `A search gateway for AI agents: fused web search, fetch, answers and papers over many providers.

Send \`Authorization: Bearer smx_…\` with every call: create a token on the dashboard's Connect page, or
pick "Try it in the API reference" when you create one to fill it into the examples here (it stays in
this browser tab). Errors are \`{"error": {"code", "message", "details?"}}\`; a 429 carries \`Retry-After\`.

## Clients

Both are generated from this document, one method per operation, named after its operationId.

**TypeScript**: \`@searchmux/client\` (types by openapi-typescript, openapi-fetch bundled: no dependencies).
Pack it in a checkout with \`npm run build:client\`, then \`npm install\` the tarball it names
(\`clients/typescript/searchmux-client-<version>.tgz\`).

\`\`\`ts
import { Searchmux } from "@searchmux/client";

const smx = new Searchmux({ token: process.env.SEARCHMUX_TOKEN, baseUrl: "https://searchmux.example" });
const { results } = await smx.webSearch({ query: "rust async runtimes", max_results: 5 });
for (const result of results) console.log(result.title, result.url);
\`\`\`

Failures throw \`SearchmuxError\` with \`status\`, \`code\`, \`message\` and \`retryAfter\` (seconds).

**Python**: \`clients/python/searchmux.py\`, one file, standard library only (Python 3.8+): copy it beside
your code.

\`\`\`python
from searchmux import Searchmux

smx = Searchmux(token="smx_...", base_url="https://searchmux.example")
for result in smx.web_search(query="rust async runtimes", max_results=5)["results"]:
    print(result["title"], result["url"])
\`\`\`

Methods are the operationIds in snake_case (\`web_search\`, \`fetch_page\`, \`start_research\`, …);
\`research()\` starts a job and polls it until it ends. Failures raise \`SearchmuxError\` with \`status\`,
\`code\`, \`message\` and \`retry_after\`.`;
