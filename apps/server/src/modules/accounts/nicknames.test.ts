import { describe, expect, it } from 'vitest';
import { candidatePrefix, firstFreeNickname, nicknameBase } from './nicknames';

describe('nicknameBase', () => {
  it.each([
    ['Ada', 'Lovelace', 'ada-lovelace'],
    ['  José María ', 'Núñez-García', 'jose-maria-nunez-garcia'],
    ['DJ', '__Snake__', 'dj-__snake'],
    ['Mr.', "O'Neil!!", 'mr-o-neil'],
    ['李', '雷', 'fan'],
    ['Maximiliana Alexandrina', 'Wolfeschlegelsteinhausen', 'maximiliana-alexandrina-wolfesch'],
  ])('%s %s → %s', (firstName, lastName, expected) => {
    expect(nicknameBase(firstName, lastName, 'fan')).toBe(expected);
  });
});

describe('firstFreeNickname', () => {
  it('takes the base, then the first free numbered variant', () => {
    expect(firstFreeNickname('ada', new Set())).toBe('ada');
    expect(firstFreeNickname('ada', new Set(['ada', 'ada-2', 'ada-4']))).toBe('ada-3');
  });

  it('never hands out a word the creator routes use', () => {
    expect(firstFreeNickname('profile', new Set())).toBe('profile-2');
    expect(firstFreeNickname('header-image', new Set(['header-image-2']))).toBe('header-image-3');
  });

  it('shortens the base so the suffix fits in 32 characters, and stays under the shared prefix', () => {
    const base = 'a'.repeat(32);
    const taken = new Set([base, ...Array.from({ length: 8 }, (_, n) => `${'a'.repeat(30)}-${n + 2}`)]);
    const nickname = firstFreeNickname(base, taken);
    expect(nickname).toBe(`${'a'.repeat(29)}-10`);
    expect(nickname.startsWith(candidatePrefix(base))).toBe(true);
  });
});
