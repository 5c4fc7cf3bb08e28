/** Polls a URL until it answers 200, for child servers that say nothing when they are up. */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

export async function waitForOk(url: string, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (!isAlive()) throw new Error(`the process behind ${url} exited while starting`);
    try {
      const res = await request(url, { headersTimeout: 1_000, bodyTimeout: 1_000 });
      await res.body.dump();
      if (res.statusCode === 200) return;
      last = `HTTP ${res.statusCode}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last})`);
}
