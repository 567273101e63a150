import { useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { SearchIcon } from "~/components/ui/icons";
import { useHydrated } from "~/utils/hydrated";
import type { SearchSuggestions, Suggestion } from "../../core/catalog-schema";
import { SEARCH_MAX_LENGTH } from "../../core/catalog-vocabulary";
import { PREFIX_MIN_LENGTH } from "../../core/search-words";
import { HighlightedText } from "./highlighted-text";

/** How long typing must pause before suggestions are asked for. */
const SUGGEST_DEBOUNCE_MS = 150;

interface SuggestionGroup {
  title: string;
  items: Suggestion[];
}

function groupsOf(suggestions: SearchSuggestions | null): SuggestionGroup[] {
  if (!suggestions) return [];
  return [
    { title: "Products", items: suggestions.products },
    { title: "Brands", items: suggestions.brands },
    { title: "Categories", items: suggestions.categories },
  ].filter((group) => group.items.length > 0);
}

/**
 * Suggestions for what is typed, from `/suggestions`: asked for once typing
 * pauses, the previous request dropped when a newer one starts. Null while
 * nothing is typed (or fewer characters than a prefix search needs) and when
 * the request failed: the search box then works as a plain one.
 */
function useSearchSuggestions(search: string): SearchSuggestions | null {
  const [suggestions, setSuggestions] = useState<SearchSuggestions | null>(null);
  useEffect(() => {
    const typed = search.trim();
    if (typed.length < PREFIX_MIN_LENGTH) {
      setSuggestions(null);
      return;
    }
    const request = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/suggestions?${new URLSearchParams({ search: typed })}`, { signal: request.signal })
        .then((response) => (response.ok ? (response.json() as Promise<SearchSuggestions>) : null))
        .then(setSuggestions)
        .catch(() => {
          if (!request.signal.aborted) setSuggestions(null);
        });
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      request.abort();
    };
  }, [search]);
  return suggestions;
}

/** "4 suggestions": what a screen reader hears when the list opens or changes. */
function suggestionsAnnouncement(count: number): string {
  if (count === 0) return "";
  return `${count} ${count === 1 ? "suggestion" : "suggestions"}: press the down arrow to go through them.`;
}

/**
 * The search box: a text field that filters the listing as the shopper types
 * (the form's job) and, with JavaScript, a list of suggestions under it —
 * products, brands and categories, each leading to its page. It follows the
 * WAI-ARIA combobox pattern with a listbox popup: Down and Up move through the
 * suggestions (focus stays in the field, the active one is announced through
 * aria-activedescendant), Enter opens the active one or, with none active,
 * searches; Escape closes the list and keeps the text; typing clears the
 * active one, so Enter never opens a suggestion for what was typed before.
 * Without JavaScript it is a plain search field of a GET form.
 */
export function SearchBox({
  value,
  onType,
  onEndRun,
  onLeave,
  onEscape,
  labelClassName = "text-sm font-semibold text-slate-800",
}: {
  value: string;
  /** A keystroke: the listing follows once typing pauses. */
  onType: (search: string) => void;
  /** The field lost focus. */
  onEndRun?: () => void;
  /** A suggestion was chosen: the listing must not follow the typing any more. */
  onLeave?: () => void;
  /**
   * Escape with no list open: the field keeps its text (the browser would
   * empty it) and this runs instead (the header's phone search closes).
   */
  onEscape?: () => void;
  labelClassName?: string;
}) {
  const fieldId = useId();
  const listId = useId();
  const navigate = useNavigate();
  // Suggestions follow what the shopper types here, not a search that came with the address.
  const [typed, setTyped] = useState("");
  const suggestions = useSearchSuggestions(typed);
  const groups = groupsOf(suggestions);
  const options = groups.flatMap((group) => group.items);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const focused = useRef(false);
  // The server's HTML is a plain search field: without JavaScript nothing would answer the arrow keys.
  const enhanced = useHydrated();

  // New suggestions: show them if the shopper is still in the field, nothing active yet.
  useEffect(() => {
    setActive(-1);
    setOpen(focused.current && groupsOf(suggestions).length > 0);
  }, [suggestions]);
  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  // The list stays open while the listing follows the typing underneath; choosing closes it.
  const choose = () => {
    close();
    onLeave?.();
  };

  const expanded = open && options.length > 0;
  const optionId = (index: number) => `${listId}-option-${index}`;
  // The active option stays in view when the list scrolls (a short screen).
  useEffect(() => {
    if (active >= 0)
      document.getElementById(`${listId}-option-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active, listId]);

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Escape" && !expanded && onEscape) {
      event.preventDefault();
      onEscape();
      return;
    }
    if (options.length === 0) return;
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        setOpen(true);
        setActive((index) => (expanded ? (index + 1) % options.length : 0));
        break;
      case "ArrowUp":
        event.preventDefault();
        setOpen(true);
        setActive((index) => (expanded && index > 0 ? index - 1 : options.length - 1));
        break;
      case "Enter": {
        const chosen = expanded ? options[active] : undefined;
        if (!chosen) {
          // The form searches for what is typed; the list has done its part.
          close();
          return;
        }
        // The suggestion's page, not the search form's submit.
        event.preventDefault();
        choose();
        navigate(chosen.href);
        break;
      }
      case "Escape":
        if (!expanded) return;
        // The list closes; the field keeps its text (the browser's own Escape would empty it).
        event.preventDefault();
        close();
        break;
    }
  }

  let index = -1;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={fieldId} className={labelClassName}>
        Search
      </label>
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
        <input
          id={fieldId}
          type="search"
          name="search"
          {...(enhanced
            ? {
                role: "combobox",
                "aria-autocomplete": "list",
                "aria-expanded": expanded,
                "aria-controls": listId,
                "aria-activedescendant": expanded && active >= 0 ? optionId(active) : undefined,
              }
            : {})}
          value={value}
          placeholder="Search Category"
          maxLength={SEARCH_MAX_LENGTH}
          autoComplete="off"
          enterKeyHint="search"
          onChange={(event) => {
            setActive(-1);
            setTyped(event.currentTarget.value);
            onType(event.currentTarget.value);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => {
            focused.current = true;
          }}
          onBlur={() => {
            focused.current = false;
            close();
            onEndRun?.();
          }}
          className="h-11 w-full rounded-lg border border-slate-500 bg-white pr-3 pl-9 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 hover:border-slate-700 focus:border-indigo-600"
        />
        {enhanced ? (
          <div
            id={listId}
            role="listbox"
            aria-label="Suggestions"
            hidden={!expanded}
            // A press on a suggestion must not take focus from the field first (that would close the list).
            onMouseDown={(event) => event.preventDefault()}
            className="absolute inset-x-0 top-full z-30 mt-1 max-h-[min(24rem,70vh)] overflow-y-auto rounded-lg border border-slate-500 bg-white py-1 shadow-lg"
          >
            {groups.map((group) => (
              // A listbox's group of options (ARIA): a fieldset would be a form group, not this.
              // biome-ignore lint/a11y/useSemanticElements: see above
              <div key={group.title} role="group" aria-labelledby={`${listId}-${group.title}`}>
                <div
                  id={`${listId}-${group.title}`}
                  role="presentation"
                  className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase"
                >
                  {group.title}
                </div>
                {group.items.map((item) => {
                  index += 1;
                  const selected = index === active;
                  return (
                    <Link
                      key={item.href}
                      id={optionId(index)}
                      to={item.href}
                      role="option"
                      aria-selected={selected}
                      tabIndex={-1}
                      onClick={choose}
                      // The active one has a bar at its start, not only a colour; in forced colours
                      // (where every border shows) it takes the system's highlight instead.
                      className={`block py-2 pr-3 text-sm text-slate-900 hover:bg-slate-100 ${
                        selected
                          ? "border-l-4 border-indigo-600 bg-indigo-50 pl-2 forced-colors:bg-[Highlight] forced-colors:text-[HighlightText]"
                          : "pl-3"
                      }`}
                    >
                      <HighlightedText
                        text={item.label}
                        words={suggestions?.words}
                        markClassName="bg-transparent font-bold text-inherit"
                      />
                    </Link>
                  );
                })}
              </div>
            ))}
          </div>
        ) : null}
        <div role="status" className="sr-only">
          {expanded ? suggestionsAnnouncement(options.length) : ""}
        </div>
      </div>
    </div>
  );
}
