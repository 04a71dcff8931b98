/**
 * The redaction every span passes before it is exported: Next.js' own server spans record the requested
 * URL (`http.target`, span names), and our URLs can carry credentials — the MCP token path
 * (/api/mcp/t/<token>), GPT-Researcher's `?api_key=`, invitation links. Each name, attribute, event,
 * link and status message goes through the same redaction as the logs (redact.ts).
 *
 * It runs as the first span processor (instrumentation.ts): a processor's onEnd receives the very span
 * object the exporting processors after it queue, and an ended span refuses `updateName` and
 * `setAttribute`, so the redaction rewrites the ended span's fields in place.
 */
import type { Attributes } from "@opentelemetry/api";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { redactText, redactValue } from "./redact";

/** ReadableSpan's fields are read-only in its type only; the SDK's span keeps them as plain properties. */
type Rewritable<T> = { -readonly [K in keyof T]: T[K] };

function redactAttributes(attributes: Attributes | undefined): void {
  if (attributes) Object.assign(attributes, redactValue(attributes));
}

function redactSpan(span: ReadableSpan): void {
  const target = span as Rewritable<ReadableSpan>;
  target.name = redactText(span.name);
  redactAttributes(span.attributes);
  for (const event of span.events) {
    (event as Rewritable<typeof event>).name = redactText(event.name);
    redactAttributes(event.attributes);
  }
  for (const link of span.links) redactAttributes(link.attributes);
  if (span.status.message) target.status = { ...span.status, message: redactText(span.status.message) };
}

export const redactingSpanProcessor: SpanProcessor = {
  onStart() {},
  onEnd: redactSpan,
  forceFlush: async () => {},
  shutdown: async () => {},
};
