import { ExternalLink } from "@/components/ui/external-link";
import type { ImageSearchResponse } from "@/lib/tools/responses";
import { SourceBadges } from "./source-badges";

/**
 * Images in rank order as links, not pictures: the dashboard's Content-Security-Policy loads images from
 * this origin only, so a viewer's browser never tells an image host (whoever a provider listed) it looked.
 */
export function ImageResults({ response }: { response: ImageSearchResponse }) {
  return (
    <ol className="space-y-3" aria-label="Images">
      {response.results.map((image, index) => (
        <li
          key={image.image_url}
          className="flex items-start gap-3 rounded-md border p-3"
          data-testid="image-result"
        >
          <span className="mt-0.5 w-6 shrink-0 text-right font-mono text-sm text-muted-foreground">
            {index + 1}
          </span>
          <div className="min-w-0 space-y-1">
            <ExternalLink href={image.image_url} className="font-medium">
              {image.title || image.image_url}
            </ExternalLink>
            <p className="truncate font-mono text-xs text-muted-foreground">{image.image_url}</p>
            <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
              {image.width && image.height ? (
                <span className="tabular-nums">
                  {image.width}×{image.height}
                </span>
              ) : null}
              {image.page_url ? <ExternalLink href={image.page_url}>page</ExternalLink> : null}
              {image.thumbnail_url ? <ExternalLink href={image.thumbnail_url}>thumbnail</ExternalLink> : null}
            </p>
            <SourceBadges sources={image.sources} />
          </div>
        </li>
      ))}
    </ol>
  );
}
