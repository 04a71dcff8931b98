/**
 * MCP: failures as tool results (`isError: true`) rather than protocol errors, so the model sees why a
 * call failed and what it can do about it. Messages come from the verbs (budget exhausted with its
 * reset time, every provider's failure reason, the invalid field); unexpected errors reveal nothing.
 */
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ZodError } from "zod";
import { log } from "@/lib/observability/logger";
import { asServiceError, ServiceError, type ServiceErrorCode } from "@/lib/pipeline/errors";
import { invalidInputError } from "@/lib/pipeline/input-issues";

/** What the model can do next, by error class. */
const NEXT_STEP: Readonly<Record<ServiceErrorCode, string>> = {
  invalid_input: "Fix the arguments and call again.",
  unauthorized: "The token is no longer valid; the user must configure a new one.",
  forbidden: "This token does not allow this tool; do not retry.",
  not_found: "Check the identifier or URL; the same one will not be found again.",
  conflict: "Reload the current state and try again.",
  payload_too_large: "Send smaller arguments.",
  rate_limited: "Wait as long as the message says (else a minute) before calling again.",
  budget_exhausted:
    "Do not retry before the reset; call budget_status for details, or ask the user to raise the budget (or, for an operator quota, to add a provider key of their own).",
  all_providers_failed:
    "Retry later, or try other providers with the `providers` argument; budget_status lists what is configured.",
  no_provider_configured:
    "No provider for this tool is set up for this workspace; the user can add a provider key in the dashboard.",
  unavailable: "A service dependency is briefly away; retry in a few seconds.",
};

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

export function toolErrorFrom(error: unknown, tool: string): CallToolResult {
  // The engine's own schema checks throw zod's error; it reads as the verbs' invalid_input does.
  const known = error instanceof ZodError ? invalidInputError(error.issues) : asServiceError(error, { tool });
  if (known instanceof ServiceError) {
    return toolError(`${tool} failed (${known.code}): ${known.message}. ${NEXT_STEP[known.code]}`);
  }
  const reference = randomUUID();
  log().error({ err: error, tool, reference }, "mcp tool failed");
  return toolError(
    `${tool} failed with an internal error (reference ${reference}). Retry once; if it fails again, report the reference.`,
  );
}
