/**
 * Where to get a key for each keyed provider: its sign-up or API-key page, and a line on what it costs.
 * Free-tier figures themselves come from the provider registrations (the catalog), not from here.
 */
export interface ProviderLink {
  signUpUrl: string;
  /** Pricing in a few words, when the registration's free tier does not say it all. */
  pricing?: string;
}

export const PROVIDER_LINKS: Readonly<Record<string, ProviderLink>> = {
  tavily: { signUpUrl: "https://app.tavily.com/", pricing: "free credits every month" },
  brave: { signUpUrl: "https://api-dashboard.search.brave.com/register" },
  brave_answer: { signUpUrl: "https://api-dashboard.search.brave.com/register", pricing: "Pro AI plan" },
  exa: { signUpUrl: "https://dashboard.exa.ai/", pricing: "free credits on sign-up" },
  serper: { signUpUrl: "https://serper.dev/signup", pricing: "free queries on sign-up" },
  serpapi: { signUpUrl: "https://serpapi.com/users/sign_up" },
  kagi: { signUpUrl: "https://kagi.com/settings?p=api", pricing: "paid, per query" },
  jina: { signUpUrl: "https://jina.ai/api-dashboard/", pricing: "free tokens on sign-up" },
  you: { signUpUrl: "https://you.com/platform" },
  linkup: { signUpUrl: "https://app.linkup.so/sign-up" },
  firecrawl: { signUpUrl: "https://www.firecrawl.dev/signin/signup" },
  perplexity: { signUpUrl: "https://www.perplexity.ai/account/api", pricing: "paid, per request" },
  gemini: { signUpUrl: "https://aistudio.google.com/apikey" },
  scrapingbee: { signUpUrl: "https://app.scrapingbee.com/account/register" },
  scraperapi: { signUpUrl: "https://dashboard.scraperapi.com/signup" },
  zyte: { signUpUrl: "https://app.zyte.com/account/signup/zyteapi", pricing: "free credit on sign-up" },
  brightdata: { signUpUrl: "https://brightdata.com/cp/start", pricing: "paid, per request" },
  diffbot: { signUpUrl: "https://app.diffbot.com/get-started/" },
  spider: { signUpUrl: "https://spider.cloud/", pricing: "pay as you go" },
  scrapfly: { signUpUrl: "https://scrapfly.io/register" },
  supadata: { signUpUrl: "https://dash.supadata.ai/" },
  github: { signUpUrl: "https://github.com/settings/tokens", pricing: "free; raises rate limits" },
  semantic_scholar: {
    signUpUrl: "https://www.semanticscholar.org/product/api#api-key-form",
    pricing: "free; raises rate limits",
  },
  pubmed: {
    signUpUrl: "https://account.ncbi.nlm.nih.gov/settings/",
    pricing: "free; raises rate limits",
  },
  openalex: { signUpUrl: "https://openalex.org/settings/api", pricing: "free; raises rate limits" },
};
