// npm start: builds the app and the server when there is no build or the sources are newer
// than it, then runs the server (which serves the built app and the API on one port).
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
await import(new URL('../dist-server/index.js', import.meta.url).href);
