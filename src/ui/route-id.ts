/** Route ids are Base64-encoded (api-contract §1: the original used btoa/atob). */
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
