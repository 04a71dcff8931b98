/**
 * RRF fusion of 5 provider lists × 50 results in process: URL normalisation (www., tracking parameters,
 * http/https variants), reciprocal rank fusion, tail rescue and snippet collapse, down to the top 10.
 */
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { ownPeakRss } from "@/bench/support/timed-calls";
import { fuseResults } from "@/lib/engine/search/fusion";
import { rankProviderResults } from "@/lib/engine/search/ranked-results";
import { contentWords, tokenize } from "@/lib/engine/search/text";
import type { ProviderResult } from "@/lib/engine/search/types";
import { percentiles } from "@/tests/reliability/support/stats";
import type { ScenarioResult } from "./scenario";

const WARM_UP = 200;

/** Five lists of 50; every third result is shared across providers at another rank, as a URL variant. */
function fusionLists(run: number): ProviderResult[][] {
  return Array.from({ length: 5 }, (_, p) =>
    Array.from({ length: 50 }, (_, i) => {
      const shared = i % 3 === 0;
      const doc = shared ? (i + p * 3) % 50 : i;
      const host = shared ? `shared${doc}.example.org` : `p${p}-r${i}.example.net`;
      const variant =
        p % 2 === 0
          ? `https://www.${host}/doc/${run % 7}/`
          : `http://${host}/doc/${run % 7}?utm_source=x&id=${doc}`;
      return {
        url: shared ? variant.replace(/\?.*$/, "") : variant,
        title: `Title ${doc} from provider ${p}`,
        snippet:
          `Result ${doc} explains how the engine fuses provider lists. ` +
          `Provider ${p} adds its own detail number ${i}, with more words about ranking, snippets and budgets.`,
      };
    }),
  );
}

export async function fusion(runs: number): Promise<ScenarioResult> {
  const queryTerms = contentWords(tokenize("engine fuses provider lists ranking"));
  const { result: samples, peakMb } = await ownPeakRss(async () => {
    const times: number[] = [];
    for (let run = 0; run < WARM_UP + runs; run++) {
      const lists = fusionLists(run);
      const started = performance.now();
      fuseResults(
        lists.map((results, p) => rankProviderResults(`p${p}`, results)),
        { maxResults: 10, queryTerms },
      );
      const ms = performance.now() - started;
      if (run >= WARM_UP) times.push(ms);
      if (run % 100 === 0) await yieldToLoop(); // lets the RSS sampler run
    }
    return times;
  });
  const total = samples.reduce((sum, ms) => sum + ms, 0);
  return {
    id: "fusion",
    title: "RRF fusion of 5 × 50 results → top 10",
    figure: "fusion time in process",
    latencyMs: percentiles(samples),
    samples: samples.length,
    requestsPerSecond: (samples.length / total) * 1000,
    errors: 0,
    peakRssMb: peakMb,
    rssOf: "bench",
  };
}
