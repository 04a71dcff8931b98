/**
 * Region (two-letter country code, lowercase) -> language, for providers that localise by language
 * rather than by country (Wikipedia subdomains, SearXNG `language`, DuckDuckGo `kl`).
 * Deliberately small: unknown regions fall back to the provider's default.
 */
const PRIMARY_LANGUAGE: Readonly<Record<string, string>> = {
  ar: "es",
  at: "de",
  au: "en",
  be: "nl",
  br: "pt",
  ca: "en",
  ch: "de",
  cl: "es",
  cn: "zh",
  co: "es",
  cz: "cs",
  de: "de",
  dk: "da",
  ee: "et",
  eg: "ar",
  es: "es",
  fi: "fi",
  fr: "fr",
  gb: "en",
  gr: "el",
  hk: "zh",
  hu: "hu",
  id: "id",
  ie: "en",
  il: "he",
  in: "en",
  it: "it",
  jp: "ja",
  kr: "ko",
  mx: "es",
  my: "ms",
  nl: "nl",
  no: "no",
  nz: "en",
  pe: "es",
  ph: "en",
  pl: "pl",
  pt: "pt",
  ro: "ro",
  ru: "ru",
  sa: "ar",
  se: "sv",
  sg: "en",
  sk: "sk",
  th: "th",
  tr: "tr",
  tw: "zh",
  ua: "uk",
  uk: "en",
  us: "en",
  vn: "vi",
  za: "en",
};

/** ISO 639-1 language most users in `region` search in, or undefined when unknown. */
export function primaryLanguage(region: string | undefined): string | undefined {
  return region === undefined ? undefined : PRIMARY_LANGUAGE[region.toLowerCase()];
}
