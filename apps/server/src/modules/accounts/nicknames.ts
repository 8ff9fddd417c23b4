import { randomBytes } from 'node:crypto';
import { NICKNAME_MAX_LENGTH } from '@stagedoor/shared/limits';

// Every candidate starts with this much of the base, whatever suffix it gets.
const SHARED_PREFIX_LENGTH = 20;

/**
 * Words that are path segments next to /creators/{nickname}/events and /creators/profile/{nickname}:
 * the router would send a creator with one of these nicknames to another route.
 */
const RESERVED_NICKNAMES: ReadonlySet<string> = new Set(['profile', 'header-image', 'profile-image']);

export function isReservedNickname(nickname: string): boolean {
  return RESERVED_NICKNAMES.has(nickname.toLowerCase());
}

/** A nickname made from a name: ASCII letters, digits, '-' and '_' only, at most 32 characters. */
export function nicknameBase(firstName: string, lastName: string, fallback: string): string {
  const slug = `${firstName} ${lastName}`
    .normalize('NFKD')
    .replace(/\p{Mark}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return (slug || fallback).slice(0, NICKNAME_MAX_LENGTH);
}

/** The prefix every candidate of this base starts with, to find the taken ones in one query. */
export function candidatePrefix(base: string): string {
  return base.slice(0, SHARED_PREFIX_LENGTH);
}

/** base, base-2, base-3…: the first candidate neither in `taken` (lower-cased nicknames) nor reserved. */
export function firstFreeNickname(base: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? '' : `-${n}`;
    const candidate = base.slice(0, NICKNAME_MAX_LENGTH - suffix.length) + suffix;
    if (!taken.has(candidate) && !isReservedNickname(candidate)) return candidate;
  }
}

/**
 * base-x7k2q9: for a registration that lost a race for the first free candidate. Every racer computes
 * the same next candidate, so counting on would only lose again; a random suffix does not.
 */
export function randomNickname(base: string): string {
  const suffix = `-${randomBytes(6)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '0')}`;
  return base.slice(0, NICKNAME_MAX_LENGTH - suffix.length) + suffix;
}
