import { EVENT_PRICE_MAX, EVENT_SEARCH_MAX_LENGTH } from '@stagedoor/shared/limits';
import { ChevronDown, SlidersHorizontal } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/field';
import { cn } from '../../../lib/cn';
import {
  activeFilterCount,
  cleanSearch,
  isRangeReversed,
  sameSearch,
  type EventSearch,
} from '../lib/event-search';

/** How long typing must pause before the list is searched again. */
export const SEARCH_DEBOUNCE_MS = 300;

type EventSearchFormProps = {
  /** The search the URL holds. */
  search: EventSearch;
  onSearch: (search: EventSearch) => void;
};

/**
 * The search box and filters of /events. What is typed goes to `onSearch` once typing pauses (at once
 * on Enter), cleaned of what the API would refuse. Below `sm` the filters fold under a toggle, so a
 * phone's first screen still reaches the events; from `sm` up they are always shown and it is hidden.
 */
export function EventSearchForm({ search, onSearch }: EventSearchFormProps) {
  const [draft, setDraft] = useState(search);
  // A link with reversed dates opens on their error rather than behind a closed toggle.
  const [isFiltersOpen, setIsFiltersOpen] = useState(() => isRangeReversed(search));
  const filtersId = useId();
  const [sent, setSent] = useState(search);
  // The URL changed by itself (Clear search, the Events link): the form shows what it now says.
  if (!sameSearch(search, sent)) {
    setSent(search);
    setDraft(search);
  }

  useEffect(() => {
    const next = cleanSearch(draft);
    if (sameSearch(next, sent)) return;
    const timer = setTimeout(() => {
      setSent(next);
      onSearch(next);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, sent, onSearch]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = cleanSearch(draft);
    setSent(next);
    onSearch(next);
  };
  const field = (name: keyof EventSearch) => ({
    name,
    value: draft[name],
    onChange: ({ target: { value } }: { target: { value: string } }) =>
      setDraft((current) => ({ ...current, [name]: value })),
  });
  const filterCount = activeFilterCount(draft);

  return (
    <form
      role="search"
      aria-label="Search events"
      onSubmit={submit}
      className="mb-8 grid grid-cols-2 items-start gap-4 lg:grid-cols-[2fr_1fr_1fr_1fr_auto]"
    >
      <div className="col-span-2 sm:col-span-1">
        <Input
          label="Search"
          type="search"
          placeholder="Event, description or creator"
          maxLength={EVENT_SEARCH_MAX_LENGTH}
          {...field('q')}
        />
      </div>
      <Button
        variant="secondary"
        aria-expanded={isFiltersOpen}
        aria-controls={filtersId}
        onClick={() => setIsFiltersOpen((isOpen) => !isOpen)}
        className="sm:hidden"
      >
        <SlidersHorizontal aria-hidden className="size-4" />
        {/* Its name is its text, 'Filters 2 active', so what is read out starts with what is seen. */}
        Filters{' '}
        {filterCount ? (
          <span className="rounded-full bg-brand-600 px-2 text-xs text-white">
            {filterCount} <span className="sr-only">active</span>
          </span>
        ) : null}
        <ChevronDown
          aria-hidden
          className={cn('size-4 transition-transform', isFiltersOpen && 'rotate-180')}
        />
      </Button>
      {/* From `sm` up the filters are items of the form's grid, as if this box were not there. */}
      <div
        id={filtersId}
        className={cn('col-span-2 gap-4 sm:contents', isFiltersOpen ? 'grid grid-cols-2' : 'hidden')}
      >
        <Input label="From" type="date" max={draft.to || undefined} {...field('from')} />
        <Input
          label="To"
          type="date"
          min={draft.from || undefined}
          error={isRangeReversed(draft) ? 'Must not be before From' : undefined}
          {...field('to')}
        />
        <Input
          label="Maximum price ($)"
          type="number"
          inputMode="decimal"
          min={0}
          max={EVENT_PRICE_MAX}
          step={0.01}
          {...field('maxPrice')}
        />
      </div>
      {/* With several fields, only a submit button lets Enter submit the form. On a phone it sits
          beside the toggle while the filters are folded. */}
      <Button type="submit" className="col-start-2 sm:col-start-auto lg:mt-7">
        Search
      </Button>
    </form>
  );
}
