import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { cn } from "@/components/ui/cn";
import { type CitationLookup, remarkCitations } from "@/lib/dashboard/citation-markers";

const PROSE = cn(
  "space-y-3 text-sm leading-relaxed break-words",
  "[&_h1]:text-xl [&_h1]:font-semibold [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold",
  "[&_a]:text-primary [&_a]:underline [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:pl-5",
  "[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs",
  "[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground",
  "[&_table]:block [&_table]:overflow-x-auto [&_td]:border [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:px-2 [&_th]:py-1",
  "[&_img]:max-h-64",
  "[&_sup]:ml-0.5 [&_sup_a]:no-underline [&_sup_a]:font-medium",
);

/**
 * Markdown from the web (fetched pages, model answers): GitHub-flavoured, raw HTML dropped rather than
 * rendered, links opened in a new tab without a referrer. With `citations`, each citation marker that
 * cites a page is a superscript link to it (lib/dashboard/citation-markers.ts).
 */
export function Markdown({
  children,
  className,
  citations,
}: {
  children: string;
  className?: string;
  citations?: CitationLookup;
}) {
  return (
    <div className={cn(PROSE, className)}>
      <ReactMarkdown
        remarkPlugins={citations ? [remarkGfm, remarkCitations(citations)] : [remarkGfm]}
        skipHtml
        components={{
          a: ({ node: _, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener nofollow" />,
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
