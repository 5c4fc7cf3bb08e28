/**
 * The systemd unit: parsed for the essentials, then checked by the real `systemd-analyze verify`
 * (syntax, unknown keys) and `systemd-analyze security` (hardening exposure), when present.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../lib/loopback.js';
import { parseListen } from '../../monitor/run-service.js';
import { unitSections } from './helpers/manifests.js';
import { DEPLOY, SYSTEMD_ANALYZE, toolPresent } from './helpers/paths.js';
import { runProcess } from '../helpers/rig.js';

const UNIT = `${DEPLOY}systemd/repairmon.service`;
const text = readFileSync(UNIT, 'utf8');
const service = unitSections(text).get('Service')!;
const one = (key: string): string | undefined => service.get(key)?.at(-1);
const hasAnalyze = toolPresent(SYSTEMD_ANALYZE, 'systemd-analyze verify/security of the unit');

/** The unit with ExecStart pointing at an executable that exists here, in a temp folder. */
function verifiableCopy(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-unit-'));
  const file = join(dir, 'repairmon.service');
  writeFileSync(file, text.replace('/usr/local/bin/repairmon', process.execPath));
  return { dir, file };
}

describe('systemd unit', () => {
  it('runs `repairmon serve` as an unprivileged user with keys from an EnvironmentFile', () => {
    expect(one('ExecStart')).toMatch(/^\/\S*repairmon serve --config \S+ --listen \S+:\d+$/);
    expect(one('DynamicUser') === 'yes' || (one('User') !== undefined && one('User') !== 'root')).toBe(true);
    expect(one('EnvironmentFile')).toMatch(/^\/etc\/repairmon\/\S+$/);
    expect(text).not.toMatch(/rs_(test|live)_[A-Za-z0-9]/);
  });

  it('listens on loopback: a non-loopback --listen needs http.token in monitor.yaml, which the unit cannot show', () => {
    const listen = parseListen(/--listen (\S+)/.exec(one('ExecStart') ?? '')?.[1] ?? '');
    if (!listen.ok) throw new Error(listen.message);
    expect(isLoopback(listen.listen.host), `--listen ${listen.listen.host}`).toBe(true);
  });

  it('reloads with SIGHUP and restarts on failure', () => {
    expect(one('ExecReload')).toBe('/bin/kill -HUP $MAINPID');
    expect(one('Restart')).toBe('on-failure');
  });

  it('is hardened', () => {
    expect(
      Object.fromEntries(
        ['NoNewPrivileges', 'ProtectSystem', 'ProtectHome', 'PrivateTmp', 'PrivateDevices', 'RestrictSUIDSGID'].map((k) => [k, one(k)]),
      ),
    ).toEqual({
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      RestrictSUIDSGID: 'yes',
    });
    expect(one('CapabilityBoundingSet')).toBe('');
  });

  it.skipIf(!hasAnalyze)('passes `systemd-analyze verify` with no warning', async () => {
    const { dir, file } = verifiableCopy();
    try {
      const run = await runProcess(SYSTEMD_ANALYZE, ['verify', file]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.split('\n').filter((l) => l.includes('repairmon.service'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasAnalyze)('rates at most 2.0 ("OK") in `systemd-analyze security`', async () => {
    const { dir, file } = verifiableCopy();
    try {
      const run = await runProcess(SYSTEMD_ANALYZE, ['security', '--offline=true', '--threshold=20', file]);
      expect(run.code, run.stdout.split('\n').slice(-3).join('\n')).toBe(0);
      expect(run.stdout).toMatch(/Overall exposure level for repairmon\.service: [0-2]\.\d/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
