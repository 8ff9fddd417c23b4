import type { VisitedPage } from '@stagedoor/shared/analytics';
import { useEffect } from 'react';
import { api } from '../../../lib/api-client';

/**
 * Reports a visit of the event's page to its creator's analytics (POST /events/{id}/views): once when
 * the page shows the event, not at each render (strict mode's second run in development is counted
 * once by the server, as any visitor's repeat). The report outlives a visitor who leaves at once
 * (keepalive), and its failure is nobody's business on the page: nothing is shown.
 */
export function useReportVisit(eventId: number, page: VisitedPage): void {
  useEffect(() => {
    api.post(`/events/${eventId}/views`, { page }, { keepalive: true }).catch(() => undefined);
  }, [eventId, page]);
}
