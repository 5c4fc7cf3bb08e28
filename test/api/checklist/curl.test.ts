import { describe, expect, it } from 'vitest';
import { type CurlSpec, curlCommand, shellQuote } from '../../../api/checklist/index.js';

/** What the probe prints: the key read from `$REPAIR_API_KEY`, the variable support is told to set. */
const curlLine = (spec: Omit<CurlSpec, 'keyVariable'>): string => curlCommand({ ...spec, keyVariable: 'REPAIR_API_KEY' });

describe('curlCommand', () => {
  it('writes the bearer form with the env var in double quotes so the shell expands it', () => {
    expect(curlLine({ url: 'https://api.example.com/api/v1/tenants/a/bikes', auth: 'bearer', timeoutS: 10 })).toBe(
      `curl -sS -i --max-time 10 -X GET -H 'accept: application/json' -H "authorization: Bearer $REPAIR_API_KEY" 'https://api.example.com/api/v1/tenants/a/bikes'`,
    );
  });

  it('writes the x-api-key form, and no auth header for a public call', () => {
    expect(curlLine({ url: 'http://h/api/v1/', auth: 'x-api-key' })).toBe(
      `curl -sS -i -X GET -H 'accept: application/json' -H "x-api-key: $REPAIR_API_KEY" 'http://h/api/v1/'`,
    );
    expect(curlLine({ url: 'http://h/api/v1/docs', auth: 'none' })).not.toContain('REPAIR_API_KEY');
  });

  it('single-quotes URLs so nothing in them is expanded', () => {
    expect(shellQuote("a'b$HOME")).toBe(`'a'\\''b$HOME'`);
  });
});
