/** A bounded pool: at most `size` tasks run at once, the rest wait in arrival order. */

export interface Pool {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createPool(size: number, onChange: (active: number, waiting: number) => void = () => undefined): Pool {
  let active = 0;
  const queue: Array<() => void> = [];
  const changed = (): void => onChange(active, queue.length);
  const release = (): void => {
    active -= 1;
    const next = queue.shift();
    if (next) {
      active += 1;
      next();
    }
    changed();
  };
  return {
    async run(task) {
      if (active < size) active += 1;
      else
        await new Promise<void>((resolve) => {
          queue.push(resolve);
          changed();
        });
      changed();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
