/**
 * The countries and languages Brave and You.com take: the same lists in both providers' own material
 * (brave/brave-search-mcp-server src/tools/web/params.ts `country`/`search_lang`; youdotcom-oss/
 * youdotcom-typescript-sdk src/models/country.ts and language.ts, uppercase), but for Greek, which only
 * You.com lists (`alsoPlain`). Brave refuses any other value
 * with a 422; what reaches them is mapped here, and what cannot be is said in a note (ProviderResponse
 * .adjustments).
 */
import type { Fitted } from "./adapter-kit";

const MARKETS = new Set(
  "AR AU AT BE BR CA CL DK FI FR DE HK IN ID IT JP KR MY MX NL NZ NO CN PL PT PH RU SA ZA ES SE CH TW TR GB US".split(
    " ",
  ),
);

// Listed languages that are plain ISO 639-1 codes; the others are spelled their own way (marketLanguage).
const PLAIN_LANGUAGES = new Set(
  "ar bg bn ca cs da de en es et eu fi fr gl gu he hi hr hu is it kn ko lt lv ml mr ms nl pa pl ro ru sk sl sr sv ta te th tr uk vi".split(
    " ",
  ),
);

/** The region as one of the listed countries (uppercase; uk is GB), or undefined when it is not listed. */
export function marketCountry(region: string): string | undefined {
  const code = region.toUpperCase() === "UK" ? "GB" : region.toUpperCase();
  return MARKETS.has(code) ? code : undefined;
}

/**
 * ISO 639-1 → the listed spelling ("jp", "zh-hans", "pt-br", "en-gb", "nb", lowercase as Brave writes it);
 * undefined for a language neither lists.
 */
export function marketLanguage(
  language: string | undefined,
  region: string | undefined,
  alsoPlain: readonly string[] = [],
): string | undefined {
  if (language === undefined) return undefined;
  if (language === "en" && (region === "gb" || region === "uk")) return "en-gb";
  if (PLAIN_LANGUAGES.has(language) || alsoPlain.includes(language)) return language;
  switch (language) {
    case "ja":
      return "jp";
    case "zh":
      return region === "tw" || region === "hk" ? "zh-hant" : "zh-hans";
    case "pt":
      return region === "br" ? "pt-br" : "pt-pt";
    case "nb":
    case "no":
      return "nb";
    default:
      return undefined;
  }
}

/** The call's language as the provider's parameter; one it does not list is not sent, and said. */
export function fittedLanguage(
  language: string | undefined,
  region: string | undefined,
  { provider, parameter, alsoPlain }: { provider: string; parameter: string; alsoPlain?: readonly string[] },
): Fitted<string | undefined> {
  const value = marketLanguage(language, region, alsoPlain);
  if (language === undefined || value !== undefined) return { value };
  return { value, note: `language "${language}" is not one ${provider}'s ${parameter} takes: not sent` };
}
