/**
 * Transport: the REST route of a tool of the table (lib/tools/table.ts) — its path, its scope (any token
 * when it has none), its input from the JSON body (POST) or the query string (GET), its verb, its
 * response. A tool's route file is `export const POST = toolRoute(tools.<name>)`.
 */
import type { z } from "zod";
import type { Tool } from "@/lib/tools/tool";
import { readJsonBody } from "./body";
import { withToken } from "./with-token";

export function toolRoute<I extends z.ZodObject, O extends z.ZodObject>(tool: Tool<string, I, O>) {
  return withToken(
    async (request, { ctx }) => {
      // Untrusted as it arrives: the verb validates it with its own schema.
      const input =
        tool.rest.method === "post"
          ? await readJsonBody<z.input<I>>(request)
          : (Object.fromEntries(new URL(request.url).searchParams) as z.input<I>);
      const { response } = await tool.run(ctx, input, { signal: request.signal });
      return Response.json(response);
    },
    { route: tool.rest.path, scope: tool.scope ?? undefined },
  );
}
