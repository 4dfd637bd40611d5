/**
 * `node dist-server/data-tool.js backup|restore FILE` (npm run backup / npm run restore, via
 * scripts/data-tool.mjs): backups of an embedded install, server/backup/cli.ts.
 */
import { main } from '../backup/cli';

process.exitCode = await main(process.argv.slice(2), process.env);
