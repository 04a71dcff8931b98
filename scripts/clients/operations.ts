/**
 * The operations the clients (clients/typescript, clients/python) offer, read from the OpenAPI document the
 * app serves (lib/api/openapi.ts): every /api/v1 route, so a route added there appears in both clients at
 * the next `npm run build:client` without a change here. MCP, the compatibility endpoints and the
 * unauthenticated probes stay out: they have clients of their own.
 */
import { openApiDocument } from "@/lib/api/openapi";

/** A JSON Schema node as the document writes it. */
export type JsonSchema = { [key: string]: unknown };

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

export interface ClientOperation {
  /** The document's operationId (TypeScript's method name; Python's in snake_case). */
  id: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  summary: string;
  description?: string;
  /** `{name}` segments of the path, in order. */
  pathParams: string[];
  /** The query string's fields, as one object schema (properties and required). */
  query?: JsonSchema;
  body?: JsonSchema;
  /** The success response's schema (200, 201 or 202; with two, the first). */
  response: JsonSchema;
}

interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  parameters?: Array<{
    name: string;
    in: string;
    required: boolean;
    description?: string;
    schema: JsonSchema;
  }>;
  requestBody?: { content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, { content?: { "application/json"?: { schema: JsonSchema } } }>;
}

const SUCCESS = ["200", "201", "202"];
const CLIENT_PREFIX = "/api/v1/";

function queryObject(parameters: NonNullable<OperationObject["parameters"]>): JsonSchema | undefined {
  const query = parameters.filter((p) => p.in === "query");
  if (query.length === 0) return undefined;
  return {
    type: "object",
    properties: Object.fromEntries(
      query.map((p) => [p.name, p.description ? { ...p.schema, description: p.description } : p.schema]),
    ),
    required: query.filter((p) => p.required).map((p) => p.name),
  };
}

/** The client operations of `document`, in its order (the tools first, as the tool table lists them). */
export function clientOperations(document: OpenApiDocument = openApiDocument()): ClientOperation[] {
  const operations: ClientOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    if (!path.startsWith(CLIENT_PREFIX)) continue;
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as OperationObject;
      const status = SUCCESS.find((code) => op.responses[code]);
      const response = status ? op.responses[status]?.content?.["application/json"]?.schema : undefined;
      if (!response) throw new Error(`${method} ${path} has no JSON success response`);
      const query = queryObject(op.parameters ?? []);
      const body = op.requestBody?.content["application/json"].schema;
      operations.push({
        id: op.operationId,
        method: method as ClientOperation["method"],
        path,
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
        ...(query ? { query } : {}),
        ...(body ? { body } : {}),
        response,
      });
    }
  }
  return operations;
}
