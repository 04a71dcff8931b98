import Link from "next/link";
import { SiteHeader } from "@/components/site-header";

const features = [
  {
    title: "Many providers, one query",
    body: "Every search fans out in parallel to keyless engines (DuckDuckGo, SearXNG, Wikipedia) and the keyed APIs you bring (Tavily, Brave, Exa, Serper, Kagi, Jina, Perplexity and more).",
  },
  {
    title: "Fused, not concatenated",
    body: "Results are merged with Reciprocal Rank Fusion over normalised URLs, deduplicated, and their snippets combined, with the provenance of every result kept.",
  },
  {
    title: "Read, answer, research",
    body: "A fetch tool reads any URL through an SSRF-safe fetcher and a waterfall of fetch providers; answers from several AI providers side by side; papers from arXiv, PubMed, Semantic Scholar and OpenAlex.",
  },
  {
    title: "Your keys, your budgets",
    body: "Provider keys are stored encrypted per workspace, free tiers are used first, budgets are never overspent, and every request is a trace you can inspect.",
  },
];

export default function LandingPage() {
  return (
    <>
      <SiteHeader>
        <Link
          href="/signin"
          className="rounded-md bg-zinc-900 px-3 py-1.5 text-white dark:bg-zinc-100 dark:text-zinc-900"
        >
          Sign in
        </Link>
      </SiteHeader>
      <main className="mx-auto max-w-5xl px-6 py-16">
        <h1 className="max-w-3xl text-4xl font-semibold tracking-tight sm:text-5xl">
          The search gateway for AI agents
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-zinc-600 dark:text-zinc-400">
          Searchmux gives you a personal MCP URL and a REST token for web search. Point Claude, Cursor or your
          own agent at it, and every query is answered by many search providers at once, fused into one ranked
          list.
        </p>
        <div className="mt-8 flex gap-3">
          <Link
            href="/signin"
            className="rounded-md bg-zinc-900 px-4 py-2 text-white dark:bg-zinc-100 dark:text-zinc-900"
          >
            Get your MCP URL
          </Link>
          <a href="/docs/api" className="rounded-md border border-zinc-300 px-4 py-2 dark:border-zinc-700">
            API reference
          </a>
          <a href="/api/health" className="rounded-md border border-zinc-300 px-4 py-2 dark:border-zinc-700">
            Service status
          </a>
        </div>
        <ul className="mt-16 grid gap-6 sm:grid-cols-2">
          {features.map((feature) => (
            <li key={feature.title} className="rounded-lg border border-zinc-200 p-6 dark:border-zinc-800">
              <h2 className="font-medium">{feature.title}</h2>
              <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{feature.body}</p>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
