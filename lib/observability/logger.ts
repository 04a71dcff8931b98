/**
 * Structured JSON logs (pino). Each line carries the request id of the work it belongs to. Every
 * argument goes through the same redaction as traces (secret-named fields, token and key shapes in
 * any string, error messages and stacks included), so a header object or an upstream error message
 * cannot leak a credential.
 */
import pino, { type DestinationStream, type Logger } from "pino";
import { config } from "@/lib/config";
import { metrics } from "./metrics";
import { redactText, redactValue } from "./redact";
import { currentRequestScope } from "./request-scope";

const describeError = (error: Error) => ({ type: error.name, message: error.message, stack: error.stack });

function redactArgument(arg: unknown): unknown {
  if (typeof arg === "string") return redactText(arg);
  if (arg instanceof Error) return redactValue({ err: describeError(arg) });
  if (arg && typeof arg === "object" && "err" in arg && arg.err instanceof Error) {
    return redactValue({ ...arg, err: describeError(arg.err) });
  }
  return redactValue(arg);
}

/** What the stdout buffer may hold while stdout does not drain (a blocked pipe); beyond it lines are dropped. */
const MAX_BUFFERED_LOG_BYTES = 8 * 1024 * 1024;

/**
 * Buffered, asynchronous stdout: a log line must not cost a request a write syscall. pino flushes it on
 * exit. The buffer is bounded: a reader that stops draining costs log lines (counted), never memory.
 */
function stdout(): DestinationStream {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
    maxLength: MAX_BUFFERED_LOG_BYTES,
  });
  destination.on("drop", () => metrics().dropped.inc({ queue: "logs" }));
  return destination;
}

export function createLogger(destination: DestinationStream = stdout(), level = config().logLevel): Logger {
  return pino(
    {
      level,
      base: { service: "searchmux" },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Errors arrive already described and redacted (redactArgument); pino's own serializer would
      // re-describe the plain object.
      serializers: { err: (err: unknown) => err },
      mixin() {
        const scope = currentRequestScope();
        return scope ? { request_id: scope.requestId, tenant_id: scope.tenantId } : {};
      },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map(redactArgument) as typeof args);
        },
      },
    },
    destination,
  );
}

const shared = globalThis as typeof globalThis & { searchmuxLogger?: Logger };

/** The process logger. */
export function log(): Logger {
  shared.searchmuxLogger ??= createLogger();
  return shared.searchmuxLogger;
}

/** Replaces the process logger (tests capture lines with their own destination). */
export function replaceLogger(logger: Logger): void {
  shared.searchmuxLogger = logger;
}
