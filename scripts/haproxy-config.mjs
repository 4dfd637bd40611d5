// deploy/haproxy.cfg with another listening address, other servers and, for tests, faster
// health checks: the one file stays the source of every other setting (npm run cluster,
// the scale-out tests and bench/scale-out.mjs render it).
import { readFileSync } from 'node:fs';

const TEMPLATE = new URL('../deploy/haproxy.cfg', import.meta.url);

/**
 * @param {{ bind: string, servers: { name: string, address: string }[], inter?: string, fastinter?: string }} options
 * @returns {string}
 */
export function haproxyConfig({ bind, servers, inter, fastinter }) {
  let text = readFileSync(TEMPLATE, 'utf8');
  text = text.replace(/^(\s*)bind \S+$/m, `$1bind ${bind}`);
  if (inter) text = text.replace(/\binter 2s\b/, `inter ${inter}`);
  if (fastinter) text = text.replace(/\bfastinter 500ms\b/, `fastinter ${fastinter}`);
  const lines = servers.map((s) => `  server ${s.name} ${s.address} check`).join('\n');
  const rendered = text.replace(
    /# servers:begin[\s\S]*# servers:end/,
    `# servers:begin\n${lines}\n  # servers:end`,
  );
  if (rendered === text && servers.length > 0)
    throw new Error('deploy/haproxy.cfg has no servers:begin/end block');
  return rendered;
}
