import { describe, expect, it } from "vitest";
import {
  formatAnswer,
  formatBudgetStatus,
  formatFetch,
  formatPapers,
  formatSearch,
  UNTRUSTED_NOTE,
} from "@/lib/tools/format";
import type {
  AnswerResponse,
  BudgetStatusResponse,
  FetchResponse,
  PaperSearchResponse,
  SearchResponse,
} from "@/lib/tools/responses";

const search: SearchResponse = {
  query: "rust async runtime",
  results: [
    {
      title: "Tokio",
      url: "https://tokio.rs/",
      snippet: "An asynchronous runtime for Rust.",
      score: 0.033,
      sources: [
        { provider: "brave", rank: 1 },
        { provider: "duckduckgo", rank: 2 },
      ],
      snippet_source: "aggregated",
    },
    {
      title: "async-std",
      url: "https://async.rs/",
      snippet: "Async version of the Rust standard library.",
      score: 0.016,
      sources: [{ provider: "brave", rank: 2 }],
      snippet_source: "aggregated",
    },
  ],
  providers_succeeded: [
    { provider: "brave", duration_ms: 210, count: 2 },
    { provider: "duckduckgo", duration_ms: 340, count: 1 },
  ],
  providers_failed: [{ provider: "exa", reason: "timeout", duration_ms: 10_000 }],
  providers_skipped: [],
  adjustments: [],
  cache_hit: false,
  trace_id: null,
  duration_ms: 512,
};

describe("formatSearch", () => {
  it("says what was changed in whose request", () => {
    const note =
      'region "sg" is not one of the countries Brave takes: sent as ALL (results from any country)';
    const text = formatSearch({ ...search, adjustments: [{ provider: "brave", note }] });
    expect(text).toContain(`Adjusted for brave: ${note}`);
    expect(formatSearch(search)).not.toContain("Adjusted for");
  });

  it("numbers results with title, URL, snippet and the providers that found them", () => {
    const text = formatSearch(search);
    expect(text).toContain('Web results for "rust async runtime": 2 in 512 ms');
    expect(text).toContain(
      "1. Tokio\n   https://tokio.rs/\n   An asynchronous runtime for Rust.\n   (found by brave, duckduckgo)",
    );
    expect(text).toContain("2. async-std\n   https://async.rs/");
    expect(text).toContain("Providers ok: brave (2), duckduckgo (1)");
    expect(text).toContain("Providers failed: exa (timeout)");
    // The untrusted-content note is a block of its own (define-tool.test.ts), not part of the rendering.
    expect(text).not.toContain(UNTRUSTED_NOTE);
  });

  it("says so when nothing was found and when the result came from cache", () => {
    const text = formatSearch({ ...search, results: [], providers_failed: [], cache_hit: true });
    expect(text).toContain("0 in 512 ms, from cache");
    expect(text).toContain("No results.");
    expect(text).not.toContain("Providers failed");
    expect(text).not.toContain("Providers skipped");
  });

  it("names the providers it did not ask and why, a refused one once", () => {
    const text = formatSearch({
      ...search,
      providers_failed: [
        { provider: "exa", reason: "timeout", duration_ms: 10_000 },
        { provider: "kagi", reason: "budget_exhausted", duration_ms: 0 },
      ],
      providers_skipped: [
        { provider: "tavily", reason: "low_contribution" },
        { provider: "kagi", reason: "budget" },
      ],
    });
    expect(text).toContain("Providers failed: exa (timeout)\n");
    expect(text).toContain("Providers skipped: tavily (low_contribution), kagi (budget)");
  });
});

describe("formatFetch", () => {
  const page: FetchResponse = {
    url: "https://example.com/post",
    final_url: "https://example.com/post/",
    title: "A post",
    content: "# A post\n\nBody text.",
    format: "markdown",
    provider: "direct",
    providers_attempted: ["direct"],
    providers_failed: [],
    metadata: { truncated: false },
    cache_hit: false,
    trace_id: null,
  };

  it("heads the Markdown with its title and source", () => {
    const text = formatFetch(page);
    expect(
      text.startsWith(
        "# A post\nSource: https://example.com/post/\nFetched by direct as markdown\n\n# A post\n\nBody text.",
      ),
    ).toBe(true);
    expect(text).not.toContain("Truncated");
  });

  it("reports the window, how to read on, failed steps and a second opinion; one total throughout", () => {
    const text = formatFetch({
      ...page,
      title: "",
      metadata: { truncated: true },
      offset: 0,
      next_offset: 20,
      total_chars: 120_000,
      providers_failed: [{ provider: "direct", reason: "bot_challenge" }],
      provider: "jina",
      alternative_results: [{ ...page, provider: "firecrawl", content: "Other rendering." }],
    });
    expect(text.startsWith("# https://example.com/post/")).toBe(true);
    expect(text).toContain("Characters 0–20 of 120000\n");
    expect(text).toContain(
      "[… cut here: 119980 more characters; call fetch with offset=20 to continue; total 120000 chars]",
    );
    expect(text).not.toContain("Truncated");
    expect(text).toContain("Providers failed: direct (bot_challenge)");
    expect(text).toContain("Second opinion from firecrawl (https://example.com/post/):\n\nOther rendering.");
  });

  it("says so when the last window stops at what one fetch keeps", () => {
    const last = { ...page, metadata: { truncated: true }, offset: 40, next_offset: null, total_chars: 60 };
    expect(formatFetch(last)).toContain("Truncated: the page is longer than one fetch keeps");
  });
});

describe("formatAnswer", () => {
  const answers: AnswerResponse = {
    query: "Which async runtime?",
    answers: [
      {
        provider: "perplexity",
        model: "sonar",
        answer: "Tokio is the most used [1].",
        citations: [{ title: "Tokio", url: "https://tokio.rs/" }],
        duration_ms: 1_200,
      },
      {
        provider: "tavily",
        model: "tavily-answer",
        answer: "Most projects use Tokio [1][2].",
        citations: [
          { title: "Tokio", url: "https://tokio.rs/" },
          { title: "Survey", url: "https://example.com/survey" },
        ],
        duration_ms: 900,
      },
    ],
    agreement: {
      answers: 2,
      shared_citations: [{ url: "https://tokio.rs/", title: "Tokio", providers: ["perplexity", "tavily"] }],
    },
    providers_failed: [{ provider: "exa", reason: "bad_key", duration_ms: 80 }],
    providers_skipped: [],
    cache_hit: false,
    trace_id: null,
    duration_ms: 1_300,
  };

  it("puts the answers side by side, each with its numbered sources, then the agreement", () => {
    const text = formatAnswer(answers);
    expect(text).toContain('2 answers to "Which async runtime?":');
    expect(text).toContain(
      "## perplexity (sonar)\n\nTokio is the most used [1].\n\nSources:\n[1] Tokio — https://tokio.rs/",
    );
    expect(text).toContain("## tavily (tavily-answer)");
    expect(text).toContain("[2] Survey — https://example.com/survey");
    expect(text).toContain(
      "Sources cited by several answers:\n- Tokio — https://tokio.rs/ (perplexity, tavily)",
    );
    expect(text).toContain("Providers failed: exa (bad_key)");
  });

  it("says when no source is shared", () => {
    const text = formatAnswer({ ...answers, agreement: { answers: 2, shared_citations: [] } });
    expect(text).toContain("No source is cited by more than one of the 2 answers.");
  });
});

describe("formatPapers", () => {
  const paper: PaperSearchResponse["results"][number] = {
    title: "Attention Is All You Need",
    authors: [
      "Ashish Vaswani",
      "Noam Shazeer",
      "Niki Parmar",
      "Jakob Uszkoreit",
      "Llion Jones",
      "Aidan N. Gomez",
    ],
    year: 2017,
    published: "2017-06-12",
    venue: "NeurIPS",
    abstract: "x".repeat(1_000),
    doi: "10.48550/arXiv.1706.03762",
    arxiv_id: "1706.03762",
    pmid: null,
    url: "https://arxiv.org/abs/1706.03762",
    pdf_url: "https://arxiv.org/pdf/1706.03762",
    citation_count: 100_000,
    open_access: true,
    score: 0.03,
    sources: [{ provider: "arxiv", rank: 1 }],
  };

  it("shows authors, year, venue, identifiers, links and a clipped abstract", () => {
    const text = formatPapers({
      query: "transformers",
      results: [paper],
      providers_succeeded: [{ provider: "arxiv", duration_ms: 300, count: 1 }],
      providers_failed: [],
      providers_skipped: [],
      cache_hit: false,
      trace_id: null,
      duration_ms: 400,
    });
    expect(text).toContain("1. Attention Is All You Need (2017)");
    expect(text).toContain(
      "Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones et al. — NeurIPS",
    );
    expect(text).toContain(
      "DOI 10.48550/arXiv.1706.03762 · arXiv 1706.03762 · 100,000 citations · open access",
    );
    expect(text).toContain("https://arxiv.org/abs/1706.03762\n   PDF: https://arxiv.org/pdf/1706.03762");
    expect(text).toContain(`${"x".repeat(400)}…`);
    expect(text).not.toContain("x".repeat(401));
  });

  it("copes with sparse records", () => {
    const text = formatPapers({
      query: "q",
      results: [
        {
          ...paper,
          authors: [],
          year: null,
          venue: null,
          doi: null,
          arxiv_id: null,
          citation_count: null,
          open_access: false,
          abstract: null,
          url: null,
          pdf_url: null,
        },
      ],
      providers_succeeded: [],
      providers_failed: [{ provider: "pubmed", reason: "http_error", duration_ms: 5 }],
      providers_skipped: [],
      cache_hit: true,
      trace_id: null,
      duration_ms: 1,
    });
    expect(text).toContain("1. Attention Is All You Need (year unknown)\n   unknown authors\n");
    expect(text).toContain("Providers failed: pubmed (http_error)");
  });
});

describe("formatBudgetStatus", () => {
  it("names each budget by provider, metric and period, with what is left, its anchor day and reset, usage and alerts", () => {
    const status: BudgetStatusResponse = {
      budgets: [
        {
          id: "b1",
          name: "all providers · requests · day",
          provider: "*",
          metric: "requests",
          period: "day",
          anchor_day: null,
          limit: 100,
          soft: 80,
          used: 85,
          remaining: 15,
          soft_exceeded: true,
          resets_at: "2026-01-02T00:00:00.000Z",
        },
        {
          id: "b2",
          name: "tavily · usd · lifetime",
          provider: "tavily",
          metric: "usd",
          period: "lifetime",
          anchor_day: null,
          limit: 5,
          soft: null,
          used: 1.25,
          remaining: 3.75,
          soft_exceeded: false,
          resets_at: null,
        },
        {
          name: "brave · requests · month",
          provider: "brave",
          metric: "requests",
          period: "month",
          anchor_day: 15,
          limit: 2000,
          used: 10,
          remaining: 1990,
          soft_exceeded: false,
          resets_at: "2026-01-15T00:00:00.000Z",
        },
      ],
      providers: [
        {
          provider: "tavily",
          requests: { today: 3, month: 40, lifetime: 90 },
          usd: { today: 0.03, month: 0.4 },
          free_tier: { requests: 1000, period: "month", used: 40, remaining: 960 },
        },
      ],
      alerts: [
        {
          budget_id: "b1",
          budget: "all providers · requests · day",
          kind: "soft",
          period: "day:2026-01-01",
          at: "2026-01-01T12:00:00.000Z",
        },
      ],
    };
    const text = formatBudgetStatus(status);
    expect(text).toContain(
      "- all providers · requests · day: 15 requests left of 100 requests (soft limit exceeded); resets 2026-01-02T00:00:00.000Z; id b1",
    );
    expect(text).toContain("- tavily · usd · lifetime: $3.75 left of $5.00; never resets; id b2");
    // Without the admin scope a budget has no id; a monthly one says the day its period starts.
    expect(text).toContain(
      "- brave · requests · month (from day 15 of each month): 1,990 requests left of 2,000 requests; resets 2026-01-15T00:00:00.000Z\n",
    );
    expect(text).toContain("- tavily: 3 requests today, 40 this month ($0.40); free tier 960 of 1000 left");
    expect(text).toContain("Recent alerts:\n- soft on all providers · requests · day (day:2026-01-01)");
  });

  it("says a used-up budget has reached its hard limit, not only its soft one, and counts one request as one", () => {
    const budget = {
      name: "brave · requests · day",
      provider: "brave",
      metric: "requests" as const,
      period: "day" as const,
      anchor_day: null,
      limit: 1,
      used: 1,
      remaining: 0,
      soft_exceeded: true,
      resets_at: "2026-01-02T00:00:00.000Z",
    };
    const text = formatBudgetStatus({ budgets: [budget], providers: [], alerts: [] });
    expect(text).toContain(
      "- brave · requests · day: 0 requests left of 1 request (hard limit reached: calls it covers are refused until it resets); resets",
    );
    expect(text).not.toContain("soft limit exceeded");
  });

  it("explains an empty workspace", () => {
    const text = formatBudgetStatus({ budgets: [], providers: [], alerts: [] });
    expect(text).toContain("- none set");
    expect(text).toContain("- no calls yet");
    expect(text).not.toContain("alerts");
  });
});
