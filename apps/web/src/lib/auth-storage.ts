import type { SessionUser } from '@stagedoor/shared/accounts';
import { SessionUserAnswer } from './answers';

const TOKEN_KEY = 'token';
const USER_KEY = 'user';

export function readStoredToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

/** A stored user that no longer matches the contract (older app version, hand edits) counts as absent. */
export function readStoredUser(): SessionUser | null {
  const raw = localStorage.getItem(USER_KEY);
  if (!raw) return null;
  try {
    const parsed = SessionUserAnswer.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function storeUser(user: SessionUser): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function clearStoredSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}
