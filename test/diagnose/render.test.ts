import { describe, expect, it } from 'vitest';
import { TENANT_RESOURCES, printable } from '../../api/contract/index.js';
import { renderDiagnosisJson, renderDiagnosisTable } from '../../diagnose/index.js';
import { err, ok, report, response, tenantKeyApi } from '../helpers/diagnose-fixtures.js';

describe('renderDiagnosisTable', () => {
  it('--wide: one row per check with status, code, Polish message, explanation, latency, request id and trace id', () => {
    const r = report({
      answer: tenantKeyApi('rowery-nowak', { 'scope:logs': () => err(403, 'insufficient_scope', 'logs') }),
      tenant: 'rowery-nowak',
    });
    const text = renderDiagnosisTable(r, 'wide');
    const logs = text.split('\n').find((l) => l.includes('scope:logs') && l.startsWith('FAIL'));
    expect(logs).toBeDefined();
    expect(logs).toMatch(
      /FAIL\s+4 scope\s+scope:logs\s+403\s+insufficient_scope\s+2 ms\s+req-\d+\s+4bf92f3577b34da6a3ce929d0e0e4736\s+komunikat insufficient_scope\s+the key's scope/,
    );
    expect(text).toContain(r.verdict.summary);
    expect(text).toContain('# scope:logs');
    expect(text.split('\n').filter((l) => /^(PASS|FAIL|WARN|SKIP) /.test(l))).toHaveLength(r.checks.length);
  });

  it("by default: at most 100 columns, the failing row with its code, the server's words, request id and trace id, the verdict kept whole", () => {
    const r = report({
      answer: tenantKeyApi('rowery-nowak', { 'scope:logs': () => err(403, 'insufficient_scope', 'logs') }),
      tenant: 'rowery-nowak',
    });
    const text = renderDiagnosisTable(r);
    const lines = text.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(lines.filter((l) => /^(PASS|FAIL|WARN|SKIP) /.test(l))).toHaveLength(r.checks.length);
    const at = lines.findIndex((l) => /^FAIL\s+scope:logs\s+403\s+insufficient_scope: the key's scope/.test(l));
    expect(at).toBeGreaterThan(0);
    const detail = lines.slice(at).join(' ').replace(/\s+/g, ' ');
    expect(detail).toMatch(/\(server: "komunikat insufficient_scope"; request id req-\d+ trace 4bf92f3577b34da6a3ce929d0e0e4736\)/);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain(r.verdict.summary);
    expect(lines.filter((l) => l.startsWith('PASS')).every((l) => !/req-\d+| ms /.test(l))).toBe(true);
  });

  it('a curl line wider than the table is continued with a backslash, and still runs as one command', () => {
    const r = report({ answer: (c) => (c.id === 'docs' ? ok('docs') : err(401, 'unauthorized', c.endpoint)), tenant: 'rowery-nowak' });
    const lines = renderDiagnosisTable(r, 80).split('\n');
    const start = lines.findIndex((l) => l.trimStart().startsWith('curl '));
    const curl = [];
    for (let i = start; lines[i - 1]?.endsWith(' \\') || i === start; i += 1) curl.push(lines[i]!);
    expect(curl.length).toBeGreaterThan(1);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(curl.map((l) => l.trim().replace(/ \\$/, '')).join(' ')).toBe(r.checks.find((c) => c.curl)!.curl);
  });

  it('the header breaks between its fields, never between a label and its value', () => {
    const r = report({ answer: tenantKeyApi('rowery-nowak'), tenant: 'rowery-nowak' });
    for (const width of [60, 80, 100]) {
      const header = renderDiagnosisTable(r, width).split('\n\n')[0]!.split('\n');
      expect(Math.max(...header.map((l) => l.length)), String(width)).toBeLessThanOrEqual(width);
      // Each field whole on one line: "tenant rowery-nowak", "auth bearer", "key …xxxx (...)".
      for (const field of [/tenant rowery-nowak/, /auth \S+/, /key …\S{4} \(/])
        expect(
          header.some((l) => field.test(l)),
          `${width}: ${String(field)}`,
        ).toBe(true);
    }
  });

  it('on a narrow terminal a request id and a trace id stay whole (what the API team searches by), even past the width', () => {
    const r = report({
      answer: tenantKeyApi('rowery-nowak', { 'scope:logs': () => err(403, 'insufficient_scope', 'logs') }),
      tenant: 'rowery-nowak',
    });
    const logs = r.checks.find((c) => c.check === 'scope:logs')!;
    const text = renderDiagnosisTable(r, 60);
    for (const id of [logs.requestId!, logs.traceId!])
      expect(
        text.split('\n').some((l) => l.includes(id)),
        id,
      ).toBe(true);
    // The verdict's lines too: a server error's next step names the call's ids.
    const failed = report({
      answer: tenantKeyApi('rowery-nowak', { 'scope:logs': () => err(502, 'internal_error', 'logs') }),
      tenant: 'rowery-nowak',
    });
    // The trace id (32 characters) on a 30-column terminal: whole on a line of its own.
    const id = failed.checks.find((c) => c.check === 'scope:logs')!.traceId!;
    expect(failed.verdict.next).toContain(id);
    const lines = renderDiagnosisTable(failed, 30).split('\n');
    const next = lines.slice(lines.findIndex((l) => l.startsWith('Next: ')));
    expect(
      next.some((l) => l.includes(id)),
      next.join('\n'),
    ).toBe(true);
  });

  it('lists a call read by two checks once', () => {
    const failing = Object.fromEntries(TENANT_RESOURCES.map((r) => [`scope:${r}`, () => err(502, 'internal_error', r)]));
    const r = report({ answer: tenantKeyApi('a', failing), tenant: 'a' });
    const text = renderDiagnosisTable(r);
    expect(text).toContain('# key, scope:clients');
  });

  it('escapes control characters a server could send to the terminal', () => {
    expect(printable('a\u001b[2Jb\nc\u202ed')).toBe('a\\x1b[2Jb\\x0ac\\u202ed');
    const r = report({
      answer: (c) =>
        c.id === 'index'
          ? response(401, { ok: false, error: { code: 'unauthorized', message: 'zły\u001b]0;x\u0007klucz' } })
          : ok(c.endpoint),
    });
    expect(renderDiagnosisTable(r)).not.toContain('\u001b');
  });
});

describe('renderDiagnosisJson', () => {
  it('is one JSON document with the same checks and verdict', () => {
    const r = report({ answer: tenantKeyApi('a'), tenant: 'a' });
    const parsed = JSON.parse(renderDiagnosisJson(r)) as typeof r;
    expect(parsed.checks).toHaveLength(r.checks.length);
    expect(parsed.verdict).toEqual(r.verdict);
    expect(parsed.exitCode).toBe(0);
    expect(parsed.tenant).toEqual({ probed: 'a', source: 'flag', urlTenant: null, keyTenant: null, guessed: [] });
    expect(parsed.traffic).toMatchObject({ requestBudget: 10, requestsSent: r.traffic.requestsSent, waitedMs: 0, stopped: null });
  });
});
