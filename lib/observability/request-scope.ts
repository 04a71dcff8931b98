/**
 * The request a piece of async work belongs to, carried through awaits (AsyncLocalStorage), so every
 * log line of a request names its request id without passing it around.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestScope {
  requestId: string;
  tenantId?: string;
}

const shared = globalThis as typeof globalThis & { searchmuxRequestScope?: AsyncLocalStorage<RequestScope> };
shared.searchmuxRequestScope ??= new AsyncLocalStorage<RequestScope>();
const storage = shared.searchmuxRequestScope;

export const inRequestScope = <T>(scope: RequestScope, work: () => T): T => storage.run(scope, work);

export const currentRequestScope = (): RequestScope | undefined => storage.getStore();
