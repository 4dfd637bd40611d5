// @vitest-environment jsdom
/**
 * The rich-text allowlist (src/contract/rich-text/rich-text-allowlist.ts) through both sanitisers that apply
 * it: the server's (sanitize-html) and the app's (DOMPurify, here on jsdom as DOMPurify documents
 * for Node). Attacks are removed by both; what the editor's toolbar makes, taken from a
 * headless TipTap editor with the app's own extension list, survives both unchanged.
 */
import { Editor } from '@tiptap/core';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanRichText } from '../../../server/entity-writes/rich-text';
import { TOOLBAR_FONTS, TOOLBAR_SIZES } from '../../../src/contract/rich-text/rich-text-allowlist';
import { isWebUrl, urlAllowed } from '../../../src/contract/urls';
import { newTempId } from '../../../src/db/ids';
import { richTextExtensions } from '../../../src/ui/fields/rich-text/extensions';
import { sanitizeRichText } from '../../../src/ui/safe-html/rich-text-sanitizer';

const SANITISERS = {
  'server (sanitize-html)': cleanRichText,
  'app, stored (DOMPurify)': (html: string) => sanitizeRichText(html, 'stored'),
  'app, device (DOMPurify)': (html: string) => sanitizeRichText(html, 'device'),
};

/** Attacks and what must not be left of them. */
const ATTACKS: [name: string, html: string, gone: RegExp][] = [
  ['script tag and its text', '<p>a</p><script>alert(1)</script>', /script|alert/i],
  ['script hidden in svg', '<svg><script>alert(1)</script></svg><p>x</p>', /svg|script|alert/i],
  ['img onerror', '<img src="/x.png" onerror="alert(1)">', /onerror|alert/i],
  [
    'on* handlers on allowed tags',
    '<p onclick="a()" onmouseover="b()">t</p><a href="https://x.org" onfocus="c()">l</a>',
    /on\w+=/i,
  ],
  ['javascript: link', '<a href="javascript:alert(1)">x</a>', /javascript|alert/i],
  [
    'javascript: link with entities and spaces',
    '<a href="jav&#x09;ascript&colon;alert(1)">x</a>',
    /href|alert/i,
  ],
  ['javascript: with upper case', '<a href="JaVaScRiPt:alert(1)">x</a>', /href|alert/i],
  ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', /href/i],
  ['data: link', '<a href="data:text/html,<script>alert(1)</script>">x</a>', /data:|script/i],
  ['data: image (base64)', '<p>a</p><img src="data:image/png;base64,iVBORw0KGgo=">', /<img|data:/i],
  ['protocol-relative image', '<img src="//evil.example/x.png">', /<img|evil/i],
  [
    'iframe, object, embed, form',
    '<iframe src="https://x.org"></iframe><object data="x"></object><embed src="x"><form><input></form>',
    /iframe|object|embed|form|input/i,
  ],
  ['style element', '<style>body{display:none}</style><p>t</p>', /style|display/i],
  [
    'disallowed style properties',
    '<p style="position: fixed; top: 0; text-align: center">t</p>',
    /position|top/i,
  ],
  [
    'url() in an allowed property',
    '<span style="background-color: url(https://evil.example/x)">t</span>',
    /url|evil/i,
  ],
  ['expression() in colour', '<span style="color: expression(alert(1))">t</span>', /expression|alert/i],
  ['style on a tag that takes none', '<strong style="color: #ff0000">t</strong>', /style/i],
  ['text-align on a span', '<span style="text-align: center">t</span>', /text-align/i],
  ['classes, ids, data attributes', '<p class="x" id="y" data-x="z">t</p>', /class|id=|data-x/i],
  ['link target other than _blank', '<a href="https://x.org" target="_top">t</a>', /_top/i],
  ['unknown rel words', '<a href="https://x.org" rel="opener">t</a>', /opener/i],
  [
    'tags the toolbar has no button for',
    '<blockquote>q</blockquote><pre><code>c</code></pre><s>s</s><table><tr><td>x</td></tr></table>',
    /blockquote|pre|code|<s>|table|td/i,
  ],
  [
    'mXSS through noscript',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
    /onerror|alert/i,
  ],
];

describe.each(Object.entries(SANITISERS))('%s', (_name, sanitize) => {
  it.each(ATTACKS)('removes %s', (_attack, html, gone) => {
    expect(sanitize(html)).not.toMatch(gone);
  });

  it('keeps the text of removed wrappers, not of scripts', () => {
    expect(sanitize('<div><p>kept</p></div><script>dropped</script>')).toBe('<p>kept</p>');
  });

  it('drops an attribute with no allowed word and keeps the allowed words', () => {
    const html = '<a href="https://x.org" target="_top" rel="noopener evil">a</a>';
    expect(sanitize(html)).toBe('<a href="https://x.org" rel="noopener">a</a>');
  });

  it('keeps site-relative and web images and links', () => {
    const html =
      '<p><a href="mailto:office@example.org">m</a></p><img src="/api/uploads/content/a.png" alt="A"><img src="https://cdn.example.org/b.png">';
    expect(normalise(sanitize(html))).toBe(normalise(html));
  });
});

const TEMP_ID = 'tmp-0b6c1f8e-3f1a-4c2e-9d7e-5a4b3c2d1e0f';

describe('device-only parts', () => {
  const pending =
    '<img src="blob:http://localhost/1f2e" alt="photo" data-pending-upload="tmp-0b6c1f8e-3f1a-4c2e-9d7e-5a4b3c2d1e0f">';

  it('the app keeps an image waiting for upload, with its mark', () => {
    expect(sanitizeRichText(pending, 'device')).toBe(pending);
    // A temporary id as newTempId makes them (a sequence and 64 random bits) too.
    const sequenced = pending.replace(TEMP_ID, newTempId());
    expect(sequenced).not.toBe(pending);
    expect(sanitizeRichText(sequenced, 'device')).toBe(sequenced);
  });

  it('the server and the stored audience drop it: a blob: URL is dead off the device', () => {
    expect(cleanRichText(`<p>a</p>${pending}`)).toBe('<p>a</p>');
    expect(sanitizeRichText(`<p>a</p>${pending}`, 'stored')).toBe('<p>a</p>');
  });

  it('the mark alone does not make another scheme acceptable', () => {
    expect(sanitizeRichText('<img src="data:image/png;base64,AA==" data-pending-upload="tmp-1">')).toBe('');
  });

  it('the mark holds a temporary id and nothing else', () => {
    for (const mark of ['true', 'tmp-1', '" onerror="alert(1)', 'javascript:alert(1)'])
      expect(sanitizeRichText(`<img src="blob:http://localhost/1f" data-pending-upload='${mark}'>`)).toBe(
        '<img src="blob:http://localhost/1f">',
      );
  });
});

/** The toolbar's output, made by the editor's own extensions and commands. */
const editor = new Editor({ extensions: richTextExtensions() });
afterAll(() => editor.destroy());

function made(build: (e: Editor) => void): string {
  editor.commands.setContent('<p>Some words</p>');
  editor.commands.selectAll();
  build(editor);
  return editor.getHTML();
}

const TOOLBAR: [control: string, build: (e: Editor) => void, expected: RegExp][] = [
  ['bold', (e) => e.chain().toggleBold().run(), /<strong>/],
  ['italic', (e) => e.chain().toggleItalic().run(), /<em>/],
  ['underline', (e) => e.chain().toggleUnderline().run(), /<u>/],
  ['heading 1', (e) => e.chain().setHeading({ level: 1 }).run(), /<h1>/],
  ['heading 2', (e) => e.chain().setHeading({ level: 2 }).run(), /<h2>/],
  ['heading 3', (e) => e.chain().setHeading({ level: 3 }).run(), /<h3>/],
  ['bullet list', (e) => e.chain().toggleBulletList().run(), /<ul><li><p>/],
  ['numbered list', (e) => e.chain().toggleOrderedList().run(), /<ol><li><p>/],
  [
    'numbered list from 3',
    (e) => e.chain().toggleOrderedList().updateAttributes('orderedList', { start: 3 }).run(),
    /<ol start="3">/,
  ],
  ['colour', (e) => e.chain().setColor('#c0392b').run(), /"color: (#c0392b|rgb\(192, 57, 43\))/],
  ['colour as rgb()', (e) => e.chain().setColor('rgb(192, 57, 43)').run(), /color: rgb\(192, 57, 43\)/],
  [
    'background colour',
    (e) => e.chain().setBackgroundColor('#fff3a0').run(),
    /background-color: (#fff3a0|rgb\(255, 243, 160\))/,
  ],
  ...TOOLBAR_FONTS.map((f): [string, (e: Editor) => void, RegExp] => [
    `font ${f.label}`,
    (e) => e.chain().setFontFamily(f.value).run(),
    /font-family: /,
  ]),
  ...TOOLBAR_SIZES.map((s): [string, (e: Editor) => void, RegExp] => [
    `size ${s}`,
    (e) => e.chain().setFontSize(s).run(),
    new RegExp(`font-size: ${s}`),
  ]),
  [
    'every text style at once',
    (e) =>
      e
        .chain()
        .setColor('#123456')
        .setBackgroundColor('#abcdef')
        .setFontFamily(TOOLBAR_FONTS[1].value)
        .setFontSize('24px')
        .run(),
    /<span style="(?=.*background-color: )(?=.*[ "]color: )(?=.*font-family: Georgia)(?=.*font-size: 24px)/,
  ],
  ['align centre', (e) => e.chain().setTextAlign('center').run(), /text-align: center/],
  ['align right', (e) => e.chain().setTextAlign('right').run(), /text-align: right/],
  ['align justify', (e) => e.chain().setTextAlign('justify').run(), /text-align: justify/],
  [
    'aligned heading',
    (e) => e.chain().setHeading({ level: 2 }).setTextAlign('center').run(),
    /<h2 style="text-align: center;?">/,
  ],
  [
    'https link',
    (e) => e.chain().setLink({ href: 'https://example.org/a?b=1&c=2' }).run(),
    /href="https:\/\/example.org/,
  ],
  ['http link', (e) => e.chain().setLink({ href: 'http://example.org' }).run(), /href="http:/],
  ['mailto link', (e) => e.chain().setLink({ href: 'mailto:office@example.org' }).run(), /href="mailto:/],
  [
    'uploaded image',
    (e) =>
      e
        .chain()
        .insertContent({ type: 'image', attrs: { src: '/api/uploads/content/a.png', alt: 'A map' } })
        .run(),
    /<img src="\/api\/uploads\/content\/a.png" alt="A map">/,
  ],
  [
    'web image with title and size',
    (e) =>
      e
        .chain()
        .insertContent({
          type: 'image',
          attrs: { src: 'https://example.org/a.png', title: 'T', width: 200, height: 100 },
        })
        .run(),
    /<img src="https:\/\/example.org\/a.png" title="T" width="200" height="100">/,
  ],
  ['line break', (e) => e.chain().setTextSelection(3).setHardBreak().run(), /<br>/],
  [
    'everything cleared',
    (e) =>
      e.chain().toggleBold().setColor('#ff0000').setHeading({ level: 1 }).unsetAllMarks().clearNodes().run(),
    /^<p>Some words<\/p>$/,
  ],
];

describe('the toolbar’s output', () => {
  it.each(TOOLBAR)('%s: made by the editor', (_control, build, expected) => {
    expect(made(build)).toMatch(expected);
  });

  it.each(TOOLBAR)('%s: kept by the app as is', (_control, build) => {
    const html = made(build);
    expect(normalise(sanitizeRichText(html, 'device'))).toBe(normalise(html));
    expect(normalise(sanitizeRichText(html, 'stored'))).toBe(normalise(html));
  });

  it.each(TOOLBAR)('%s: stored by the server with the same meaning', (_control, build) => {
    const html = made(build);
    expect(normalise(cleanRichText(html))).toBe(normalise(html));
  });

  it('an image waiting for upload is made with its mark and kept by the app', () => {
    const html = made((e) =>
      e
        .chain()
        .insertContent({
          type: 'image',
          attrs: { src: 'blob:http://localhost/9a', alt: 'x', pendingUpload: TEMP_ID },
        })
        .run(),
    );
    expect(html).toContain(`<img src="blob:http://localhost/9a" alt="x" data-pending-upload="${TEMP_ID}">`);
    expect(sanitizeRichText(html, 'device')).toBe(html);
  });

  it('the editor refuses links the allowlist refuses', () => {
    const html = made((e) => e.chain().setLink({ href: 'javascript:alert(1)' }).run());
    expect(html).not.toContain('javascript');
  });

  it('stored HTML loaded into the editor comes out as it went in', () => {
    const html = made((e) =>
      e
        .chain()
        .setColor('#123456')
        .setFontSize('18px')
        .setTextAlign('right')
        .setLink({ href: 'https://x.org' })
        .run(),
    );
    const stored = cleanRichText(html);
    editor.commands.setContent(sanitizeRichText(stored));
    expect(normalise(editor.getHTML())).toBe(normalise(html));
  });
});

describe('URLs', () => {
  it('urlAllowed: listed schemes and site paths only', () => {
    expect(urlAllowed('https://a.org', ['https'])).toBe(true);
    expect(urlAllowed('/api/uploads/x.png', ['https'])).toBe(true);
    expect(urlAllowed(' java\nscript:alert(1)', ['https'])).toBe(false);
    expect(urlAllowed('\\\\evil.example\\x', ['https'])).toBe(false);
    expect(urlAllowed('//evil.example/x', ['https'])).toBe(false);
    expect(urlAllowed('mailto:a@b.org', ['https'])).toBe(false);
  });

  it('isWebUrl: absolute http and https only', () => {
    for (const ok of ['https://example.org', 'http://example.org/a?b#c', 'HTTPS://EXAMPLE.ORG/x'])
      expect(isWebUrl(ok), ok).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'ftp://x.org',
      'example.org',
      'https://',
      '/relative',
      'data:text/html,x',
      'http://exa mple.org',
    ])
      expect(isWebUrl(bad), bad).toBe(false);
  });
});

/**
 * One element tree, each inline style as `property: value; ...` without a trailing semicolon:
 * jsdom adds one where Chromium keeps TipTap's text, and sanitize-html drops the spaces.
 */
function normalise(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const el of template.content.querySelectorAll('[style]')) {
    const declarations = (el.getAttribute('style') ?? '')
      .split(';')
      .map((d) => d.trim().replace(/\s*:\s*/, ': '))
      .filter(Boolean);
    el.setAttribute('style', declarations.join('; '));
  }
  return template.innerHTML;
}
