import type { ReactNode } from "react";

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** Plain text with its http(s) links as real anchors — React elements only, never injected HTML. */
export function LinkifiedText({ text }: { text: string }) {
  const nodes: ReactNode[] = [];
  let offset = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    if (start > offset) nodes.push(<span key={`t${offset}`}>{text.slice(offset, start)}</span>);
    nodes.push(
      <a key={`a${start}`} className="link" href={match[0]}>
        {match[0]}
      </a>,
    );
    offset = start + match[0].length;
  }
  if (offset < text.length) nodes.push(<span key={`t${offset}`}>{text.slice(offset)}</span>);
  return <>{nodes}</>;
}
