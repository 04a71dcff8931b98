import { Fragment } from "react";

/**
 * Text written with Markdown-style `inline code` (tool summaries, descriptions), with each backtick span
 * rendered as <code> instead of showing the backticks.
 */
export function CodeText({ children }: { children: string }) {
  // Splitting on a capture group puts the code spans at the odd indices.
  const parts = children.split(/`([^`]+)`/);
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never move
      <code key={index} className="font-mono text-[0.9em]">
        {part}
      </code>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: as above
      <Fragment key={index}>{part}</Fragment>
    ),
  );
}
