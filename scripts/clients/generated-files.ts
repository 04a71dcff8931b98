/**
 * Every file the clients generate from the OpenAPI document, by path in the repository: what
 * `npm run build:client` writes and what tests/integration/clients/generated.test.ts compares with the
 * checked-in copies, so a route changed without regenerating fails the tests.
 */
import { openApiDocument } from "@/lib/api/openapi";
import { clientOperations, type JsonSchema } from "./operations";
import { pythonClient } from "./python-client";
import { TYPESCRIPT_CLIENT_DIR, typescriptOperations, typescriptSchema } from "./typescript-client";

export const PYTHON_CLIENT_FILE = "clients/python/searchmux.py";

export async function generatedClientFiles(): Promise<Record<string, string>> {
  const document = openApiDocument();
  const operations = clientOperations(document);
  return {
    [`${TYPESCRIPT_CLIENT_DIR}/src/schema.ts`]: await typescriptSchema(document),
    [`${TYPESCRIPT_CLIENT_DIR}/src/operations.ts`]: typescriptOperations(operations),
    [PYTHON_CLIENT_FILE]: pythonClient(operations, {
      components: document.components.schemas as Record<string, JsonSchema>,
      version: document.info.version,
    }),
  };
}
