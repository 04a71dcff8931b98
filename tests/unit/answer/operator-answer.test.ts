/**
 * answer and paper_search as the operator (the tool table's `run` with the operator's context): providers
 * from env (fake server base URLs), no database.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Env } from "@/lib/pipeline/capabilities";
import { operatorContext } from "@/lib/pipeline/operator-context";
import { tools } from "@/lib/tools/table";
import { ANSWER_PREFIX, ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { PAPER_PREFIX, PAPER_WIRES, PUBMED_WIRE } from "@/tests/fakes/paper-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";

let fake: FakeProviders;

const answerAsOperator = async (env: Env, input: { query: string; providers?: string[] }) =>
  (await tools.answer.run(operatorContext(env, "cli"), input, {})).response;
const papersAsOperator = async (env: Env, input: { query: string; providers?: string[] }) =>
  (await tools.paper_search.run(operatorContext(env, "cli"), input, {})).response;

beforeAll(async () => {
  fake = await startFakeProviders({ ...ANSWER_WIRES, ...PAPER_WIRES });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.resetScenarios();
  fake.clearRequests();
});

describe("answer as the operator", () => {
  it("uses keyed answer providers and `llm` only once its base URL and model are set, grounded by operator search", async () => {
    const env = {
      EXA_API_KEY: "exa-key-123456",
      EXA_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.exa),
      SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.llm),
      SEARCHMUX_LLM_MODEL: "qwen3",
      // Grounding search: the fake's keyed Brave search wire stands in for the operator's web search.
      BRAVE_API_KEY: "brave-key-123456",
      BRAVE_BASE_URL: fake.baseUrlFor("brave"),
      WIKIPEDIA_BASE_URL: fake.baseUrlFor("wikipedia"),
      DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
    };
    const result = await answerAsOperator(env, { query: "rust async runtime" });
    expect(result.answers.map((a) => [a.provider, a.model])).toEqual([
      ["exa", "exa"],
      ["llm", "fake-model"],
    ]);
    const llmRequest = fake.requests(ANSWER_PREFIX.llm)[0];
    expect(llmRequest?.headers.authorization).toBeUndefined();
    expect(llmRequest?.body).toMatchObject({ model: "qwen3" });
    expect(JSON.stringify(llmRequest?.body)).toContain("https://example.com/result-1");
    expect(tools.answer.format(result)).toContain("## exa (exa)");

    await expect(
      answerAsOperator({ ...env, SEARCHMUX_LLM_MODEL: "" }, { query: "q", providers: ["llm"] }),
    ).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("reports no configured provider without keys, and every provider failing", async () => {
    await expect(answerAsOperator({}, { query: "q" })).rejects.toMatchObject({
      code: "no_provider_configured",
    });
    fake.setScenario(ANSWER_PREFIX.exa, { status: 401 });
    await expect(
      answerAsOperator(
        { EXA_API_KEY: "bad-key-123456", EXA_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.exa) },
        { query: "q" },
      ),
    ).rejects.toMatchObject({ code: "all_providers_failed" });
  });
});

describe("paper_search as the operator", () => {
  it("works with no keys at all and passes the optional keys and mailto when set", async () => {
    const bases = {
      ARXIV_BASE_URL: fake.baseUrlFor(PAPER_PREFIX.arxiv),
      PUBMED_BASE_URL: fake.url,
      SEMANTIC_SCHOLAR_BASE_URL: fake.baseUrlFor(PAPER_PREFIX.semantic_scholar),
      OPENALEX_BASE_URL: fake.baseUrlFor(PAPER_PREFIX.openalex),
    };
    const keyless = await papersAsOperator(bases, { query: "attention" });
    expect(keyless.providers_succeeded.map((p) => p.provider)).toEqual([
      "arxiv",
      "pubmed",
      "semantic_scholar",
      "openalex",
    ]);
    expect(tools.paper_search.format(keyless)).toContain("1. Attention Is All You Need");

    fake.clearRequests();
    await papersAsOperator(
      {
        ...bases,
        NCBI_API_KEY: "ncbi-key-123456",
        SEMANTIC_SCHOLAR_API_KEY: "s2-key-123456",
        OPENALEX_MAILTO: "ops@example.org",
      },
      { query: "attention", providers: ["pubmed", "semantic_scholar", "openalex"] },
    );
    expect(fake.requests(PUBMED_WIRE.esearch)[0]?.query.api_key).toBe("ncbi-key-123456");
    expect(fake.requests(PAPER_PREFIX.semantic_scholar)[0]?.headers["x-api-key"]).toBe("s2-key-123456");
    expect(fake.requests(PAPER_PREFIX.openalex)[0]?.query.mailto).toBe("ops@example.org");
    expect(fake.requests(PAPER_PREFIX.arxiv)).toHaveLength(0);
  });
});
