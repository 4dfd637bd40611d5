/**
 * The offline verifier: PBKDF2 with SHA-256 over the password and a random salt, through the
 * browser's Web Crypto (native, off the page's thread). The iteration count follows OWASP's
 * current advice for PBKDF2-HMAC-SHA256, so that a stolen device's store costs an attacker as
 * much per guess as the advice intends; each verifier keeps its own count, so raising it later
 * leaves existing ones readable.
 */

export const ITERATIONS = 600_000;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function derive(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

export async function makeVerifier(
  password: string,
  iterations = ITERATIONS,
): Promise<{ salt: string; verifier: string; iterations: number }> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { salt: toBase64(salt), verifier: toBase64(await derive(password, salt, iterations)), iterations };
}

/** Whether the password derives the stored bits (every byte compared, whatever differs first). */
export async function matchesVerifier(
  password: string,
  stored: { salt: string; verifier: string; iterations: number },
): Promise<boolean> {
  const derived = await derive(password, fromBase64(stored.salt), stored.iterations);
  const expected = fromBase64(stored.verifier);
  let difference = derived.length ^ expected.length;
  for (let i = 0; i < derived.length; i++) difference |= derived[i]! ^ (expected[i] ?? 0);
  return difference === 0;
}
