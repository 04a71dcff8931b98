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
/** A line waits at most this long in the buffer: a quiet server's lines must not wait minutes for 4 KB more. */
const FLUSH_EVERY_MS = 1_000;

/** True while writeNow writes: a full pipe then ends the attempt instead of being waited for. */
let writingNow = false;

/**
 * Buffered, asynchronous stdout: a log line must not cost a request a write syscall. The buffer is written
 * once it holds 4 KB, or a second after its first line, whichever comes first, and on exit (pino flushes
 * it on `exit`, which a thrown exception and process.exit() emit too); error lines are written before the
 * call returns (createLogger), so a crash right after one cannot lose it. Bounded: a reader that stops
 * draining costs log lines (counted), never memory, and never stalls the server (an error line then waits
 * in the buffer like the others). A process killed outright (SIGKILL, out of memory) loses at most the last
 * second. `fd` is stdout but for the benchmark (bench/scenarios/log-cost.ts).
 */
export function bufferedDestination(fd = 1): DestinationStream {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    minLength: 4096,
    maxLength: MAX_BUFFERED_LOG_BYTES,
    periodicFlush: FLUSH_EVERY_MS,
    // A full pipe: asynchronous writes retry later; writeNow gives up, the rest stays buffered.
    retryEAGAIN: () => !writingNow,
  });
  destination.on("drop", () => metrics().dropped.inc({ queue: "logs" }));
  return destination;
}

const ERROR_LEVEL = pino.levels.values.error ?? 50;

/** Writes what `destination` buffers now, when it buffers (a SonicBoom) and stdout takes it. */
function writeNow(destination: DestinationStream): void {
  if (!("flushSync" in destination) || typeof destination.flushSync !== "function") return;
  writingNow = true;
  try {
    destination.flushSync();
  } catch {
    // stdout is full, closed or not open yet: a log call must not stall or throw at its caller.
  } finally {
    writingNow = false;
  }
}

/**
 * stdout as this process should write it: buffered (above) on a server; on a serverless platform, which
 * freezes the process once a response is sent (no timer runs then, and a frozen instance may never thaw),
 * each line as it is logged.
 */
function stdout(): DestinationStream {
  return config().serverless ? pino.destination({ dest: 1, sync: true }) : bufferedDestination();
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
        logMethod(args, method, level) {
          method.apply(this, args.map(redactArgument) as typeof args);
          // An error is what an operator reads after a crash: it is written before the call returns.
          if (level >= ERROR_LEVEL) writeNow(destination);
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
