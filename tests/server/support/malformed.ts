/**
 * Malformed requests for every endpoint of the endpoint table, as fast-check arbitraries, for
 * tests/server/endpoints/fuzz.test.ts. Each request starts from a plausible one built from the entity
 * description (ids of demo rows, values of the right kind), gets noise (extra fields and
 * parameters, wrong types and huge strings in fields that do not decide the outcome) and then
 * EXACTLY the defects that make it malformed for that endpoint: at least one defect is always
 * applied last, so every request is one the server must refuse with a 4xx. The defects:
 * wrong method, NUL, an over-long query, a fixed parameter nobody answers, a wrong content
 * type, JSON too deep, too wide, broken or not an object, an unusable Idempotency-Key, bad
 * ids (missing, negative, fractional, text, beyond int4 or bigint), missing required fields,
 * wrong types, over-long text, a file whose content is not of its kind, a parent that does
 * not exist, bad list parameters, bad action values and bad sets; for login and the batch
 * endpoint their own.
 */
import fc from 'fast-check';
import { BATCH_MAX_ITEMS, BATCH_PATH } from '../../../src/contract/batch';
import { authEndpoints, type Endpoint, entityEndpoints } from '../../../src/contract/endpoints';
import {
  type EntityDescription,
  type FieldSpec,
  isValueAction,
  wireFields,
} from '../../../src/contract/entity';
import { IDEMPOTENCY_HEADER } from '../../../src/contract/wire';

export type EndpointKind =
  | 'list'
  | 'get'
  | 'add'
  | 'update'
  | 'remove'
  | 'action'
  | 'read'
  | 'relation-read'
  | 'relation-write'
  | 'lookup';

export interface Target {
  /** e.g. 'book update'. */
  name: string;
  entity?: EntityDescription;
  kind: EndpointKind | 'login' | 'batch';
  endpoint: Endpoint | { method: 'POST'; path: string; query: Record<string, string>; encoding: 'json' };
}

type Body = Record<string, unknown>;

/** A request before it is encoded: the body as an object until a defect encodes it otherwise. */
export interface Draft {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** 'json' and 'multipart' encode `body`; 'raw' sends `raw` with the content type in headers. */
  encoding: 'json' | 'multipart' | 'raw' | 'none';
  body: Body;
  raw?: string;
  /** The defects applied, for the failure message. */
  defects: string[];
  /** The batch endpoint with a well-formed envelope: the items must each be refused. */
  itemsRefused?: boolean;
}

/** Every endpoint of an entity with its kind; the fuzz test checks this covers allEndpoints. */
export function targetsOf(entity: EntityDescription): Target[] {
  const ep = entityEndpoints(entity);
  const out: Target[] = [];
  const push = (kind: EndpointKind, endpoint: Endpoint | undefined, what = kind as string) => {
    if (endpoint) out.push({ name: `${entity.name} ${what}`, entity, kind, endpoint });
  };
  push('list', ep.list);
  push('get', ep.get);
  for (const [i, also] of ep.alsoGet.entries()) push('get', also, `get ${i + 2}`);
  push('add', ep.add);
  push('update', ep.update);
  push('remove', ep.remove);
  for (const [name, e] of Object.entries(ep.actions)) push('action', e, `action ${name}`);
  for (const [name, e] of Object.entries(ep.reads)) push('read', e, `read ${name}`);
  for (const [name, r] of Object.entries(ep.relations)) {
    push('relation-read', r.read, `${name} read`);
    push('relation-write', r.write, `${name} write`);
  }
  ep.lookups.forEach((e, i) => {
    push('lookup', e, `lookup ${i}`);
  });
  return out;
}

export const loginTarget: Target = {
  name: 'login',
  kind: 'login',
  endpoint: { method: 'POST', path: authEndpoints.login.path, query: {}, encoding: 'json' },
};

export const batchTarget: Target = {
  name: 'batch',
  kind: 'batch',
  endpoint: { method: 'POST', path: BATCH_PATH, query: {}, encoding: 'json' },
};

// ---------------------------------------------------------------------------------------------
// Plausible values

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const pngBlob = () => new File([new Uint8Array([...PNG, ...new Uint8Array(64)])], 'x.png');

function plausible(spec: FieldSpec): unknown {
  switch (spec.kind) {
    case 'ref':
    case 'number':
      return '1';
    case 'status':
      return 'Enabled';
    case 'choice':
      return spec.choices?.[0]?.value ?? '1';
    case 'email':
      return 'fuzz@example.org';
    case 'url':
      return 'https://example.org/x';
    case 'phone':
      return '+91 98765 43210';
    case 'date':
      return '2024-01-01';
    case 'password':
      return 'fuzz-password-1';
    case 'file':
      return pngBlob();
    default:
      if (spec.location === 'country') return 'IN';
      if (spec.location === 'state') return 'KA';
      return 'Fuzz';
  }
}

const opOf = (kind: Target['kind']) => (kind === 'update' ? 'update' : 'add');

/** The request a well-behaved client would send (the defects make it malformed). */
export function baseDraft(target: Target): Draft {
  const { endpoint, entity, kind } = target;
  const query: Record<string, string> = { ...endpoint.query };
  const body: Body = {};
  const e = endpoint as Endpoint;
  if (kind === 'list') Object.assign(query, { search: '', page: '1', limit: '10' });
  if (kind === 'lookup') for (const f of e.fields) query[f] = '1';
  if (e.idParam) (e.idIn === 'query' ? query : body)[e.idParam] = '1';
  if (entity && (kind === 'add' || kind === 'update'))
    for (const [, spec] of wireFields(entity, opOf(kind))) body[spec.wire] = plausible(spec);
  if (entity && kind === 'action') {
    const action = Object.values(entity.actions ?? {}).find((a) => e.fields.includes(a.wire));
    if (action)
      body[action.wire] = isValueAction(action)
        ? plausible(entity.fields[action.field])
        : Object.keys(action.messages)[0];
  }
  if (entity && kind === 'relation-write') {
    const rel = Object.values(entity.relations ?? {}).find((r) => e.fields.includes(r.write.field));
    if (rel) body[rel.write.field] = [{ [rel.write.itemKey]: '1' }];
  }
  if (kind === 'login') Object.assign(body, { username: 'admin', password: 'admin123' });
  if (kind === 'batch') body.requests = [];
  const encoding = endpoint.method === 'GET' ? 'none' : (e.encoding as 'json' | 'multipart');
  return { method: endpoint.method, path: endpoint.path, query, headers: {}, encoding, body, defects: [] };
}

// ---------------------------------------------------------------------------------------------
// Noise: changes that do not decide whether the request is refused

const fieldName = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,12}$/).map((s) => `x_${s}`);
/** Text without NUL (a NUL is a defect of its own). */
const text = fc.string({ maxLength: 40 }).map((s) => s.replaceAll('\u0000', ''));
const hugeText = fc
  .constantFrom(5_000, 70_000, 300_000)
  .chain((n) => fc.constantFrom('x', 'é', '<', '"', '\\').map((c) => c.repeat(n)));
const jsonish = fc
  .jsonValue({ maxDepth: 3 })
  .map((v) => JSON.parse(JSON.stringify(v).replaceAll('\\u0000', '')));

type Change = (d: Draft) => void;

const noise: fc.Arbitrary<Change> = fc.oneof(
  fc.tuple(fieldName, fc.oneof(text, jsonish)).map(
    ([k, v]): Change =>
      (d) => {
        if (d.method === 'GET') d.query[k] = typeof v === 'string' ? v : JSON.stringify(v);
        else d.body[k] = d.encoding === 'multipart' && typeof v !== 'string' ? JSON.stringify(v) : v;
      },
  ),
  fc.tuple(fieldName, hugeText).map(
    ([k, v]): Change =>
      (d) => {
        if (d.method !== 'GET') d.body[k] = v;
      },
  ),
  fc.tuple(fieldName, text).map(
    ([k, v]): Change =>
      (d) => {
        d.query[k] = v;
      },
  ),
);

// ---------------------------------------------------------------------------------------------
// Defects: each one alone makes the request one the server must refuse

const badIdText = fc.constantFrom(
  '',
  ' ',
  '-1',
  '0',
  '1.5',
  'abc',
  '1e3',
  '0x10',
  '99999999999999999999',
  '1; DROP TABLE x',
  'null',
);
const badIdJson = fc.oneof(
  badIdText,
  fc.constantFrom<unknown>(-1, 0, 1.5, 1e30, true, null, [], {}, [1], { id: 1 }),
);
/** Valid ids of no row: beyond every demo row, within int4 or beyond it. */
const absentId = fc.constantFrom('2147483647', '2147483648', '999999999');

function setField(d: Draft, name: string, value: unknown) {
  if (d.encoding === 'multipart' && typeof value !== 'string' && !(value instanceof Blob))
    d.body[name] = String(value);
  else d.body[name] = value;
}

const defect = (name: string, arb: fc.Arbitrary<Change>) =>
  arb.map(
    (change): Change =>
      (d) => {
        d.defects.push(name);
        change(d);
      },
  );

function defectsFor(target: Target): fc.Arbitrary<Change>[] {
  const { endpoint, entity, kind } = target;
  const e = endpoint as Endpoint;
  const post = endpoint.method === 'POST';
  const list: fc.Arbitrary<Change>[] = [];

  // Any endpoint.
  list.push(
    defect(
      'NUL',
      fc.tuple(fc.option(fieldName, { nil: undefined }), text).map(
        ([k, v]): Change =>
          (d) => {
            const value = `${v}\u0000${v}`;
            if (!post || k === undefined) d.query[k ?? 'search'] = value;
            else d.body[k] = value;
          },
      ),
    ),
    defect(
      'NUL in a field name',
      text.map(
        (v): Change =>
          (d) => {
            if (post) d.body[`name\u0000${v}`] = v;
            else d.query[`name\u0000${v}`] = v;
          },
      ),
    ),
    defect(
      'over-long query',
      fc.constantFrom(4_097, 16_000, 1_000_000).map(
        (n): Change =>
          (d) => {
            d.query.q = 'q'.repeat(n);
          },
      ),
    ),
  );
  if (kind !== 'login' && kind !== 'batch')
    list.push(
      defect(
        'wrong method',
        fc.constant((d: Draft) => {
          d.method = post ? 'GET' : 'POST';
          if (!post) d.encoding = 'json';
          else d.encoding = 'none';
        }),
      ),
    );
  if (Object.keys(endpoint.query).length > 0)
    list.push(
      defect(
        'a fixed parameter nobody answers',
        fc.constantFrom('bogus', '', 'FETCH', 'insert ').chain((v) =>
          fc.constant((d: Draft) => {
            for (const k of Object.keys(endpoint.query)) d.query[k] = v;
          }),
        ),
      ),
    );

  if (post) {
    const jsonOnly = e.encoding !== 'multipart';
    list.push(
      defect(
        'wrong content type',
        fc
          .tuple(
            fc.constantFrom(
              'text/plain',
              'application/x-www-form-urlencoded',
              'application/xml',
              'text/html',
              ...(jsonOnly ? ['multipart/form-data; boundary=x'] : []),
            ),
            fc.constantFrom(
              'a=1',
              '{"a":1}',
              '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
            ),
          )
          .map(
            ([type, raw]): Change =>
              (d) => {
                d.encoding = 'raw';
                d.raw = raw;
                d.headers['Content-Type'] = type;
              },
          ),
      ),
      defect(
        'JSON too deep',
        fc.integer({ min: 17, max: 5_000 }).map(
          (n): Change =>
            (d) => {
              d.encoding = 'raw';
              d.raw = `{"a":${'['.repeat(n)}${']'.repeat(n)}}`;
              d.headers['Content-Type'] = 'application/json';
            },
        ),
      ),
      defect(
        'JSON too wide',
        fc.integer({ min: 10_001, max: 60_000 }).map(
          (n): Change =>
            (d) => {
              d.encoding = 'raw';
              d.raw = `{"a":[${'0,'.repeat(n)}0]}`;
              d.headers['Content-Type'] = 'application/json';
            },
        ),
      ),
      defect(
        'broken JSON',
        fc
          .constantFrom(
            '{',
            '{"a":',
            '{"a":1,}',
            "{'a':1}",
            '{"a":01}',
            'nul',
            '\uFEFF{"a":1}',
            '{"a":"\\u00"}',
          )
          .map(
            (raw): Change =>
              (d) => {
                d.encoding = 'raw';
                d.raw = raw;
                d.headers['Content-Type'] = 'application/json';
              },
          ),
      ),
      defect(
        'JSON not an object',
        fc.constantFrom('[]', '[{"a":1}]', '"text"', '42', 'null', 'true').map(
          (raw): Change =>
            (d) => {
              d.encoding = 'raw';
              d.raw = raw;
              d.headers['Content-Type'] = 'application/json';
            },
        ),
      ),
    );
  }

  const writes = ['add', 'update', 'remove', 'action', 'relation-write'].includes(kind);
  if (writes)
    list.push(
      defect(
        'unusable Idempotency-Key',
        fc.constantFrom('with space', 'k'.repeat(201), '', 'tab\there').map(
          (key): Change =>
            (d) => {
              d.headers[IDEMPOTENCY_HEADER] = key;
            },
        ),
      ),
    );

  // Ids.
  if (e.idParam) {
    const inQuery = e.idIn === 'query';
    list.push(
      defect(
        'bad id',
        (inQuery || e.encoding === 'multipart' ? badIdText : badIdJson).map(
          (v): Change =>
            (d) => {
              if (inQuery) d.query[e.idParam!] = String(v);
              else setField(d, e.idParam!, v);
            },
        ),
      ),
      defect(
        'missing id',
        fc.constant((d: Draft) => {
          delete d.query[e.idParam!];
          delete d.body[e.idParam!];
        }),
      ),
      defect(
        'id of no row',
        absentId.map(
          (v): Change =>
            (d) => {
              if (inQuery) d.query[e.idParam!] = v;
              else setField(d, e.idParam!, v);
            },
        ),
      ),
    );
  }

  // Fields of adds and updates.
  if (entity && (kind === 'add' || kind === 'update')) {
    const op = opOf(kind);
    const fields = wireFields(entity, op);
    const required = fields.filter(
      ([, s]) => s.required && s.kind !== 'file' && !(op === 'update' && s.kind === 'password'),
    );
    if (required.length)
      list.push(
        defect(
          'missing required field',
          fc
            .tuple(fc.constantFrom(...required), fc.constantFrom<unknown>(undefined, '', '   ', 'null', null))
            .map(
              ([[, spec], v]): Change =>
                (d) => {
                  if (v === undefined) delete d.body[spec.wire];
                  else if (v === 'null' && d.encoding !== 'multipart') delete d.body[spec.wire];
                  else setField(d, spec.wire, v === null && d.encoding === 'multipart' ? '' : v);
                },
            ),
        ),
      );
    // A value of the wrong kind: any kind refuses a list, an object or a boolean in JSON; in
    // multipart (all text) only kinds with a shape of their own can be wrong.
    const typed = fields.filter(
      ([, s]) => s.kind !== 'file' && (e.encoding !== 'multipart' || wrongText(s) !== null),
    );
    if (typed.length)
      list.push(
        defect(
          'wrong type',
          fc.tuple(fc.constantFrom(...typed), fc.constantFrom<unknown>(true, [], {}, ['1'], { a: 1 })).map(
            ([[, spec], v]): Change =>
              (d) => {
                d.body[spec.wire] = e.encoding === 'multipart' ? wrongText(spec) : v;
              },
          ),
        ),
      );
    const bounded = fields.filter(([, s]) => s.maxLength !== undefined && s.kind !== 'file');
    if (bounded.length)
      list.push(
        defect(
          'text over its length',
          fc.tuple(fc.constantFrom(...bounded), fc.integer({ min: 1, max: 5_000 })).map(
            ([[, spec], extra]): Change =>
              (d) => {
                d.body[spec.wire] = 'a'.repeat((spec.maxLength ?? 0) + extra);
              },
          ),
        ),
      );
    const refs = fields.filter(([, s]) => s.kind === 'ref');
    if (refs.length)
      list.push(
        defect(
          'parent of no row',
          fc.tuple(fc.constantFrom(...refs), absentId).map(
            ([[, spec], v]): Change =>
              (d) => {
                d.body[spec.wire] = v;
              },
          ),
        ),
      );
    const files = fields.filter(([, s]) => s.kind === 'file');
    if (files.length && e.encoding === 'multipart')
      list.push(
        defect(
          'file not of its kind',
          fc
            // Not an empty file: an empty file field means no file was chosen.
            .tuple(fc.constantFrom(...files), fc.constantFrom('text', 'html', 'exe'))
            .map(
              ([[, spec], kind]): Change =>
                (d) => {
                  const bytes = {
                    text: 'just text, not an image or a document',
                    html: '<!doctype html><script>alert(1)</script>',
                    exe: 'MZ\u0090\u0000',
                  }[kind];
                  d.body[spec.wire] = new File([bytes], `evil.${spec.file?.types[0] ?? 'png'}`);
                },
            ),
        ),
      );
  }

  if (kind === 'list')
    list.push(
      defect(
        'bad list parameter',
        fc
          .tuple(
            fc.constantFrom('page', 'limit', 'since'),
            fc.constantFrom('-1', 'abc', '1.5', '1e3', '9999999999999999', ' 1 2', '0x1'),
          )
          .map(
            ([k, v]): Change =>
              (d) => {
                d.query[k] = v;
              },
          ),
      ),
      defect(
        'page or limit zero',
        fc.constantFrom('page', 'limit').map(
          (k): Change =>
            (d) => {
              d.query[k] = '0';
            },
        ),
      ),
    );
  if (kind === 'lookup')
    list.push(
      defect(
        'lookup parameter missing or bad',
        fc
          .tuple(
            fc.constantFrom(...e.fields),
            fc.option(fc.constantFrom('-1', 'abc', '1.5', 'null'), { nil: undefined }),
          )
          .map(
            ([k, v]): Change =>
              (d) => {
                if (v === undefined) delete d.query[k];
                else d.query[k] = v;
              },
          ),
      ),
    );
  if (kind === 'action') {
    const wire = e.fields[0];
    const action = Object.values(target.entity?.actions ?? {}).find((a) => a.wire === wire);
    // A toggle takes only its named values; a value action what its field accepts (a page number).
    const bad =
      action && isValueAction(action)
        ? [undefined, 'Bogus', -1, 1.5, true, null, ['1'], { n: 1 }]
        : [undefined, '', 'enabled', 'Bogus', 1, true, null, ['Enabled']];
    list.push(
      defect(
        'bad action value',
        fc.constantFrom<unknown>(...bad).map(
          (v): Change =>
            (d) => {
              if (v === undefined) delete d.body[wire];
              else d.body[wire] = v;
            },
        ),
      ),
    );
  }
  if (kind === 'relation-write') {
    const field = e.fields[0];
    list.push(
      defect(
        'bad set',
        fc
          .constantFrom<unknown>(
            undefined,
            '1',
            1,
            {},
            null,
            [{}],
            [{ x: 1 }],
            ['abc'],
            [-1],
            [{ book_id: 'x' }],
            [2147483647],
            [1.5],
          )
          .map(
            (v): Change =>
              (d) => {
                if (v === undefined) delete d.body[field];
                else d.body[field] = v;
              },
          ),
      ),
    );
  }

  if (kind === 'login')
    list.push(
      defect(
        'bad credentials shape',
        fc
          .constantFrom<Body>(
            {},
            { username: 'admin' },
            { password: 'admin123' },
            { username: '', password: 'admin123' },
            { username: 'admin', password: '' },
            { username: 1, password: 'admin123' },
            { username: 'admin', password: ['admin123'] },
            { username: { a: 1 }, password: null },
          )
          .map(
            (b): Change =>
              (d) => {
                d.body = b;
              },
          ),
      ),
      defect(
        'a body over the anonymous limit',
        fc.integer({ min: 8 * 1024, max: 64 * 1024 }).map(
          (n): Change =>
            (d) => {
              d.body = { ...d.body, pad: 'p'.repeat(n) };
            },
        ),
      ),
    );

  if (kind === 'batch')
    list.push(
      defect(
        'malformed batch',
        fc
          .constantFrom<unknown>(
            {},
            { requests: 'all' },
            { requests: [] },
            { requests: {} },
            { requests: [null] },
            { requests: [1] },
            { requests: [{}] },
            { requests: [{ method: 'PUT', path: 'x' }] },
            { requests: [{ method: 'POST', path: '' }] },
            { requests: [{ method: 'POST', path: 'Masterfilter/Classes/addclasses.php', json: [] }] },
            { requests: [{ method: 'POST', path: 'Masterfilter/Classes/addclasses.php', form: [['a']] }] },
            { requests: [{ method: 'POST', path: 'Masterfilter/Classes/addclasses.php', extra: 1 }] },
            { requests: [{ method: 'GET', path: 'Masterfilter/Classes/fetchclasses.php' }] },
            { requests: [{ method: 'POST', path: 'Admin_access/login.php', json: {} }] },
            { requests: [{ method: 'POST', path: '../../etc/passwd', json: {} }] },
            { requests: [], more: true },
            {
              requests: Array.from({ length: BATCH_MAX_ITEMS + 1 }, () => ({
                method: 'POST',
                path: 'Masterfilter/Classes/addclasses.php',
                json: { className: 'Too many' },
              })),
            },
          )
          .map(
            (b): Change =>
              (d) => {
                d.body = b as Body;
              },
          ),
      ),
    );
  return list;
}

/** A text value a field of this kind refuses, or null when any text is of its kind. */
function wrongText(spec: FieldSpec): string | null {
  switch (spec.kind) {
    case 'ref':
      return 'abc';
    case 'number':
      return '1.5';
    case 'status':
    case 'choice':
      return 'bogus';
    case 'email':
      return 'not an address';
    case 'url':
      return 'javascript:alert(1)';
    case 'phone':
      return 'call me';
    default:
      if (spec.location === 'country') return 'India';
      if (spec.location === 'state') return 'not a state code!';
      return null;
  }
}

/** Malformed requests for one target: noise first, then one or two defects. */
export function malformedRequests(target: Target): fc.Arbitrary<Draft> {
  const defects = defectsFor(target);
  return fc
    .tuple(fc.array(noise, { maxLength: 3 }), fc.array(fc.oneof(...defects), { minLength: 1, maxLength: 2 }))
    .map(([noisy, bad]) => {
      const draft = baseDraft(target);
      for (const change of noisy) change(draft);
      for (const change of bad) change(draft);
      return printable(draft);
    });
}

/** How fast-check prints a draft in a failure: short, huge values cut. */
function printable(draft: Draft): Draft {
  const cut = (v: unknown) => {
    const text = v instanceof Blob ? `<file ${v.size} B>` : (JSON.stringify(v) ?? 'undefined');
    return text.length > 120 ? `${text.slice(0, 100)}… (${text.length} chars)` : text;
  };
  Object.defineProperty(draft, fc.toStringMethod, {
    enumerable: false,
    value: () =>
      `${draft.method} ${draft.path} [${draft.defects.join('; ')}] query=${cut(draft.query)} headers=${cut(draft.headers)} ` +
      (draft.encoding === 'raw'
        ? `raw=${cut(draft.raw)}`
        : `${draft.encoding}={${Object.entries(draft.body)
            .map(([k, v]) => `${cut(k)}: ${cut(v)}`)
            .join(', ')}}`),
  });
  return draft;
}

/**
 * The batch endpoint with a well-formed envelope whose items are each a malformed JSON write:
 * the envelope succeeds and every item must be refused on its own.
 */
export function malformedBatchItems(targets: readonly Target[]): fc.Arbitrary<Draft> {
  const writes = targets.filter(
    (t) =>
      ['add', 'update', 'remove', 'action', 'relation-write'].includes(t.kind) &&
      (t.endpoint as Endpoint).encoding === 'json',
  );
  const item = fc.constantFrom(...writes).chain((t) =>
    fc.tuple(fc.constant(t), fc.oneof(...itemDefects(t)), fc.uuid()).map(([target, change, key]) => {
      const draft = baseDraft(target);
      change(draft);
      return {
        item: { method: 'POST', path: target.endpoint.path, query: draft.query, key, json: draft.body },
        defects: [`${target.name}: ${draft.defects.join(', ')}`],
      };
    }),
  );
  return fc.array(item, { minLength: 1, maxLength: 5 }).map((items) =>
    printable({
      ...baseDraft(batchTarget),
      body: { requests: items.map((i) => i.item) },
      defects: items.flatMap((i) => i.defects),
      itemsRefused: true,
    }),
  );
}

/** The defects that survive the trip inside a batch item (the body stays a JSON object). */
function itemDefects(target: Target): fc.Arbitrary<Change>[] {
  const keep = new Set([
    'bad id',
    'missing id',
    'id of no row',
    'missing required field',
    'wrong type',
    'text over its length',
    'parent of no row',
    'bad action value',
    'bad set',
  ]);
  // Labels are applied when a change runs, so run each on a probe to learn its name.
  return defectsFor(target).filter((arb) => {
    const probe = baseDraft(target);
    fc.sample(arb, 1)[0](probe);
    return keep.has(probe.defects[0]);
  });
}

/** The HTTP request of a draft: URL, method, headers and body as fetch takes them. */
export function encode(draft: Draft, apiRoot: string): { url: string; init: RequestInit } {
  const qs = new URLSearchParams(draft.query).toString();
  const url = `${apiRoot}/${draft.path}${qs ? `?${qs}` : ''}`;
  const init: RequestInit = { method: draft.method, headers: { ...draft.headers } };
  // A GET carries no body (fetch refuses one): a defect that re-encoded it has no effect then.
  if (draft.method === 'GET') return { url, init };
  if (draft.encoding === 'raw') init.body = draft.raw;
  else if (draft.encoding === 'json') {
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    init.body = JSON.stringify(draft.body);
  } else if (draft.encoding === 'multipart') {
    const form = new FormData();
    for (const [k, v] of Object.entries(draft.body)) {
      if (v === undefined) continue;
      form.append(k, v instanceof Blob ? v : typeof v === 'string' ? v : JSON.stringify(v));
    }
    init.body = form;
  }
  return { url, init };
}
