// npm run backup -- FILE, npm run restore -- FILE: builds when needed (as npm start does),
// then runs the backup tool (server/backup/cli.ts) with this environment.
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
await import(new URL('../dist-server/data-tool.js', import.meta.url).href);
