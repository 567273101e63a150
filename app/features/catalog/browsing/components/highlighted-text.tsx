import { highlightName, type SearchWord } from "../../core/search-words";

/**
 * A name with the search's matches in <mark>: text nodes only, never HTML
 * from the data. Cards and the search box's suggestions use it.
 */
export function HighlightedText({
  text,
  words,
  markClassName,
}: {
  text: string;
  words: readonly SearchWord[] | null | undefined;
  markClassName: string;
}) {
  let offset = 0;
  return highlightName(text, words).map((part) => {
    // Where the part starts in the text: unique, and stable while the text and search are.
    const start = offset;
    offset += part.text.length;
    return part.matched ? (
      <mark key={start} className={markClassName}>
        {part.text}
      </mark>
    ) : (
      part.text
    );
  });
}
