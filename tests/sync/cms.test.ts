/**
 * Content edits offline against the real server over HTTP: an image inserted in
 * About Us while offline is uploaded as a file before the content, and the content the server
 * stores refers to the image's server URL; a lost reply to the upload duplicates nothing; an
 * add of the single document keeps its fixed key; two devices' offline edits of About Us are a
 * conflict settled field by field, while a device's own chain of edits never conflicts with
 * itself; against the legacy server the client learns that Terms and images are missing.
 */
import { describe, expect, it } from 'vitest';
import { aboutUsEntity, contentImageEntity, termsEntity } from '../../src/contract/entities';
import { canonicalRichText } from '../../src/contract/rich-text/rich-text-allowlist';
import { contentImageUrl } from '../../src/contract/rich-text/rich-text-images';
import type { LocalDb } from '../../src/db/database';
import { markExtension, missingExtensions } from '../../src/db/known-extensions';
import { mutate } from '../../src/db/mutate';
import { resolveConflict } from '../../src/db/outbox/queue-actions';
import { loadIdResolver } from '../../src/db/resolve';
import { planQueue } from '../../src/sync/plan';
import { pull } from '../../src/sync/pull/pull';
import type { SyncContext } from '../../src/sync/replay';
import { pngFile } from '../helpers/files';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();
type Device = SyncContext & { db: LocalDb };

const ABOUT = aboutUsEntity.single!.id;

async function serverContent(ctx: SyncContext): Promise<string> {
  const outcome = await ctx.api.request(aboutUsEntity.api.get!, { method: 'GET' });
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return outcome.body.content as string;
}

/** Inserts an image as the editor does: its add queued, the content marked with its temporary id. */
async function insertImage(ctx: Device, name: string, size = 512) {
  const { key } = await mutate(ctx.db, {
    op: 'add',
    entity: contentImageEntity,
    values: { image: pngFile(name, size) },
  });
  return {
    key,
    html: `<img src="blob:http://localhost/${key.slice(4)}" alt="${name}" data-pending-upload="${key}">`,
  };
}

const editAboutUs = (ctx: Device, content: string) =>
  mutate(ctx.db, { op: 'update', entity: aboutUsEntity, key: ABOUT, values: { content } });

describe('an image inserted offline', () => {
  it('is uploaded first, and the content the server stores refers to it by its path on the server', async () => {
    const { proxy, ctx } = await fixtures.proxied({ seedDemo: true });
    expect((await pull(ctx)).ok).toBe(true);
    expect(await missingExtensions(ctx.db)).toEqual([]);

    // Offline: text, an image, more text; then a second image in a second save.
    const first = await insertImage(ctx, 'river.png', 700);
    await editAboutUs(ctx, `<p>Our river</p>${first.html}<p>Below it</p>`);
    const second = await insertImage(ctx, 'hills.png', 900);
    await editAboutUs(ctx, `<p>Our river</p>${first.html}<p>Below it</p>${second.html}`);

    // The content waits for both uploads, as a record waits for its parent.
    const entries = await ctx.db.outbox.toArray();
    const plan = planQueue(entries, await loadIdResolver(ctx.db), Date.now());
    const content = entries.filter((e) => e.entity === aboutUsEntity.name);
    expect(plan.ready.map((e) => e.key).sort()).toEqual([first.key, second.key].sort());
    // The second save named an image added after the first save's entry, so it was not folded in.
    expect(content).toHaveLength(2);
    expect(plan.waitsFor.get(content[0].seq)?.key).toBe(first.key);
    expect(plan.waitsFor.get(content[1].seq)?.seq).toBe(content[0].seq);

    await drain(ctx);
    const names = [await ctx.db.idmap.get(first.key), await ctx.db.idmap.get(second.key)].map(
      (m) => m?.serverId ?? '',
    );
    expect(names.every((n) => /\.png$/.test(n))).toBe(true);
    const url = (name: string) => contentImageUrl(`${proxy.url}/api`, name);
    expect(await serverContent(ctx)).toBe(
      `<p>Our river</p><img src="${url(names[0])}" alt="river.png" /><p>Below it</p>` +
        `<img src="${url(names[1])}" alt="hills.png" />`,
    );
    // Each image as a file of its own, with the bytes inserted.
    for (const [name, size] of [
      [names[0], 700],
      [names[1], 900],
    ] as const) {
      const file = await fetch(`${proxy.url}${url(name)}`);
      expect(file.status).toBe(200);
      expect((await file.arrayBuffer()).byteLength).toBe(size);
    }
    // Each upload reached the server before any content that shows it.
    const writes = proxy.log.filter((r) => r.method === 'POST' && r.forwarded).map((r) => r.target);
    const lastUpload = writes.findLastIndex((t) => t.includes('addimage.php'));
    const contentWithBoth = writes.findLastIndex((t) => t.includes('updateaboutus.php'));
    expect(lastUpload).toBeGreaterThanOrEqual(0);
    expect(contentWithBoth).toBeGreaterThan(lastUpload);
    expect(await ctx.db.outbox.count()).toBe(0);

    // After the pull the device holds what the server holds: URLs, no marks.
    await pull(ctx);
    const local = (await ctx.db.rows(aboutUsEntity).get(ABOUT))?.content as string;
    expect(local).toBe(await serverContent(ctx));
    expect(local).not.toContain('data-pending-upload');
  });

  it('a lost reply to the upload duplicates nothing: the content names the one stored image', async () => {
    const { server, proxy, ctx } = await fixtures.proxied();
    expect((await pull(ctx)).ok).toBe(true);
    const image = await insertImage(ctx, 'once.png');
    await editAboutUs(ctx, `<p>Once</p>${image.html}`);
    proxy.dropRepliesTo(/addimage\.php/, 1);
    await drain(ctx);
    expect(proxy.dropped).toBe(1);
    const stored = await server.query<{ image: string }>('SELECT image FROM content_images');
    expect(stored).toHaveLength(1);
    expect(await serverContent(ctx)).toContain(`/uploads/cms/${stored[0].image}"`);
  });
});

describe('a single document', () => {
  it('an add keeps its fixed key, folds later edits, and leaves no id mapping', async () => {
    const { ctx } = await fixtures.proxied();
    const added = await mutate(ctx.db, {
      op: 'add',
      entity: aboutUsEntity,
      values: { content: '<p>First words</p>' },
    });
    expect(added.key).toBe(ABOUT);
    await editAboutUs(ctx, '<p>Better words</p>');
    expect(await ctx.db.outbox.toArray()).toMatchObject([{ op: 'add', key: ABOUT }]);
    await drain(ctx);
    expect(await serverContent(ctx)).toBe('<p>Better words</p>');
    expect(await ctx.db.idmap.count()).toBe(0);
    expect(await ctx.db.rows(aboutUsEntity).toArray()).toEqual([
      { id: ABOUT, content: '<p>Better words</p>' },
    ]);
  });
});

describe.each([
  ['our server', false],
  ['the legacy server', true],
])('About Us edited on two devices against %s', (_name, legacy) => {
  async function twoDevices() {
    const server = await fixtures.server({ legacy, seedDemo: true });
    const here = await fixtures.client(server.apiRoot);
    const there = await fixtures.client(server.apiRoot);
    for (const d of [here, there]) expect((await pull(d)).ok).toBe(true);
    return { here, there };
  }

  it('is a conflict shown with both versions, settled by a choice', async () => {
    const { here, there } = await twoDevices();
    await editAboutUs(here, '<p>Written <strong>here</strong></p>');
    await editAboutUs(there, '<p>Written there</p>');
    await drain(there);
    const reports = await drain(here);
    expect(reports.at(-1)?.failed).toBe(1);
    const [held] = await here.db.outbox.toArray();
    expect(held.status).toBe('conflict');
    expect(held.conflict?.fields).toEqual([
      { field: 'content', mine: '<p>Written <strong>here</strong></p>', theirs: '<p>Written there</p>' },
    ]);
    expect(await serverContent(here)).toBe('<p>Written there</p>');

    await resolveConflict(here.db, held.seq, { content: 'mine' });
    await drain(here);
    expect(await serverContent(here)).toBe('<p>Written <strong>here</strong></p>');
    expect(await here.db.outbox.count()).toBe(0);
  });

  it("a device's own chain of edits, before a pull, never conflicts with itself", async () => {
    const { here } = await twoDevices();
    // The server re-serialises what it stores (<br />, style="color:red"); the device keeps its own form.
    await editAboutUs(here, '<p style="text-align: center">One<br>line&nbsp;two</p>');
    await drain(here);
    expect(canonicalRichText(await serverContent(here))).toBe(
      canonicalRichText('<p style="text-align: center">One<br>line&nbsp;two</p>'),
    );
    await editAboutUs(here, '<p style="text-align: center">One<br>line&nbsp;three</p>');
    await drain(here);
    expect(await here.db.outbox.count()).toBe(0);
    expect(await serverContent(here)).toBe('<p style="text-align:center">One<br />line\u00a0three</p>');
  });
});

describe('the legacy server', () => {
  it('has no Terms and no content images: the client learns it and the pull goes on', async () => {
    const { ctx } = await fixtures.proxied({ legacy: true, seedDemo: true });
    expect((await pull(ctx)).ok).toBe(true);
    expect(await missingExtensions(ctx.db)).toEqual([contentImageEntity.name, termsEntity.name].sort());
    // About Us, which the PHP API has, is on the device.
    expect(await ctx.db.rows(aboutUsEntity).get(ABOUT)).toMatchObject({
      content: expect.stringContaining('About'),
    });
    expect(await ctx.db.rows(termsEntity).count()).toBe(0);
  });

  it('our server with the extensions clears what a legacy answer had taught', async () => {
    const { ctx } = await fixtures.proxied({ seedDemo: true });
    await markExtension(ctx.db, termsEntity.name, false);
    expect((await pull(ctx)).ok).toBe(true);
    expect(await missingExtensions(ctx.db)).toEqual([]);
    expect(await ctx.db.rows(termsEntity).get(termsEntity.single!.id)).toMatchObject({
      content: expect.stringContaining('Terms'),
    });
  });
});
