/**
 * Identifier normalisation for deduplication. DOIs are case-insensitive (lowercased, resolver prefix
 * dropped); arXiv's own DataCite DOIs (10.48550/arXiv.<id>) name the preprint, so they become arXiv ids
 * rather than DOIs — otherwise a preprint and its journal version would carry two conflicting DOIs.
 * arXiv ids lose their "arXiv:" prefix, URL and version suffix.
 */

const DOI_PREFIX = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/i;
const ARXIV_DOI = /^10\.48550\/arxiv\.(.+)$/i;
const ARXIV_URL = /^https?:\/\/(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf)\//i;
const ARXIV_ID = /^(\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?\/\d{7})$/i;

export interface PaperIds {
  doi?: string;
  arxivId?: string;
}

/** A DOI as given (bare, doi:, or resolver URL) → its normalised DOI, or the arXiv id it stands for. */
export function normalizeDoi(raw: string | null | undefined): PaperIds {
  const doi = raw?.trim().replace(DOI_PREFIX, "").toLowerCase();
  if (!doi?.startsWith("10.")) return {};
  const arxiv = ARXIV_DOI.exec(doi);
  if (arxiv?.[1] !== undefined) {
    const arxivId = normalizeArxivId(arxiv[1]);
    return arxivId === undefined ? {} : { arxivId };
  }
  return { doi };
}

/** "arXiv:2101.00001v2", "https://arxiv.org/abs/2101.00001v2", "hep-th/9901001" → "2101.00001", … */
export function normalizeArxivId(raw: string | null | undefined): string | undefined {
  const id = raw
    ?.trim()
    .replace(ARXIV_URL, "")
    .replace(/^arxiv:/i, "")
    .replace(/\.pdf$/i, "")
    .replace(/v\d+$/i, "")
    .toLowerCase();
  return id !== undefined && ARXIV_ID.test(id) ? id : undefined;
}

/** Title + first author's family name, for papers without shared identifiers; undefined when either is missing. */
export function titleAuthorKey(title: string, authors: readonly string[]): string | undefined {
  const normalizedTitle = foldText(title);
  const family = familyName(authors[0] ?? "");
  if (normalizedTitle.length < 10 || family === "") return undefined;
  return `${normalizedTitle}|${family}`;
}

/** Last word of a display name ("Ashish Vaswani", "A. Vaswani" → "vaswani"), folded. */
function familyName(name: string): string {
  const words = foldText(name).split(" ");
  return words[words.length - 1] ?? "";
}

/** Lowercase ASCII words: accents, punctuation and markup differences between providers disappear. */
function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/<[^>]*>/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
