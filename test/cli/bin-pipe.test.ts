/** The real binary writing into a pipe whose reader has gone (`repairmon openapi | head -c 20`), or onto a full disk. */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from '../helpers/rig.js';

beforeAll(() => ensureBuilt());

/** Runs the binary with the read end of one of its output pipes closed before it writes anything. */
function withClosed(stream: 'stdout' | 'stderr', args: readonly string[]): Promise<{ code: number | null; other: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child[stream].destroy();
  let other = '';
  child[stream === 'stdout' ? 'stderr' : 'stdout'].on('data', (chunk: Buffer) => (other += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, other }));
  });
}

describe('bin/repairmon.js into a closed pipe', () => {
  it('stops quietly with the status of a tool killed by SIGPIPE (141): nothing on stderr', async () => {
    expect(await withClosed('stdout', ['openapi'])).toEqual({ code: 141, other: '' });
  });

  it('the same when stderr is the closed one (a usage error says nothing more, no stack trace on stdout)', async () => {
    expect(await withClosed('stderr', ['openapi', '--bogus'])).toEqual({ code: 141, other: '' });
  });
});

describe('bin/repairmon.js onto a full disk (/dev/full)', () => {
  it.skipIf(!existsSync('/dev/full'))('says so in one line on stderr and exits 1, no stack trace', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [BIN, 'openapi'], { stdio: ['ignore', full, 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', resolve);
      });
      expect({ code, stderr }).toEqual({ code: 1, stderr: 'repairmon: cannot write to standard output (ENOSPC)\n' });
    } finally {
      closeSync(full);
    }
  });
});
