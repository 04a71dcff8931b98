const PAGE_SIZE = 20;

export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
}

/** The 1-based page `requested` of `items` (out-of-range pages clamp to the nearest one). */
export function paginate<T>(items: readonly T[], requested: unknown, size = PAGE_SIZE): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const asked = Number.parseInt(String(requested ?? "1"), 10);
  const page = Math.min(Math.max(Number.isFinite(asked) ? asked : 1, 1), pages);
  return { items: items.slice((page - 1) * size, page * size), page, pages, total: items.length };
}

/** The current URL's query with one parameter changed (undefined removes it). */
export function withParam(
  params: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
  value: string | undefined,
): string {
  const query = new URLSearchParams();
  for (const [key, current] of Object.entries(params)) {
    if (key === name || current === undefined) continue;
    for (const item of Array.isArray(current) ? current : [current]) query.append(key, item);
  }
  if (value !== undefined) query.set(name, value);
  const text = query.toString();
  return text ? `?${text}` : "?";
}
