/** The real binary writing into a pipe whose reader stops early (`repairmon openapi | head -c 20`). */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from '../helpers/rig.js';

beforeAll(() => ensureBuilt());

describe('bin/repairmon.js into a closed pipe', () => {
  it('stops quietly with the status of a tool killed by SIGPIPE (141), no stack trace', () => {
    // The JSON document is larger than the pipe's buffer: head is gone before it is all written.
    // Its stderr goes to fd 3, the captured output, after head's 20 characters.
    const script = '{ "$0" "$1" openapi 2>&3 | head -c 20; echo " status ${PIPESTATUS[0]}"; } 3>&1';
    const out = execFileSync('bash', ['-c', script, process.execPath, BIN], { encoding: 'utf8' });
    expect(out).toBe('{\n  "openapi": "3.1. status 141\n');
  });
});
