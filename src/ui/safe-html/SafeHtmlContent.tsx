import { useMemo } from 'react';
import { sanitizeRichText } from './rich-text-sanitizer';

/** SafeHtml's body, loaded on demand with DOMPurify. */
export default function SafeHtmlContent({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitizeRichText(html), [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned just above with the shared allowlist
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
