/**
 * Next.js calls this once per server instance. With an OTLP endpoint configured, tool calls and
 * requests are exported through OpenTelemetry (@vercel/otel reads the standard OTEL_* variables), every
 * span redacted first (URLs can carry tokens); then the configuration is checked (a missing shared
 * secret, a price override that does not parse or a build without its worker bundles stops the start)
 * and the Node-only background work starts (lib/services/background.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { registerOTel } = await import("@vercel/otel");
    const { redactingSpanProcessor } = await import("./lib/observability/span-redaction");
    registerOTel({
      serviceName: process.env.OTEL_SERVICE_NAME ?? "searchmux",
      // First: the exporting processors that "auto" stands for receive the spans it has redacted.
      spanProcessors: [redactingSpanProcessor, "auto"],
    });
  }
  const { checkServerStart } = await import("./lib/server-start");
  const { priceOverridesProblem } = await import("./lib/pipeline/providers/prices");
  const { workerBundleProblem } = await import("./lib/engine/shared/worker-bundle");
  await checkServerStart([priceOverridesProblem, workerBundleProblem]);
  const { startBackgroundTasks } = await import("./lib/services/background");
  await startBackgroundTasks();
}
