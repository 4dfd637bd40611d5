/**
 * Work a screen can put off once the administrator has left it. The address changes at once,
 * but the screen being left stays on view until the next one's code has loaded (React keeps it
 * while the lazy screen suspends), and drawing it further (a dashboard chart takes tens of
 * milliseconds, four times that on a slow tablet) would only delay the screen they asked for.
 * The returned function resolves at once while the address is still this screen's, else when
 * the administrator comes back to it; if they do not, the screen goes and the work with it.
 */
import { useMatch, useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useRef } from 'react';

export function useWhenOnScreen(): () => Promise<void> {
  const { history } = useRouter();
  // The screen's own address (its route's match), not the address now: a part of the screen
  // that mounts after the administrator left still knows where it is.
  const here = useMatch({ strict: false, select: (match) => match.pathname });
  const waiting = useRef<(() => void)[]>([]);
  useEffect(
    () =>
      history.subscribe(() => {
        if (history.location.pathname === here) for (const resume of waiting.current.splice(0)) resume();
      }),
    [history, here],
  );
  return useCallback(
    () =>
      history.location.pathname === here
        ? Promise.resolve()
        : new Promise<void>((resume) => waiting.current.push(resume)),
    [history, here],
  );
}
