/**
 * The /platform/ side: which sub-paths there are (given, or listed by /docs), whether the
 * given key is a platform or a tenant key (the API has no endpoint naming a key's kind), and
 * what a tenant key gets there.
 */
import { type KeyKind, platformPath } from '../../api/contract/index.js';
import { PLATFORM_PATHS } from '../../api/contract/readings.js';
import { type CallRecord } from '../../diagnose/index.js';
import { unlistedNotFound } from '../../diagnose/index.js';
import { evidenceOf, isSuccess, refusalOf, refusalText } from '../answer.js';
import type { Reading, Refusal } from '../types.js';
import { type FindingContext, NEEDS_KEY, keyProof, learned, looksRejected, madeUpKeyRefusal, recordsWhere, unknown } from './context.js';

const paths = (subs: readonly string[]): string => subs.map((sub) => platformPath(sub)).join(', ');

export function platformPathsFinding(ctx: FindingContext): Reading<readonly string[]> {
  const listed = ctx.platformPathsListed;
  const given = ctx.platformPathsGiven;
  if (given !== undefined) {
    const docs = listed.length === 0 ? '/docs lists none' : `/docs lists ${paths(listed)}`;
    return learned(given, `--platform-path ${paths(given)} (${docs})`);
  }
  if (listed.length === 0) {
    return unknown(
      `/docs lists no /platform/ sub-path as a path or in a sentence, and discovery does not guess one (${PLATFORM_PATHS.reason}); pass --platform-path PATH`,
    );
  }
  return learned(listed, `GET /docs without a key lists ${paths(listed)}`);
}

/** The platform answer that decides: a 2xx if any, else the first refusal, else the first answer. */
function decidingPlatformRecord(ctx: FindingContext): CallRecord | undefined {
  const records = recordsWhere(ctx, 'platform:');
  return records.find((r) => isSuccess(r.result)) ?? records.find((r) => refusalOf(r.result) !== undefined) ?? records[0];
}

/** Evidence that a refusal on /platform/ is a tenant key's, not a rejected key's. */
function tenantKeyEvidence(ctx: FindingContext, record: CallRecord): string | undefined {
  const proof = keyProof(ctx);
  if (proof) return `${evidenceOf(record)}, while the key is valid: ${evidenceOf(proof)}`;
  const madeUp = madeUpKeyRefusal(ctx);
  if (madeUp && !looksRejected(ctx, record.result)) return `${evidenceOf(record)}, not what a made-up key gets (${refusalText(madeUp)})`;
  return undefined;
}

type KindDecision =
  | { readonly kind: 'platform'; readonly evidence: string }
  | { readonly kind: 'tenant'; readonly refusal: Refusal; readonly evidence: string }
  | { readonly kind: 'undecided'; readonly why: string };

function decideKeyKind(ctx: FindingContext): KindDecision {
  if (!ctx.keyGiven) return { kind: 'undecided', why: NEEDS_KEY };
  const record = decidingPlatformRecord(ctx);
  if (!record) return { kind: 'undecided', why: 'no /platform/ sub-path to ask: /docs lists none (pass --platform-path PATH)' };
  if (isSuccess(record.result)) return { kind: 'platform', evidence: evidenceOf(record) };
  const refusal = refusalOf(record.result);
  if (refusal === undefined) return { kind: 'undecided', why: `${evidenceOf(record)}: not a refusal, so it tells nothing of the key` };
  const wrongPath = unlistedNotFound(record.call.id.slice('platform:'.length), record.result, ctx.platformPathsListed);
  if (wrongPath !== undefined) return { kind: 'undecided', why: wrongPath };
  const evidence = tenantKeyEvidence(ctx, record);
  if (evidence) return { kind: 'tenant', refusal, evidence };
  const hint = ctx.tenant === undefined ? ' (pass --tenant SLUG to read with it)' : '';
  return { kind: 'undecided', why: `${evidenceOf(record)}: what a rejected key would get, and no answer proves the key valid${hint}` };
}

export function keyKindFinding(ctx: FindingContext): Reading<KeyKind> {
  const decision = decideKeyKind(ctx);
  return decision.kind === 'undecided' ? unknown(decision.why) : learned<KeyKind>(decision.kind, decision.evidence);
}

export function platformRefusalFinding(ctx: FindingContext): Reading<Refusal> {
  const decision = decideKeyKind(ctx);
  if (decision.kind === 'undecided') return unknown(decision.why);
  if (decision.kind === 'platform') return unknown(`needs a tenant key: the key given is a platform key (${decision.evidence})`);
  return learned(decision.refusal, decision.evidence);
}
