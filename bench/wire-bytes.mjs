// The login page's bytes on the wire: index.html plus the JavaScript and CSS it loads at once
// (its module script, modulepreloads and stylesheets), each asked for as Chromium asks
// (Accept-Encoding: gzip, deflate, br, zstd) and, for comparison, without compression.
// Counts the bodies as sent (node:http does not decode them), not the headers.
//
//   node bench/wire-bytes.mjs                 starts dist-server/index.js on a free port
//   node bench/wire-bytes.mjs http://host:port   measures a server that is already running
//
// Build first (npm run build). Prints figures; exits non-zero only when a request fails.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM_ACCEPT = 'gzip, deflate, br, zstd';

function fetchRaw(url, acceptEncoding) {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {};
    get(url, { headers }, (res) => {
      let bytes = 0;
      const chunks = [];
      res.on('data', (c) => {
        bytes += c.length;
        chunks.push(c);
      });
      res.on('end', () =>
        res.statusCode === 200
          ? resolve({
              bytes,
              encoding: res.headers['content-encoding'] ?? 'identity',
              body: Buffer.concat(chunks),
            })
          : reject(new Error(`${url}: HTTP ${res.statusCode}`)),
      );
    }).on('error', reject);
  });
}

/** The files index.html makes the browser load before the first screen. */
function initialFiles(html) {
  const files = [];
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) files.push(m[1]);
  for (const m of html.matchAll(/<link[^>]*>/g)) {
    const rel = /\srel="([^"]+)"/.exec(m[0])?.[1];
    const href = /\shref="([^"]+)"/.exec(m[0])?.[1];
    if (href && (rel === 'modulepreload' || rel === 'stylesheet')) files.push(href);
  }
  return files;
}

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

async function startServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'wire-bytes-'));
  const port = await freePort();
  const child = spawn('node', ['dist-server/index.js'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => d.toString().includes('is running at') && resolve());
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop() {
      child.kill('SIGTERM');
      return new Promise((r) => child.once('exit', r)).then(() =>
        rmSync(dataDir, { recursive: true, force: true }),
      );
    },
  };
}

const given = process.argv[2];
const server = given ? { url: given.replace(/\/$/, ''), stop: async () => {} } : await startServer();
try {
  const page = await fetchRaw(`${server.url}/login`, null);
  const paths = ['/login', ...initialFiles(page.body.toString('utf8'))];
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  let plain = 0;
  let wire = 0;
  console.log(`Login page of ${server.url}, as Chromium asks for it (${CHROMIUM_ACCEPT}):`);
  for (const path of paths) {
    const [identity, compressed] = await Promise.all([
      fetchRaw(`${server.url}${path}`, null),
      fetchRaw(`${server.url}${path}`, CHROMIUM_ACCEPT),
    ]);
    plain += identity.bytes;
    wire += compressed.bytes;
    console.log(
      `  ${path.padEnd(44)} ${kb(compressed.bytes).padStart(9)} ${compressed.encoding.padEnd(8)} (${kb(identity.bytes)} uncompressed)`,
    );
  }
  console.log(`Total on the wire: ${kb(wire)} in ${paths.length} files (${kb(plain)} uncompressed)`);
} finally {
  await server.stop();
}
