/**
 * A realistic article page of about `targetBytes`: navigation, ads, sections with links, tables and code
 * blocks around the main text, so extraction has real work to do (Readability, Markdown rendering).
 */
export function article(targetBytes: number, title = "Quarterly report"): string {
  const chrome = `<header><nav>${Array.from({ length: 40 }, (_, i) => `<a href="/section/${i}">Section ${i}</a>`).join(" ")}</nav></header>`;
  const blocks: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const added = [
      `<h2>Part ${i}</h2><p>${"The committee reviewed the quarterly figures and found them consistent with the forecast, with two exceptions discussed below. ".repeat(8)}<a href="/ref/${i}">reference ${i}</a></p>`,
    ];
    if (i % 10 === 0)
      added.push(
        `<div class="ad"><span>Advertisement</span><a href="https://ads.example/${i}">Offer ${i}</a></div>`,
      );
    if (i % 15 === 0)
      added.push(
        `<table><thead><tr><th>Quarter</th><th>Revenue</th><th>Cost</th></tr></thead><tbody>${Array.from({ length: 6 }, (_, r) => `<tr><td>Q${r}</td><td>${r * 12}</td><td>${r * 7}</td></tr>`).join("")}</tbody></table>`,
      );
    if (i % 20 === 0)
      added.push(
        `<pre><code class="language-ts">export function total(rows: number[]): number {\n  return rows.reduce((a, b) => a + b, 0);\n}</code></pre>`,
      );
    blocks.push(...added);
    size += added.join("").length;
  }
  return `<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body>${chrome}<main><article><h1>${title}</h1>${blocks.join("\n")}</article><aside>Related links</aside></main><footer>© Example</footer></body></html>`;
}
