import { hash, verify } from '@node-rs/argon2';

// The library's defaults are argon2id with OWASP's recommended cost (19 MiB, 2 passes, 1 lane).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}

let decoyHash: Promise<string> | undefined;

/** Spends the time of a real check, so an unknown email cannot be told apart by the response time. */
export async function verifyDecoyPassword(password: string): Promise<false> {
  decoyHash ??= hash('stagedoor-decoy-password');
  await verify(await decoyHash, password);
  return false;
}
