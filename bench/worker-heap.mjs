/**
 * A dedicated worker's JS heap, through the page's CDP session (Playwright opens none for
 * workers): the page's session attaches to the worker's target and relays DevTools commands
 * to it. For benches whose work runs in a worker (the first sync's, bench/first-sync-worker.ts).
 */

/** The worker's target, waiting for it a while: a page starts its worker after it has loaded. */
async function workerTarget(cdp, urlPart) {
  for (let tries = 0; tries < 100; tries++) {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const target = targetInfos.find((t) => t.type === 'worker' && t.url.includes(urlPart));
    if (target) return target;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No worker whose script is ${urlPart}`);
}

/** The worker of `page` whose script URL contains `urlPart`; resolves to a reader of its heap. */
export async function workerHeap(cdp, urlPart) {
  const target = await workerTarget(cdp, urlPart);
  const { sessionId } = await cdp.send('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: false,
  });
  const answers = new Map();
  let lastId = 0;
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message);
    answers.get(message.id)?.(message);
    answers.delete(message.id);
  });
  const call = (method) =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      answers.set(id, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result)));
      cdp
        .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) })
        .catch(reject);
    });
  return {
    /** Bytes in use; after a garbage collection when `collect`. */
    async used(collect = false) {
      if (collect) await call('HeapProfiler.collectGarbage');
      return (await call('Runtime.getHeapUsage')).usedSize;
    },
  };
}
