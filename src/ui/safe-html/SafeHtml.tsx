/**
 * Shows stored rich text (subject content, About Us, Terms) as HTML, cleaned first with the
 * shared allowlist (rich-text-sanitizer.ts). The sanitiser loads on demand, so screens that
 * render HTML pay for it and the first load does not; nothing shows until it has loaded.
 */
import { lazy, Suspense } from 'react';

const SafeHtmlContent = lazy(() => import('./SafeHtmlContent'));

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  return (
    <Suspense fallback={null}>
      <SafeHtmlContent html={html} className={className} />
    </Suspense>
  );
}
