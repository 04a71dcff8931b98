/**
 * A corpus for judging fused search quality: queries, each with graded relevance judgments (0–3) of its
 * pages and each provider's ranked result list. The bench's own (`generateCorpus`) is a small model of the
 * web as search providers see it: several indexes (a Google-like one, a Bing-like one, Brave's, a neural
 * one), each holding part of the pages (good pages more often), each ranking them by relevance plus its own
 * noise; a provider searches one index or two, adding noise of its own. Providers of one index agree (the
 * two Google resellers almost always), those of different indexes overlap on the pages every index ranks
 * high, and a noisy provider finds pages nobody else lists, mostly poor ones.
 *
 * Any corpus in the same JSON shape (`--corpus=FILE`, see bench/README.md) can replace it: provider ids
 * must be search providers of the fake server, URLs absolute http(s).
 */
import { readFileSync } from "node:fs";
import { normalizeUrl } from "@/lib/engine/search/url";
import { ndcgAt, seededRandom } from "@/tests/support/relevance";
import { numberFlag, stringFlag } from "./flags";

interface CorpusQuery {
  query: string;
  /** Relevance of pages by URL: 0 (not relevant) to 3 (highly relevant); unjudged pages count as 0. */
  judgments: Record<string, number>;
  /** Each provider's ranked result URLs for this query (a provider absent here answers nothing). */
  results: Record<string, string[]>;
}

export interface Corpus {
  name: string;
  queries: CorpusQuery[];
}

function loadCorpus(file: string): Corpus {
  const corpus = JSON.parse(readFileSync(file, "utf8")) as Corpus;
  if (!Array.isArray(corpus.queries) || corpus.queries.length === 0) throw new Error(`${file}: no queries`);
  return { name: corpus.name ?? file, queries: corpus.queries };
}

/** nDCG@k of ranked URLs against a query's judgments. */
export const judgedNdcg = (k: number, urls: readonly string[], judgments: Record<string, number>): number =>
  ndcgAt(
    k,
    urls,
    new Map(Object.entries(judgments).map(([url, grade]) => [normalizeUrl(url) ?? url, grade])),
  );

/** The providers a corpus has results for. */
export const corpusProviders = (corpus: Corpus): string[] => [
  ...new Set(corpus.queries.flatMap((q) => Object.keys(q.results))),
];

/** Standard normal draws (Box–Muller) from a uniform generator. */
const normal = (random: () => number) => () =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

interface Index {
  /** Share of the pages it holds (a page of grade g: coverage × (0.6 + 0.4 g / 3)). */
  coverage: number;
  /** How far its ranking strays from the judged relevance (standard deviations of noise per grade). */
  noise: number;
}

interface ProviderModel {
  /** The indexes it searches (the mean of their scores where both hold a page). */
  indexes: string[];
  /** Its own ranking noise on top of its indexes'. */
  noise: number;
}

const INDEXES: Record<string, Index> = {
  google: { coverage: 0.8, noise: 0.6 },
  bing: { coverage: 0.7, noise: 0.7 },
  brave: { coverage: 0.55, noise: 0.8 },
  neural: { coverage: 0.5, noise: 1.1 },
};

/**
 * The providers of the bench corpus: seven paid ones (two Google resellers, a Google-based one that ranks
 * its own way, Brave, a Bing-based one, one mixing Brave and Google, a neural index) and two free ones.
 */
const PROVIDERS: Record<string, ProviderModel> = {
  serper: { indexes: ["google"], noise: 0.15 },
  serpapi: { indexes: ["google"], noise: 0.15 },
  kagi: { indexes: ["google"], noise: 0.5 },
  brave: { indexes: ["brave"], noise: 0.3 },
  you: { indexes: ["bing"], noise: 0.4 },
  tavily: { indexes: ["brave", "google"], noise: 0.6 },
  exa: { indexes: ["neural"], noise: 0.5 },
  duckduckgo: { indexes: ["bing"], noise: 0.9 },
  searxng: { indexes: ["google", "bing"], noise: 1.0 },
};

/** Pages per query by grade (3 → 0): a few excellent pages, more fair ones, many irrelevant. */
const PAGES_BY_GRADE = [56, 12, 8, 4];
const RESULTS_PER_PROVIDER = 10;
const HOSTS = 30;

function generateCorpus({ queries = 60, seed = 28 }: { queries?: number; seed?: number } = {}): Corpus {
  const random = seededRandom(seed);
  const gauss = normal(random);
  const list: CorpusQuery[] = [];
  for (let q = 0; q < queries; q++) {
    const pages = PAGES_BY_GRADE.flatMap((count, grade) => Array.from({ length: count }, () => grade)).map(
      (grade, i) => ({
        url: `https://site${Math.floor(random() * HOSTS)}.example/q${q}/page-${i}`,
        grade,
      }),
    );
    // Each index's holdings and scores for this query, shared by every provider searching it.
    const scores = Object.fromEntries(
      Object.entries(INDEXES).map(([name, index]) => [
        name,
        pages.map((page) =>
          random() < index.coverage * (0.6 + (0.4 * page.grade) / 3)
            ? page.grade + index.noise * gauss()
            : null,
        ),
      ]),
    );
    const results = Object.fromEntries(
      Object.entries(PROVIDERS).map(([id, model]) => {
        const ranked = pages
          .map((page, i) => {
            const held = model.indexes
              .map((name) => scores[name]?.[i])
              .filter((s): s is number => typeof s === "number");
            const score = held.length === 0 ? null : held.reduce((a, b) => a + b, 0) / held.length;
            return { url: page.url, score: score === null ? null : score + model.noise * gauss() };
          })
          .filter((r): r is { url: string; score: number } => r.score !== null)
          .sort((a, b) => b.score - a.score)
          .slice(0, RESULTS_PER_PROVIDER)
          .map((r) => r.url);
        return [id, ranked];
      }),
    );
    list.push({
      query: `corpus query ${q} ${seed}`,
      judgments: Object.fromEntries(pages.filter((p) => p.grade > 0).map((p) => [p.url, p.grade])),
      results,
    });
  }
  return { name: `generated (seed ${seed}, ${queries} queries)`, queries: list };
}

/** The corpus the command line asks for: `--corpus=FILE`, else the generated one (`--queries=N`, `--seed=N`). */
export function corpusOfFlags(): Corpus {
  const file = stringFlag("corpus");
  return file
    ? loadCorpus(file)
    : generateCorpus({ queries: numberFlag("queries", 60), seed: numberFlag("seed", 28) });
}
