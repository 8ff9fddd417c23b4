import type { ChatMessage } from '@stagedoor/shared/live';

/**
 * Adds messages to a list, each once (the server broadcasts a message to its sender too, who also has
 * it from the acknowledgement), in the order of their increasing ids.
 */
export function mergeMessages(list: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map(list.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
