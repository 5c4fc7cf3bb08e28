/** `repairmon sandbox --keys FILE`: fixed keys reach the sandbox; the human output shows only their last 4, --json shows them. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/index.js';
import { fakeIo } from '../helpers/fake-io.js';

const NOWAK = 'rs_test_cli_fixed_nowak_4242';
const dir = mkdtempSync(join(tmpdir(), 'repairmon-cli-keys-'));
const keysFile = join(dir, 'keys.yaml');
writeFileSync(keysFile, `nowak-test: ${NOWAK}\n`);

async function running(args: string[]) {
  const io = fakeIo();
  const exit = main(['sandbox', '--port', '0', '--log-level', 'info', '--keys', keysFile, ...args], io);
  const line = await Promise.race([io.firstLine(), exit.then((code) => `exited ${code}: ${io.stderrText()}`)]);
  return { io, exit, line };
}

describe('repairmon sandbox --keys', () => {
  it('human output: the fixed key as its last 4 only, a placeholder in the export line, never the value', async () => {
    // The summary is one write: whole once its first line is in.
    const { io, exit } = await running([]);
    io.abort();
    expect(await exit).toBe(0);
    const out = io.stdoutText();
    expect(out).toMatch(/nowak-test +test +…4242 \(from --keys\) +tenant rowery-nowak/);
    expect(out).toContain('Keys (from --keys where marked, the others new on every start):');
    expect(out).toMatch(/export REPAIR_API_TEST_KEY=rs_test_\S+ +# kowalski-test/);
    expect(out + io.stderrText()).not.toContain(NOWAK);
  });

  it('--json prints the fixed value for scripts, and it works against the sandbox', async () => {
    const { io, exit, line } = await running(['--json']);
    const parsed = JSON.parse(line) as { baseUrl: string; keys: { alias: string; key: string }[] };
    expect(parsed.keys.find((k) => k.alias === 'nowak-test')?.key).toBe(NOWAK);
    const res = await fetch(`${parsed.baseUrl}/tenants/rowery-nowak/clients`, { headers: { 'x-api-key': NOWAK } });
    expect(res.status).toBe(200);
    io.abort();
    expect(await exit).toBe(0);
    expect(io.stderrText()).not.toContain(NOWAK);
  });

  it('a bad keys file exits 2 naming --keys and every alias at fault, printing nothing on stdout', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'nowak-tst: rs_test_long_enough_value_1\nnowak-test: short\n');
    const io = fakeIo();
    expect(await main(['sandbox', '--port', '0', '--keys', bad], io)).toBe(2);
    expect(io.stderrText()).toContain(`repairmon sandbox: --keys: ${bad}: 2 problem(s):`);
    expect(io.stderrText()).toContain('  nowak-tst: unknown alias');
    expect(io.stderrText()).toContain('  nowak-test: the value is shorter than 16 characters');
    expect(io.stdoutText()).toBe('');
  });
});
