import { DEFAULT_TICKET_TYPE_NAME } from '@stagedoor/shared/events';

/**
 * The ticket type an order names, as the screens show it: not at all for the one type of an event that
 * sells one kind of ticket (its name, "General admission", would only say "ticket" again).
 */
export function shownTypeName(name: string): string | null {
  return name === DEFAULT_TICKET_TYPE_NAME ? null : name;
}
