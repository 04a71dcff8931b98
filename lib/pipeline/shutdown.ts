/**
 * Whether this instance has been asked to stop (SIGTERM). `next start` then stops accepting connections
 * and waits for open ones; a keep-alive client would hold its connection for as long as it keeps
 * sending, so responses tell clients to close (and reconnect elsewhere) once shutdown has begun.
 * On globalThis: the signal is handled in instrumentation's bundle, responses are built in the routes'.
 */
const state = globalThis as typeof globalThis & { searchmuxShuttingDown?: boolean };

export const markShuttingDown = (): void => {
  state.searchmuxShuttingDown = true;
};

export const shuttingDown = (): boolean => state.searchmuxShuttingDown === true;
