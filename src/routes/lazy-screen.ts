/**
 * A screen loaded on demand, as TanStack Router's `lazyRouteComponent` does it (its
 * reload-on-missing-chunk part left out: the service worker keeps each build's chunks, and the
 * first load has no room for it): `preload` loads the module, which the router calls before it
 * renders a navigation (and on hover and touch: `defaultPreload: 'intent'`), and once loaded
 * the screen renders at once. React's own lazy components suspend at their first render even
 * when loaded, and React reveals suspended content no sooner than 300 ms after its fallback.
 */
import { createElement, type FunctionComponent, use } from 'react';

export type LazyScreen<P> = FunctionComponent<P> & { preload: () => Promise<void> };

export function lazyScreen<M, K extends keyof M>(
  importer: () => Promise<M>,
  name: K,
): LazyScreen<M[K] extends FunctionComponent<infer P> ? P : never> {
  let screen: FunctionComponent<never> | undefined;
  let loading: Promise<void> | undefined;
  let failure: unknown;
  // A failed load is thrown where the screen renders (to its error boundary), as a lazy
  // component's is, and tried again the next time.
  const preload = () => {
    loading ??= importer().then(
      (module) => {
        screen = module[name] as FunctionComponent<never>;
      },
      (error) => {
        loading = undefined;
        failure = error;
      },
    );
    return loading;
  };
  // biome-ignore lint/correctness/noComponentHookFactories: made once per screen at start, like a lazy component
  const Screen = (props: never) => {
    if (failure !== undefined) {
      const error = failure;
      failure = undefined;
      throw error;
    }
    if (!screen) use(preload());
    return createElement(screen as FunctionComponent<never>, props);
  };
  return Object.assign(Screen, { preload }) as never;
}
