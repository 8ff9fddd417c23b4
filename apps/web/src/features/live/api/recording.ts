import { ZRecordingChunkAnswer, type RecordingChunkQuery } from '@stagedoor/shared/replays';
import { api } from '../../../lib/api-client';

/** POST /events/{id}/recording: one chunk of the studio's recording of its show, in order. */
export async function uploadRecordingChunk(
  eventId: number,
  query: RecordingChunkQuery,
  chunk: Blob,
): Promise<void> {
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
  );
  await api.post(`/events/${eventId}/recording?${search}`, chunk, { schema: ZRecordingChunkAnswer });
}
