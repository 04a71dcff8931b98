/**
 * Whom a search of a topic can ask: every provider searches the web, only those with a news search (their
 * adapter's `news`) search news. The others are left out before planning and reported as skipped.
 */
import type { SearchTopic } from "./input";
import type { SearchProvider } from "./types";

const offersTopic = (provider: Pick<SearchProvider, "news">, topic: SearchTopic): boolean =>
  topic === "general" || provider.news !== undefined;

/** `entries` split into those that search `topic` and the ids of those that cannot. */
export function byTopic<E extends { provider: Pick<SearchProvider, "id" | "news"> }>(
  entries: readonly E[],
  topic: SearchTopic,
): { able: E[]; unable: string[] } {
  const able = entries.filter((e) => offersTopic(e.provider, topic));
  const unable = entries.filter((e) => !offersTopic(e.provider, topic)).map((e) => e.provider.id);
  return { able, unable };
}
