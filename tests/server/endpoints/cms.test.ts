/**
 * About Us and Terms on the server: api-contract §3.17's endpoints (getaboutus,
 * addaboutus, updateaboutus: JSON {content}) and our extensions (CMS/Terms getterms and
 * updateterms; CMS/Images addimage and fetchimages), each with success, refusal without a
 * session and bad input: HTML with scripts and event handlers stored clean, a body that is not
 * an object, content that cleans to nothing, an image that is not an image, one too large.
 * In legacy mode our extensions are absent (404) and About Us works as the PHP API has it.
 */
import { describe, expect, it } from 'vitest';
import { aboutUsEntity, contentImageEntity, termsEntity } from '../../../src/contract/entities';
import { pngFile } from '../../helpers/files';
import { api, signedInSuite } from '../../helpers/server';

const A = aboutUsEntity.api;
const T = termsEntity.api;
const I = contentImageEntity.api;

const HOSTILE =
  '<h2 onmouseover="steal()">About</h2><p>We <strong>publish</strong> books.' +
  '<img src="https://example.org/a.png" onerror="alert(1)"><script>alert(2)</script></p>' +
  '<p><a href="javascript:alert(3)">bad</a><img src="blob:http://localhost/1f" data-pending-upload="tmp-1"></p>';
const CLEAN =
  '<h2>About</h2><p>We <strong>publish</strong> books.<img src="https://example.org/a.png" /></p><p><a>bad</a></p>';

const form = (fields: Record<string, string | Blob>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

describe('About Us (api-contract §3.17)', () => {
  const suite = signedInSuite();

  it('get answers empty content before anything was written, then what add and update stored', async () => {
    expect((await suite.client.get(A.get!)).body).toEqual({ success: true, content: '' });
    const added = await suite.client.post(A.add!, { content: '<p>First</p>' });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ success: true, message: 'Content added successfully' });
    expect((await suite.client.get(A.get!)).body).toEqual({ success: true, content: '<p>First</p>' });
    const updated = await suite.client.post(A.update!, { content: '<p>Second</p>' });
    expect(updated.body).toEqual({ success: true, message: 'Content updated successfully' });
    expect((await suite.client.get(A.get!)).body).toEqual({ success: true, content: '<p>Second</p>' });
    // An add when the document exists replaces its content: one document, never two.
    await suite.client.post(A.add!, { content: '<p>Third</p>' });
    expect((await suite.client.get(A.get!)).body.content).toBe('<p>Third</p>');
    expect(await suite.server.query('SELECT count(*)::int AS n FROM about_us')).toEqual([{ n: 1 }]);
  });

  it('stores HTML with scripts, event handlers and javascript: or blob: URLs clean', async () => {
    for (const path of [A.add!, A.update!]) {
      const reply = await suite.client.post(path, { content: HOSTILE });
      expect(reply.body.success, path).toBe(true);
      expect((await suite.client.get(A.get!)).body.content, path).toBe(CLEAN);
    }
  });

  it('stores its own content images by path, whatever address the tablet used; other images as sent', async () => {
    const sent =
      '<p><img src="http://192.168.1.20:8080/api/uploads/cms/1795_a.png" alt="Map">' +
      '<img src="https://publisher.example/api/uploads/cms/2.png">' +
      '<img src="https://example.org/api/uploads/other/3.png"></p>';
    await suite.client.post(A.update!, { content: sent });
    expect((await suite.client.get(A.get!)).body.content).toBe(
      '<p><img src="/api/uploads/cms/1795_a.png" alt="Map" />' +
        '<img src="/api/uploads/cms/2.png" />' +
        '<img src="https://example.org/api/uploads/other/3.png" /></p>',
    );
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    await suite.client.post(A.update!, { content: '<p>Kept</p>' });
    const cases: [string, unknown][] = [
      ['no content', {}],
      ['empty content', { content: '   ' }],
      ['content that cleans to nothing', { content: '<script>alert(1)</script><p onclick="x()"></p>' }],
      ['content that is not text', { content: { html: '<p>x</p>' } }],
      ['a list instead of an object', '[{"content":"<p>x</p>"}]'],
      ['a JSON string', '"<p>x</p>"'],
      ['malformed JSON', '{"content": '],
    ];
    for (const path of [A.add!, A.update!]) {
      for (const [what, body] of cases) {
        const reply = await suite.client.post(path, body);
        expect(reply.status, `${path}: ${what}`).toBe(400);
        expect(reply.body, `${path}: ${what}`).toMatchObject({ success: false, message: expect.any(String) });
      }
    }
    const tooLong = await suite.client.post(A.update!, { content: `<p>${'x'.repeat(200_001)}</p>` });
    expect(tooLong.status).toBe(400);
    expect((await suite.client.get(A.get!)).body.content).toBe('<p>Kept</p>');
  });

  it('refuses every endpoint without a session', async () => {
    const anonymous = api(suite.server.apiRoot);
    expect((await anonymous.get(A.get!)).status).toBe(401);
    for (const path of [A.add!, A.update!]) {
      const reply = await anonymous.post(path, { content: '<p>Anonymous</p>' });
      expect(reply, path).toMatchObject({ status: 401, body: { success: false } });
    }
    expect((await suite.client.get(A.get!)).body.content).not.toContain('Anonymous');
  });
});

describe('Terms (our extension: CMS/Terms)', () => {
  const suite = signedInSuite({ seedDemo: true });

  it('get answers the demo terms; update stores the one document', async () => {
    const before = await suite.client.get(T.get!);
    expect(before.body).toEqual({ success: true, content: expect.stringContaining('Terms and Conditions') });
    const updated = await suite.client.post(T.update!, { content: '<p>New terms</p>' });
    expect(updated.body).toEqual({ success: true, message: 'Terms and Conditions updated successfully' });
    expect((await suite.client.get(T.get!)).body).toEqual({ success: true, content: '<p>New terms</p>' });
    // Terms and About Us are two documents.
    expect((await suite.client.get(A.get!)).body.content).toContain('About us');
  });

  it('stores HTML with scripts and event handlers clean, refuses bad input', async () => {
    expect((await suite.client.post(T.update!, { content: HOSTILE })).body.success).toBe(true);
    expect((await suite.client.get(T.get!)).body.content).toBe(CLEAN);
    for (const body of [{}, { content: '<script>x</script>' }, '[1]', { content: 5 }]) {
      const reply = await suite.client.post(T.update!, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.success).toBe(false);
    }
    expect((await suite.client.get(T.get!)).body.content).toBe(CLEAN);
  });

  it('refuses without a session', async () => {
    const anonymous = api(suite.server.apiRoot);
    expect((await anonymous.get(T.get!)).status).toBe(401);
    expect((await anonymous.post(T.update!, { content: '<p>x</p>' })).status).toBe(401);
  });
});

describe('Content images (our extension: CMS/Images)', () => {
  const suite = signedInSuite();

  it('stores an image in the public cms folder and answers its file name as the id', async () => {
    const reply = await suite.client.post(I.add!, form({ image: pngFile('photo.png', 2048) }));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const name = reply.body.id;
    expect(name).toMatch(/\.png$/);
    expect(reply.body).toMatchObject({ success: true, image: name });
    // Public, like every content upload: the student apps load it without a session.
    const served = await fetch(`${suite.server.apiRoot}/uploads/cms/${name}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect((await served.arrayBuffer()).byteLength).toBe(2048);
    const listed = await suite.client.get(I.list!);
    expect(listed.body.images.map((r: { image: string }) => r.image)).toContain(name);
  });

  it('refuses what is not an image, one too large, no file, and JSON', async () => {
    const text = new File(['<svg onload="alert(1)"></svg>'], 'evil.png', { type: 'image/png' });
    const cases: [string, FormData | object, string][] = [
      ['a text file named .png', form({ image: text }), 'Image must be a jpg, jpeg, png or gif image'],
      ['11 MB', form({ image: pngFile('big.png', 11 * 1024 * 1024) }), 'Image is larger than 10 MB'],
      ['no file', form({}), 'Image is required'],
      ['text instead of a file', form({ image: 'photo.png' }), 'Image must be a file'],
    ];
    const before = await suite.server.query('SELECT count(*)::int AS n FROM content_images');
    for (const [what, body, message] of cases) {
      const reply = await suite.client.post(I.add!, body);
      expect(reply.status, what).toBe(400);
      expect(reply.body, what).toEqual({ success: false, message });
    }
    const json = await suite.client.post(I.add!, { image: 'x' });
    expect(json.status).toBe(400);
    expect(await suite.server.query('SELECT count(*)::int AS n FROM content_images')).toEqual(before);
  });

  it('refuses without a session', async () => {
    const anonymous = api(suite.server.apiRoot);
    expect((await anonymous.post(I.add!, form({ image: pngFile() }))).status).toBe(401);
    expect((await anonymous.get(I.list!)).status).toBe(401);
  });
});

describe('legacy mode: the plain PHP API', () => {
  const suite = signedInSuite({ legacy: true });

  it('has About Us but neither Terms nor content images', async () => {
    expect((await suite.client.post(A.update!, { content: '<p>Legacy</p>' })).body.success).toBe(true);
    expect((await suite.client.get(A.get!)).body.content).toBe('<p>Legacy</p>');
    for (const reply of [
      await suite.client.get(T.get!),
      await suite.client.post(T.update!, { content: '<p>x</p>' }),
      await suite.client.get(I.list!),
      await suite.client.post(I.add!, form({ image: pngFile() })),
    ])
      expect(reply).toMatchObject({ status: 404, body: { success: false } });
  });

  it('still asks for a session first', async () => {
    expect((await api(suite.server.apiRoot).get(T.get!)).status).toBe(401);
  });
});
