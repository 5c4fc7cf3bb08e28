/**
 * `--shard i/N`: a probe runs on the shard a stable hash of (target, key alias) selects, so all
 * probes of one key stay together (its 429 holds, its canaries) with no coordination.
 * Rendezvous hashing: going from N to N+1 replicas moves only the keys the new replica wins
 * (about 1/(N+1)), where hash modulo N moved about N/(N+1) of them. FNV-1a and murmur3's
 * finalizer: stable across processes and Node versions.
 */

export interface Shard {
  /** 0-based. */
  readonly index: number;
  readonly count: number;
}

export const NO_SHARD: Shard = { index: 0, count: 1 };

export function parseShard(text: string): { readonly ok: true; readonly shard: Shard } | { readonly ok: false; readonly message: string } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return { ok: false, message: `--shard must look like i/N (e.g. 0/3), got "${text}"` };
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > 1024) return { ok: false, message: `--shard count N must be between 1 and 1024, got ${count}` };
  if (index >= count) return { ok: false, message: `--shard index i must be between 0 and ${count - 1} for N=${count}, got ${index}` };
  return { ok: true, shard: { index, count } };
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** murmur3's 32-bit finalizer: spreads the replica number over all 32 bits before it is mixed in. */
function fmix32(value: number): number {
  let x = value;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** The replica (0-based, of `count`) whose score for this key is the highest. */
export function shardOf(target: string, keyAlias: string, count: number): number {
  const key = fnv1a(`${target}\u0000${keyAlias}`);
  let best = 0;
  let bestScore = -1;
  for (let replica = 0; replica < count; replica += 1) {
    const score = fmix32(key ^ fmix32(replica + 1));
    if (score > bestScore) {
      best = replica;
      bestScore = score;
    }
  }
  return best;
}

export function onShard(probe: { target: string; keyAlias: string }, shard: Shard): boolean {
  return shard.count <= 1 || shardOf(probe.target, probe.keyAlias, shard.count) === shard.index;
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
