/**
 * A list asks for a page from the click or keystroke that wants it, before the
 * router commits the address; when the address commits, the list asks again only for a query
 * it did not ask ahead (src/ui/list/asked-ahead.ts).
 */
import { describe, expect, it } from 'vitest';
import { AskedAhead } from '../../../src/ui/list/asked-ahead';

describe('queries asked ahead of their address', () => {
  it('asks for an address the user did not ask here (the opening, back/forward, a link)', () => {
    const ahead = new AskedAhead();
    expect(ahead.committed('{"page":1}')).toBe(true);
    expect(ahead.committed('{"page":1}')).toBe(true);
  });

  it('does not ask again for a query asked ahead once its address commits', () => {
    const ahead = new AskedAhead();
    ahead.asked('{"page":10001}');
    expect(ahead.committed('{"page":10001}')).toBe(false);
    // Asked once: the same address again (back, then forward) is asked.
    expect(ahead.committed('{"page":10001}')).toBe(true);
  });

  it('drops an older address committed after a newer query was asked (typing fast)', () => {
    const ahead = new AskedAhead();
    ahead.asked('{"search":"s"}');
    ahead.asked('{"search":"sh"}');
    ahead.asked('{"search":"sha"}');
    expect(ahead.committed('{"search":"s"}')).toBe(false);
    // The router may skip an address: the newest commits without "sh".
    expect(ahead.committed('{"search":"sha"}')).toBe(false);
    expect(ahead.committed('{"search":"sh"}')).toBe(true);
  });

  it('forgets what was asked ahead when another address comes from elsewhere', () => {
    const ahead = new AskedAhead();
    ahead.asked('{"page":2}');
    expect(ahead.committed('{"page":5}')).toBe(true);
    expect(ahead.committed('{"page":2}')).toBe(true);
    ahead.asked('{"page":3}');
    ahead.clear();
    expect(ahead.committed('{"page":3}')).toBe(true);
  });

  it('keeps a bounded list when addresses never commit', () => {
    const ahead = new AskedAhead();
    for (let n = 0; n < 100; n++) ahead.asked(`{"page":${n}}`);
    expect(ahead.committed('{"page":0}')).toBe(true);
    for (let n = 0; n < 100; n++) ahead.asked(`{"page":${n}}`);
    expect(ahead.committed('{"page":99}')).toBe(false);
  });
});
