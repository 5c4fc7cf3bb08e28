/**
 * `repairmon sandbox fault SPEC|--clear --url BASE_URL`: change a running sandbox's faults through
 * its loopback-only control. The token comes from REPAIRMON_SANDBOX_TOKEN (or `--token`, which
 * shows in `ps`) and is never printed, only its last 4 characters.
 */
import { keyHint } from '../../api/client/single-attempt.js';
import { parseEnvelope } from '../../api/contract/index.js';
import { isLoopback } from '../../lib/index.js';
import { CONTROL_PATH, faultHelpLines, parseFaultSpec } from '../../sandbox/index.js';
import { type Command, type CommandContext, UsageError, stringValue } from '../command.js';

/** Where the token is read from; the sandbox prints it with this name. */
export const TOKEN_VAR = 'REPAIRMON_SANDBOX_TOKEN';
const TIMEOUT_MS = 5_000;

/** The line a sandbox prints so the user can change its faults: the token in the variable, never in argv. */
export function faultCommandLine(baseUrl: string, token: string): string {
  return `${TOKEN_VAR}=${token} repairmon sandbox fault 'status:503@/tenants/*/bikes' --url ${baseUrl}   # or: fault --clear`;
}

/** Where to send what: a SPEC, or undefined to clear. */
function readRequest(ctx: CommandContext) {
  const clear = ctx.values['clear'] === true;
  if (ctx.positionals.length > 1)
    throw new UsageError(`give one SPEC (quote it: rules are joined by ";"), got ${ctx.positionals.length} arguments`);
  const spec = ctx.positionals[0];
  if (clear === (spec !== undefined)) throw new UsageError('give either SPEC or --clear');
  if (spec !== undefined) {
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok) throw new UsageError(`SPEC: ${parsed.error}; nothing was sent`);
    if (parsed.rules.length === 0) throw new UsageError('SPEC is empty; to remove every fault use --clear');
  }
  const given = stringValue(ctx.values, 'url');
  if (given === undefined)
    throw new UsageError('--url BASE_URL is required: the base URL the sandbox printed, e.g. http://127.0.0.1:4010/api/v1');
  const url = URL.parse(given);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`--url "${given}" is not an http(s) URL`);
  // The token never leaves this machine: the control answers on loopback only anyway.
  if (!isLoopback(url.hostname))
    throw new UsageError(
      `--url must name this machine (127.0.0.1, localhost, [::1]): the fault control answers on loopback only, got "${url.hostname}"`,
    );
  const token = stringValue(ctx.values, 'token') ?? ctx.env[TOKEN_VAR];
  if (token === undefined || token.trim() === '')
    throw new UsageError(`needs the token the sandbox printed at start: set ${TOKEN_VAR} (or --token)`);
  return { url: new URL(CONTROL_PATH, url.origin), token: token.trim(), spec };
}

async function run(ctx: CommandContext): Promise<number> {
  const req = readRequest(ctx);
  const where = req.url.origin;
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.spec === undefined ? 'DELETE' : 'PUT',
      headers: { authorization: `Bearer ${req.token}`, 'content-type': 'application/json' },
      ...(req.spec === undefined ? {} : { body: JSON.stringify({ faults: req.spec }) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const { cause } = error as { cause?: { code?: string; message?: string } };
    const why = cause?.code ?? cause?.message ?? (error as Error).name;
    ctx.stderr.write(`repairmon sandbox fault: no sandbox answers at ${where} (${why})\n`);
    return 1;
  }
  const text = await res.text();
  const parsed = parseEnvelope(text, { status: res.status });
  if (!parsed.valid) {
    ctx.stderr.write(
      `repairmon sandbox fault: ${where} answered HTTP ${res.status} without the envelope: it is not a repairmon sandbox (or one too old to take faults while it runs)\n`,
    );
    return 1;
  }
  if (parsed.envelope.ok) {
    const now = (parsed.envelope.data as { faults?: unknown } | undefined)?.faults;
    ctx.stdout.write(typeof now === 'string' && now !== '' ? `faults now: ${now}\n` : 'faults cleared\n');
    return 0;
  }
  const { code, message } = parsed.envelope.error;
  const hint = res.status === 401 ? ` (token ${keyHint(req.token)}: the one this sandbox printed at start?)` : '';
  ctx.stderr.write(`repairmon sandbox fault: the sandbox refused: HTTP ${res.status} ${code}: ${message}${hint}\n`);
  // What was sent is at fault (spec, token, origin): a usage error; the sandbox failing is not.
  return res.status >= 400 && res.status < 500 ? 2 : 1;
}

const command: Command = {
  name: 'sandbox fault',
  summary: [
    'take, change or clear the faults of a running sandbox (repairmon sandbox or demo) without a restart',
    `In effect on the next request, keys unchanged. The token the sandbox printed at start is read from ${TOKEN_VAR} (or --token). Exit 0 done, 2 refused (bad SPEC, token or URL; the faults in force unchanged), 1 no sandbox answers.`,
    '',
    ...faultHelpLines(),
  ].join('\n'),
  docs: 'docs/sandbox.md',
  positionals: '[SPEC]',
  trapsSignals: false,
  options: {
    url: {
      type: 'string',
      valueName: 'BASE_URL',
      description: 'the running sandbox, as it printed it (http://127.0.0.1:4010/api/v1); loopback only',
    },
    clear: { type: 'boolean', description: 'remove every fault' },
    token: {
      type: 'string',
      valueName: 'TOKEN',
      description: `the token the sandbox printed; prefer ${TOKEN_VAR} (a flag shows in ps and shell history)`,
    },
  },
  run,
};

export default command;
