import {
  attendeesFileName,
  ZAttendeeList,
  ZAttendeeMessagePreview,
  ZAttendeeMessageSent,
  type AttendeeMessageRequest,
} from '@stagedoor/shared/attendees';
import { keepPreviousData, useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { api, errorMessage } from '../../../lib/api-client';
import { saveFile } from '../../../lib/download';
import { notify } from '../../../lib/notify';
import { pagedListQuery } from '../../../lib/paging';
import { queryKeys } from '../../../lib/query-keys';

/** The attendee list shows this many orders, then the next as the creator scrolls. */
const ATTENDEES_PAGE_SIZE = 50;

const eventPath = (eventId: string | number) => `/events/${encodeURIComponent(String(eventId))}`;

/**
 * GET /events/{id}/attendees: the event's orders that are or were tickets, newest first, narrowed to
 * `search` (empty: all), a page at a time. A new search keeps the rows shown until its own arrive.
 */
export function useAttendees(eventId: string, search: string) {
  return useInfiniteQuery({
    ...pagedListQuery({
      queryKey: queryKeys.attendees.list(eventId, search, ATTENDEES_PAGE_SIZE),
      pageSize: ATTENDEES_PAGE_SIZE,
      readPage: (page, signal) => {
        if (search) page.set('search', search);
        return api.get(`${eventPath(eventId)}/attendees?${page.toString()}`, {
          schema: ZAttendeeList,
          signal,
        });
      },
    }),
    placeholderData: keepPreviousData,
  });
}

/** GET /events/{id}/attendees.csv, fetched with the token and handed to the browser as a download. */
export function useDownloadAttendees(event: { id: number; name: string }) {
  return useMutation({
    mutationFn: () => api.file(`${eventPath(event.id)}/attendees.csv`, { headers: { Accept: 'text/csv' } }),
    onSuccess: (file) => saveFile(file, attendeesFileName(event)),
    onError: (error) => notify(errorMessage(error, 'Failed to download the attendees'), 'error'),
  });
}

/** POST /events/{id}/message/preview: the mail as a fan gets it, and how many fans it would go to. */
export function usePreviewMessage(eventId: string) {
  return useMutation({
    mutationFn: (message: AttendeeMessageRequest) =>
      api.post(`${eventPath(eventId)}/message/preview`, message, { schema: ZAttendeeMessagePreview }),
  });
}

/** POST /events/{id}/message: mails every ticket holder; answers how many. */
export function useMessageAttendees(eventId: string) {
  return useMutation({
    mutationFn: (message: AttendeeMessageRequest) =>
      api.post(`${eventPath(eventId)}/message`, message, { schema: ZAttendeeMessageSent }),
  });
}
