import { EVENT_PRICE_MAX, EVENT_SEARCH_MAX_LENGTH } from '@stagedoor/shared/limits';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/field';
import { cleanSearch, sameSearch, type EventSearch } from '../lib/event-search';

/** How long typing must pause before the list is searched again. */
export const SEARCH_DEBOUNCE_MS = 300;

type EventSearchFormProps = {
  /** The search the URL holds. */
  search: EventSearch;
  onSearch: (search: EventSearch) => void;
};

/**
 * The search box and filters of /events. What is typed goes to `onSearch` once typing pauses (at once
 * on Enter), cleaned of what the API would refuse.
 */
export function EventSearchForm({ search, onSearch }: EventSearchFormProps) {
  const [draft, setDraft] = useState(search);
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
  const isRangeReversed = draft.from !== '' && draft.to !== '' && draft.to < draft.from;

  return (
    <form
      role="search"
      aria-label="Search events"
      onSubmit={submit}
      className="mb-8 grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto]"
    >
      <Input
        label="Search"
        type="search"
        placeholder="Event, description or creator"
        maxLength={EVENT_SEARCH_MAX_LENGTH}
        {...field('q')}
      />
      <Input label="From" type="date" max={draft.to || undefined} {...field('from')} />
      <Input
        label="To"
        type="date"
        min={draft.from || undefined}
        error={isRangeReversed ? 'Must not be before From' : undefined}
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
      {/* With several fields, only a submit button lets Enter submit the form. */}
      <Button type="submit" className="lg:mt-7">
        Search
      </Button>
    </form>
  );
}
