import type { ReplayChatMessage } from '@stagedoor/shared/replays';

/** The playback speeds a replay offers, normal among them. */
export const REPLAY_SPEEDS = [0.75, 1, 1.25, 1.5, 2] as const;

/** The messages of the show's chat said by `seconds` into its replay: what the chat shows at that moment. */
export function saidBy(messages: readonly ReplayChatMessage[], seconds: number): ReplayChatMessage[] {
  return messages.filter((message) => message.offsetS <= seconds);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A moment of the replay as a player's clock reads it: `0:07`, `12:05`, `1:02:05`. */
export function formatReplayClock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${minutes}:${pad(rest)}`;
}

/** The same moment as an HTML duration (`PT1H2M5S`), for a `<time dateTime>`. */
export function replayClockDateTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${whole % 60}S`;
}
