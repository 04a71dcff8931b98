/** Google's own parameter spellings and result shapes, shared by the Google-backed adapters (Serper, SerpApi). */
import { z } from "zod";
import type { SafeSearch, TimeRange } from "@/lib/engine/search/types";

const QDR: Readonly<Record<TimeRange, string>> = { day: "d", week: "w", month: "m", year: "y" };

/** `tbs=qdr:<d|w|m|y>` restricts results to the past day/week/month/year. */
export function googleTbs(range: TimeRange): string {
  return `qdr:${QDR[range]}`;
}

/** Google's `safe` only knows on (active) and off. */
export function googleSafe(safesearch: SafeSearch): "active" | "off" {
  return safesearch === "off" ? "off" : "active";
}

const organicItem = z.object({
  title: z.string().nullish(),
  link: z.string(),
  snippet: z.string().nullish(),
  date: z.string().nullish(),
});

/** One organic result as Google-backed APIs return it. */
export const googleOrganicResults = z.array(organicItem).nullish();

const fromItem = (r: z.infer<typeof organicItem>) => ({
  title: r.title,
  url: r.link,
  snippet: r.snippet,
  publishedAt: r.date,
});

export function fromGoogleOrganic(results: z.infer<typeof googleOrganicResults>) {
  return (results ?? []).map(fromItem);
}

/** One news result as Google-backed APIs return it (Serper `news`, SerpApi `news_results`): with its publisher. */
export const googleNewsResults = z
  .array(
    // A name; SerpApi's newer answers nest it ({name, icon}).
    organicItem.extend({ source: z.union([z.string(), z.object({ name: z.string().nullish() })]).nullish() }),
  )
  .nullish();

export function fromGoogleNews(results: z.infer<typeof googleNewsResults>) {
  return (results ?? []).map((r) => ({
    ...fromItem(r),
    source: typeof r.source === "object" ? r.source?.name : r.source,
  }));
}
