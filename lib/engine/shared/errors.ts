/** Adapters throw the platform's ProviderError (lib/http/provider-error.ts), which the HTTP clients raise too. */
export { ProviderError } from "@/lib/http/provider-error";
