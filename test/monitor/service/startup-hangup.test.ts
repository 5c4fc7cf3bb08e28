/** A SIGHUP while `serve` starts is held (not the default action, which ends the process) and replayed once. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdStartupHangups } from '../../../monitor/run-service.js';
import { ROOT, ensureBuilt, runProcess } from '../../helpers/rig.js';

describe('holdStartupHangups', () => {
  it('holds a SIGHUP sent during start-up and reports it once released; leaves no listener behind', () => {
    const before = process.listenerCount('SIGHUP');
    const held = holdStartupHangups();
    expect(process.listenerCount('SIGHUP')).toBe(before + 1);
    process.emit('SIGHUP', 'SIGHUP');
    expect(held.release()).toBe(true);
    expect(process.listenerCount('SIGHUP')).toBe(before);
  });

  it('reports nothing when no SIGHUP came', () => {
    expect(holdStartupHangups().release()).toBe(false);
  });
});

describe('serveUntil takes over a held SIGHUP', () => {
  it('a real SIGHUP caught while starting but not yet dispatched becomes one reload, not lost', async () => {
    // A child of its own: a real signal to the process, sent between hold and release. Were
    // SIGHUP's listeners ever zero in between, Node would close its signal watcher and drop it.
    const script = `
      import { holdStartupHangups, serveUntil } from ${JSON.stringify(join(ROOT, 'dist/monitor/run-service.js'))};
      const held = holdStartupHangups();
      process.kill(process.pid, 'SIGHUP');
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 1000);
      let reloads = 0;
      const monitor = { reload: async () => { reloads += 1; stop.abort(); }, stop: async () => {} };
      const quiet = { info() {}, error() {} };
      await serveUntil(stop.signal, monitor, { close: async () => {} }, quiet, { startupHangups: held });
      console.log(JSON.stringify({ reloads }));
    `;
    ensureBuilt();
    const run = await runProcess(process.execPath, ['--input-type=module', '-e', script]);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ reloads: 1 });
  });
});
