/**
 * Registry of image search adapters. Adding a provider = one new file + one line here. Each uses the key of
 * its provider's web search (a key is stored per provider id and serves every tool of that provider).
 */
import type { ImageProvider } from "@/lib/engine/images/types";
import { brave } from "./brave";
import { searxng } from "./searxng";
import { serpapi } from "./serpapi";
import { serper } from "./serper";
import { tavily } from "./tavily";

export const imageProviders: readonly ImageProvider[] = [searxng, brave, serpapi, serper, tavily];
