/** The engine's deadlines are the platform's (lib/http/abort.ts), which the HTTP clients share. */
export { isTimeout, type LinkedAbort, linkedAbort, raceAbort } from "@/lib/http/abort";
