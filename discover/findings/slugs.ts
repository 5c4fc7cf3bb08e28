/**
 * Tenant slugs: the ones a platform key's tenant listing names, and the style the API's slugs
 * follow (spec §2: "string (slug)", format not shown). Only slugs the API or the user gave
 * count; discovery's own placeholder says nothing about the API.
 */
import { platformPath } from '../../api/contract/index.js';
import { SLUG_PATTERNS, type SlugStyle } from '../../api/contract/readings.js';
import { type Observations } from '../../diagnose/index.js';
import { tenantsListed } from '../../diagnose/index.js';
import { isTenantListing } from '../plan.js';
import type { Reading } from '../types.js';
import { type FindingContext, learned, unknown } from './context.js';

const SHOWN_SLUGS = 5;

/** The first tenant listing a platform key read, with the slugs it names. */
export function tenantListing(observations: Observations): { sub: string; slugs: readonly string[] } | undefined {
  for (const record of observations.values()) {
    const sub = record.call.id.startsWith('platform:') ? record.call.id.slice('platform:'.length) : undefined;
    const slugs = sub !== undefined && isTenantListing(sub) ? tenantsListed(record.result) : [];
    if (sub !== undefined && slugs.length > 0) return { sub, slugs };
  }
  return undefined;
}

/** The styles a slug is written in: both for a slug without separators (`nowak`), none for `Nowak` (then `any`). */
function stylesOf(slug: string): SlugStyle[] {
  const styles: SlugStyle[] = [];
  if (SLUG_PATTERNS.kebab.test(slug)) styles.push('kebab');
  if (SLUG_PATTERNS.snake.test(slug)) styles.push('snake');
  return styles;
}

function quoted(slugs: readonly string[]): string {
  const shown = slugs.slice(0, SHOWN_SLUGS).map((s) => JSON.stringify(s));
  return `${shown.join(', ')}${slugs.length > SHOWN_SLUGS ? `, ... (${slugs.length})` : ''}`;
}

export function slugStyleFinding(ctx: FindingContext): Reading<SlugStyle> {
  const listing = tenantListing(ctx.observations);
  const sources = [
    ...(ctx.tenant === undefined ? [] : [`--tenant ${JSON.stringify(ctx.tenant)}`]),
    ...(listing ? [`GET ${platformPath(listing.sub)} with the key lists ${quoted(listing.slugs)}`] : []),
  ];
  const slugs = [...(ctx.tenant === undefined ? [] : [ctx.tenant]), ...(listing?.slugs ?? [])];
  if (slugs.length === 0) return unknown('no slug seen: pass --tenant SLUG, or a platform key that can read a tenant listing');
  const evidence = sources.join('; ');
  const odd = slugs.find((s) => stylesOf(s).length === 0);
  if (odd !== undefined) return learned('any', `${evidence} (e.g. ${JSON.stringify(odd)})`);
  const common = (['kebab', 'snake'] as const).filter((style) => slugs.every((s) => stylesOf(s).includes(style)));
  const [only] = common;
  if (only !== undefined && common.length === 1) return learned(only, evidence);
  if (common.length === 2) return unknown(`${evidence}: no separator in any slug, so kebab or snake`);
  return learned('any', `${evidence} (mixes kebab and snake, e.g. ${JSON.stringify(slugs.find((s) => s.includes('_')))})`);
}
