/** Time as the client sees it; tests inject a fake so backoffs take no wall time. */

export interface Clock {
  /** Wall-clock milliseconds (epoch): deadlines and HTTP-date hints use it. */
  now(): number;
  /** Resolves after `ms`; may ignore `signal`, the client races it against the abort itself. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export function systemClock(): Clock {
  return {
    now: () => Date.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

/**
 * Sleeps on `clock`, but rejects with the caller's reason the moment `signal` aborts, even if
 * the injected sleep ignores the signal.
 */
export function sleepUnlessAborted(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return clock.sleep(ms);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    clock.sleep(ms, signal).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? signal.reason : error);
      },
    );
  });
}
