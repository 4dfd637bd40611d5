/** Route ids are Base64-encoded (api-contract §1: the original used btoa/atob). */
import { notFound } from '@tanstack/react-router';

export function encodeRouteId(id: string): string {
  return btoa(id);
}

/** The id in a route, or null when the text is not valid Base64. */
export function decodeRouteId(text: string): string | null {
  try {
    return atob(decodeURIComponent(text));
  } catch {
    return null;
  }
}

/**
 * The router's own parsing of a route's `$id` (TanStack Router `params`): screens read the
 * decoded id from useParams, and an id that is not Base64 (or is empty) is the router's
 * not-found screen before any screen renders.
 */
export const routeIdParams = {
  parse: (raw: Record<string, string>): { id: string } => {
    const decoded = decodeRouteId(raw.id ?? '');
    if (!decoded) throw notFound();
    return { id: decoded };
  },
  stringify: ({ id }: { id: string }): { id: string } => ({ id: encodeRouteId(id) }),
};
