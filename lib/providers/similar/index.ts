/** Registry of similar-pages adapters: providers that find pages like a given one themselves. */
import type { SimilarProvider } from "@/lib/engine/similar/types";
import { exa } from "./exa";

export const similarProviders: readonly SimilarProvider[] = [exa];
