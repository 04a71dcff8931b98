/**
 * Large HTML pages shaped like the ones that are large on the real web, for the fetch conversion's tests and
 * bench: a forum thread / live blog of about `targetBytes` (thousands of posts, each a few levels of nested
 * divs with an author box, paragraphs with links, reactions, sometimes a quote, a table or code), and a
 * hostile page (elements nested `depth` deep, then `count` siblings) that no real page needs.
 */
export function forumThread(targetBytes: number, title = "Release day live thread"): string {
  const chrome = `<header><nav>${Array.from({ length: 60 }, (_, i) => `<a href="/forum/${i}">Board ${i}</a>`).join(" ")}</nav></header>`;
  const posts: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const quote =
      i % 7 === 3
        ? `<blockquote class="quote"><div class="quote-author">user${i - 1} wrote:</div><p>I still think the migration guide skips the part about the cache.</p></blockquote>`
        : "";
    const table =
      i % 25 === 0
        ? `<table class="stats"><tr><th>Build</th><th>Time</th><th>Size</th></tr>${Array.from({ length: 5 }, (_, r) => `<tr><td>#${i + r}</td><td>${r * 3}.2 s</td><td>${r * 40} KB</td></tr>`).join("")}</table>`
        : "";
    const code =
      i % 30 === 0
        ? `<pre><code class="language-sh">npm install --save-exact app@${i}.0.0\nnpm run build</code></pre>`
        : "";
    const post = `<div class="post" id="post-${i}"><div class="post-inner"><div class="post-header"><div class="author"><a href="/u/user${i}" class="avatar"><img src="/a/${i}.png" alt=""></a><div class="author-meta"><a href="/u/user${i}">user${i}</a><span class="rank">Member</span></div></div><time datetime="2026-11-30T12:${String(i % 60).padStart(2, "0")}:00Z">12:${i % 60}</time></div><div class="post-body">${quote}<p>Post ${i}: upgraded the staging cluster and the <a href="/t/${i}">rollout notes</a> held up, except that the health checks took <strong>twice</strong> as long as before.</p><p>Has anyone else seen the <em>worker pool</em> warning after the restart? It went away after clearing the cache, see <a href="https://example.org/issue/${i}">the issue</a>.</p>${table}${code}</div><div class="post-footer"><span class="reactions"><button>👍 ${i % 13}</button><button>❤ ${i % 5}</button></span><a href="#post-${i}" class="permalink">#${i}</a><a href="/report/${i}">Report</a></div></div></div>\n`;
    posts.push(post);
    size += post.length;
  }
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="A long thread"></head><body>${chrome}<main><div class="thread"><h1>${title}</h1><div class="posts">${posts.join("")}</div></div></main><aside>Related threads</aside><footer>© Example forum</footer></body></html>`;
}

/** Markup no real page has: `depth` unclosed levels of nesting, then `count` sibling elements. */
export function hostilePage(depth: number, count: number): string {
  return `<!DOCTYPE html><html><head><title>hostile</title></head><body>${"<div><span>".repeat(depth)}${"<p>x <a href=/a>y</a></p>".repeat(count)}</body></html>`;
}
