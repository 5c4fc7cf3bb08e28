/** Caps attempts in flight per client (`maxConcurrency`); waiting callers can abort. */

export type Release = () => void;

export interface ConcurrencyLimiter {
  /** A slot now, or undefined when the caller has to wait (no promise on the common path). */
  tryAcquire(): Release | undefined;
  acquire(signal?: AbortSignal): Promise<Release>;
}

const noop: Release = () => undefined;

export function createConcurrencyLimiter(max: number): ConcurrencyLimiter {
  if (!Number.isFinite(max)) return { tryAcquire: () => noop, acquire: () => Promise.resolve(noop) };
  let active = 0;
  const waiting: Array<() => void> = [];
  const releaser = (): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    };
  };
  return {
    tryAcquire() {
      if (active >= max) return undefined;
      active += 1;
      return releaser();
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (active < max) {
        active += 1;
        return Promise.resolve(releaser());
      }
      return new Promise<Release>((resolve, reject) => {
        const grant = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve(releaser());
        };
        const onAbort = (): void => {
          const index = waiting.indexOf(grant);
          if (index >= 0) waiting.splice(index, 1);
          reject(signal?.reason);
        };
        waiting.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
