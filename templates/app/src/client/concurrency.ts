/** Caps attempts in flight per client (`maxConcurrency`); waiting callers can abort. */

export type Release = () => void;

export interface ConcurrencyLimiter {
  acquire(signal?: AbortSignal): Promise<Release>;
}

export function createConcurrencyLimiter(max: number): ConcurrencyLimiter {
  if (!Number.isFinite(max)) return { acquire: async () => () => undefined };
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
