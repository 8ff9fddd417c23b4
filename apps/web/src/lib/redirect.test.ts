import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it.each(['/user/dashboard', '/events/5/checkout?quantity=2', '/purchase-confirmation/5/2#top'])(
    'keeps the local path %s',
    (path) => expect(safeRedirect(path)).toBe(path),
  );

  it.each([
    ['nothing', null],
    ['an empty value', ''],
    ['an absolute URL', 'https://evil.example/steal'],
    ['a protocol-relative URL', '//evil.example/steal'],
    ['a backslash variant', '/\\evil.example/steal'],
    ['a tab trick', '/\t/evil.example'],
    ['a relative path', 'user/dashboard'],
    ['a javascript URL', 'javascript:alert(1)'],
  ])('refuses %s', (_, value) => expect(safeRedirect(value)).toBeNull());
});
