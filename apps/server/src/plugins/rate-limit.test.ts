import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientKey } from './rate-limit';

const keyOf = (ip: string) => clientKey({ ip } as FastifyRequest);

describe('the client a limit counts', () => {
  it('is an IPv4 address as it is, also when a dual-stack listener maps it into IPv6', () => {
    expect(keyOf('192.0.2.7')).toBe('192.0.2.7');
    expect(keyOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(keyOf('::ffff:198.51.100.1')).not.toBe(keyOf('::ffff:192.0.2.7'));
  });

  it('is an IPv6 address by its /64, however it is written', () => {
    expect(keyOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(keyOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(keyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(keyOf('2001:db8:1:3::1')).not.toBe(keyOf('2001:db8:1:2::1'));
    expect(keyOf('::1')).toBe('0:0:0:0::/64');
  });
});
