/**
 * What every Searchmux MCP server is constructed with, whatever its revision, tenant or mode (hosted, or the
 * stdio bridge's local tools): its identity, the input limit and the JSON Schema validator.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import packageJson from "@/package.json";

/** Far above any valid input (100 domains, 50 providers); refuses 10k-element arrays before zod runs. */
const MAX_TOOL_INPUT_ELEMENTS = 1_000;

export const SERVER_INFO = { name: "searchmux", title: "Searchmux", version: packageJson.version };

let sharedValidator: AjvJsonSchemaValidator | undefined;

/**
 * One validator per process for the servers of both SDKs (its type fits both): each would otherwise build
 * one for every request's server. Neither SDK validates a tool call with it, only elicitation answers,
 * which Searchmux never asks for.
 */
export function serverOptions(instructions: string) {
  sharedValidator ??= new AjvJsonSchemaValidator();
  return {
    instructions,
    maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
    jsonSchemaValidator: sharedValidator,
  };
}
