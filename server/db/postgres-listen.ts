/**
 * LISTEN on a real PostgreSQL: one connection of its own per channel (a pooled one goes back to
 * the pool and would stop hearing), made again a second after it is lost, for as long as the
 * listener runs. A connection made again cannot know what was sent while there was none, so
 * it tells its listener once, as if it had heard something.
 */
import pg from 'pg';

const AGAIN_AFTER_MS = 1000;
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

export async function listenOnPostgres(
  connectionString: string,
  channel: string,
  heard: () => void,
  warn: (message: string) => void,
): Promise<() => Promise<void>> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  let client: pg.Client | null = null;
  let stopped = false;
  let again: ReturnType<typeof setTimeout> | undefined;

  const lost = (which: pg.Client) => {
    if (client !== which || stopped) return;
    client = null;
    which.end().catch(() => {});
    again = setTimeout(reconnect, AGAIN_AFTER_MS);
  };
  const connect = async () => {
    const made = new pg.Client({ connectionString });
    made.on('notification', (n) => {
      if (n.channel === channel) heard();
    });
    made.on('error', (err) => {
      warn(`PostgreSQL listener for ${channel} lost: ${err.message}`);
      lost(made);
    });
    made.on('end', () => lost(made));
    await made.connect();
    await made.query(`LISTEN ${channel}`);
    client = made;
  };
  const reconnect = () => {
    if (stopped) return;
    connect().then(heard, (err: Error) => {
      warn(`PostgreSQL listener for ${channel} could not reconnect: ${err.message}`);
      again = setTimeout(reconnect, AGAIN_AFTER_MS);
    });
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(again);
    const open = client;
    client = null;
    await open?.end().catch(() => {});
  };
}
