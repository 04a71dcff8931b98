/**
 * Relevance check: fusing several noisy provider lists must rank better than any single provider.
 *
 * Ten queries, each with six judged pages (grades 3, 3, 2, 2, 1, 1). Five fake providers each return
 * ten results per query, generated from a seeded PRNG: every judged page is found with probability
 * 0.6 and placed by grade plus noise; the rest is noise, mostly private to the provider, partly
 * "popular" pages several providers return. Judged pages come back as URL variants (www., utm_*,
 * trailing slash, http, fragment). nDCG@10 is computed here for each provider's own list and for the
 * fused result, judging URLs by their normalised form in both cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSearch } from "@/lib/engine/search/run-search";
import { normalizeUrl } from "@/lib/engine/search/url";
import {
  type FakeProviderId,
  type FakeProviders,
  type FakeResult,
  startFakeProviders,
} from "@/tests/fakes/provider-server";
import { ndcgAt, seededRandom as prng } from "@/tests/support/relevance";
import { fakeEntry } from "./fake-entries";

const PROVIDERS: FakeProviderId[] = ["brave", "tavily", "serper", "exa", "searxng"];
const QUERIES = [
  "rust async runtime",
  "postgres jsonb index",
  "react server components",
  "kubernetes pod autoscaling",
  "python asyncio timeout",
  "css grid layout",
  "tls certificate pinning",
  "git rebase interactive",
  "redis sliding window rate limit",
  "webassembly garbage collection",
];
const GRADES = [3, 3, 2, 2, 1, 1];
const LIST_LENGTH = 10;

interface Judged {
  query: string;
  /** normalised URL -> grade */
  grades: Map<string, number>;
  lists: Map<FakeProviderId, FakeResult[]>;
}

function variant(url: string, pick: number): string {
  const u = new URL(url);
  switch (Math.floor(pick * 5)) {
    case 0:
      return `${u.protocol}//www.${u.host}${u.pathname}`;
    case 1:
      return `${url}?utm_source=newsletter&utm_medium=email`;
    case 2:
      return `${url}/`;
    case 3:
      return url.replace("https:", "http:");
    default:
      return `${url}#overview`;
  }
}

function buildCorpus(): Judged[] {
  const random = prng(20_240_601);
  return QUERIES.map((query, q) => {
    const judged = GRADES.map((grade, j) => ({
      url: `https://site${q}-${j}.example.org/${query.replace(/ /g, "-")}`,
      grade,
    }));
    const popular = [0, 1].map((n) => `https://popular${n}.example.com/q${q}`);
    const lists = new Map<FakeProviderId, FakeResult[]>();
    for (const provider of PROVIDERS) {
      const candidates: Array<{ url: string; position: number }> = [];
      for (const { url, grade } of judged) {
        if (random() < 0.6)
          candidates.push({ url: variant(url, random()), position: (3 - grade) * 2 + random() * 6 });
      }
      for (const url of popular) if (random() < 0.5) candidates.push({ url, position: random() * 8 });
      for (let n = 0; n < LIST_LENGTH; n++) {
        candidates.push({ url: `https://${provider}-noise${n}.example.net/q${q}`, position: random() * 10 });
      }
      const list = candidates
        .sort((a, b) => a.position - b.position)
        .slice(0, LIST_LENGTH)
        .map(({ url }, i) => ({ url, title: `${query} result ${i + 1}`, snippet: `About ${query}.` }));
      lists.set(provider, list);
    }
    const grades = new Map(judged.map(({ url, grade }) => [normalizeUrl(url) ?? url, grade]));
    return { query, grades, lists };
  });
}

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(async () => {
  await fake.close();
});

describe("fusion relevance", () => {
  it("fused nDCG@10 beats the best single provider's mean nDCG@10", async () => {
    const corpus = buildCorpus();
    const perProvider = new Map<FakeProviderId, number[]>(PROVIDERS.map((id) => [id, []]));
    const fused: number[] = [];

    for (const { query, grades, lists } of corpus) {
      for (const [id, list] of lists) {
        fake.setScenario(id, { results: list });
        perProvider.get(id)?.push(
          ndcgAt(
            10,
            list.map((r) => r.url),
            grades,
          ),
        );
      }
      const result = await runSearch({
        input: { query, max_results: 10 },
        providers: PROVIDERS.map((id) => fakeEntry(fake, id)),
      });
      expect(result.providers_failed).toEqual([]);
      fused.push(
        ndcgAt(
          10,
          result.results.map((r) => r.url),
          grades,
        ),
      );
    }

    const providerMeans = [...perProvider.values()].map(mean);
    const bestSingle = Math.max(...providerMeans);
    const fusedMean = mean(fused);
    console.info(
      `nDCG@10 fused ${fusedMean.toFixed(3)}; per provider ${PROVIDERS.map((id, i) => `${id} ${providerMeans[i]?.toFixed(3)}`).join(", ")}`,
    );
    expect(fusedMean).toBeGreaterThan(bestSingle);
  });
});
