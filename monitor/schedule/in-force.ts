/**
 * The schedule in force, and the ones a reload replaced: those finish the rounds they had under
 * way (a reload never costs a round's results), then retire. Start and stop reach all of them.
 */
import type { Scheduler } from './scheduler.js';

export function createSchedulesInForce() {
  let current: Scheduler | undefined;
  const retiring = new Set<Scheduler>();
  let started = false;
  return {
    /** `next` takes over at once (started if the monitor is); `retired` runs once the old one's rounds are done. */
    replace(next: Scheduler, retired: () => Promise<void>): void {
      const old = current;
      current = next;
      if (started) next.start();
      if (!old) return;
      retiring.add(old);
      void old.retire().then(async () => {
        retiring.delete(old);
        await retired();
      });
    },
    start(): void {
      started = true;
      current?.start();
    },
    /** Stops at once what would start, then, after `pending` (a reload installing a schedule), every schedule. */
    async stop(pending: Promise<void> = Promise.resolve()): Promise<void> {
      started = false;
      await pending;
      await Promise.all([current, ...retiring].map((s) => s?.stop()));
    },
    /** A recheck of this probe that a replaced schedule still has under way (sent before the reload). */
    retiringRecheck(id: string): Promise<void> | undefined {
      for (const old of retiring) {
        const pending = old.recheckOf(id);
        if (pending) return pending;
      }
      return undefined;
    },
    started: (): boolean => started,
    current: (): Scheduler | undefined => current,
  };
}
