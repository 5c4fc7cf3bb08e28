/**
 * The config's lifecycle after start: reading the next config from its source (a throwing
 * reader is a refusal, not a crash), reporting a reload, and running reloads one at a time.
 */
import type { Logger } from 'pino';
import type { ConfigIssue, ConfigResult, MonitorConfig } from './config/types.js';

export type ReloadResult =
  | {
      readonly ok: true;
      readonly probes: number;
      /** Aliases whose keys come from `${ENV}`: a reload cannot see a changed environment, so they keep their start-up values. */
      readonly envKeysKept: readonly string[];
    }
  | { readonly ok: false; readonly issues: readonly ConfigIssue[] };

/** The next config from `load` (the config file, for `serve`), or why there is none. */
export function readConfigSource(load: (() => ConfigResult) | undefined): ConfigResult {
  if (!load) return { ok: false, issues: [{ path: '', message: 'no config source to reload from' }] };
  try {
    return load();
  } catch (error) {
    // The reader's own message only: a stack is no config problem, and could quote the file.
    const why = error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : 'unknown error';
    return { ok: false, issues: [{ path: '', message: `cannot read the config (${why})` }] };
  }
}

/** `target/alias` of every key read from the environment, for the reload warning. */
function envKeyAliases(config: MonitorConfig): string[] {
  return config.targets.flatMap((t) => t.keys.filter((k) => k.origin?.kind === 'env').map((k) => `${t.name}/${k.alias}`));
}

/** The log lines of an applied reload, and its result. */
export function reportReload(logger: Logger, config: MonitorConfig, probes: number): ReloadResult {
  const envKeysKept = envKeyAliases(config);
  logger.info({ probes }, 'config reloaded');
  if (envKeysKept.length > 0) {
    logger.warn(
      { keys: envKeysKept },
      'reload reread every secretFile key, but keys given as ${ENV} keep the values this process started with (a running process cannot see a changed environment): restart to pick up rotated ${ENV} keys, or move them to secretFile',
    );
  }
  return { ok: true, probes, envKeysKept };
}

/**
 * Reloads one at a time, each after the previous is in place. Reloads from the config source
 * (`next` undefined) that arrive while one waits its turn join it (a burst of SIGHUPs or POSTs
 * reads the file once); one asked for after it started reads the file again, which may carry a
 * newer edit.
 */
export function createReloadQueue(run: (next: ConfigResult | undefined) => Promise<ReloadResult>) {
  /** The tail of the queue; never rejects. */
  let tail: Promise<void> = Promise.resolve();
  /** A reload from the config source that waits for its turn. */
  let queuedRead: Promise<ReloadResult> | undefined;
  return {
    reload(next?: ConfigResult): Promise<ReloadResult> {
      if (next === undefined && queuedRead) return queuedRead;
      const result = tail.then(() => {
        if (next === undefined) queuedRead = undefined;
        return run(next);
      });
      if (next === undefined) queuedRead = result;
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
    /** Resolves when every reload asked for so far is done. */
    settled: (): Promise<void> => tail,
  };
}
