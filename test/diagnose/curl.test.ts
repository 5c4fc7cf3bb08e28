import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../api/checklist/index.js';
import { curlLine } from '../../diagnose/curl.js';

describe('curlLine', () => {
  it('writes the bearer form with the env var in double quotes so the shell expands it', () => {
    expect(curlLine({ method: 'GET', url: 'https://api.example.com/api/v1/tenants/a/bikes', auth: 'bearer', timeoutS: 10 })).toBe(
      `curl -sS -i --max-time 10 -X GET -H 'accept: application/json' -H "authorization: Bearer $REPAIR_API_KEY" 'https://api.example.com/api/v1/tenants/a/bikes'`,
    );
  });

  it('writes the x-api-key form, and no auth header for a public call', () => {
    expect(curlLine({ method: 'GET', url: 'http://h/api/v1/', auth: 'x-api-key' })).toBe(
      `curl -sS -i -X GET -H 'accept: application/json' -H "x-api-key: $REPAIR_API_KEY" 'http://h/api/v1/'`,
    );
    expect(curlLine({ method: 'GET', url: 'http://h/api/v1/docs', auth: 'none' })).not.toContain('REPAIR_API_KEY');
  });

  it('single-quotes URLs so nothing in them is expanded', () => {
    expect(shellQuote("a'b$HOME")).toBe(`'a'\\''b$HOME'`);
  });
});
