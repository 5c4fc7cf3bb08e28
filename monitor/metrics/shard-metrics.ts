/**
 * How much of the whole config this replica probes. Every replica reads the same config and
 * keeps its own share (`--shard i/N`), so the owned counts of all replicas add up to the total
 * exactly when each probe runs on one replica: RepairmonShardsIncomplete compares them.
 */
import { Gauge, type Registry } from 'prom-client';

export interface ShardMetrics {
  describe(owned: number, total: number): void;
}

export function createShardMetrics(registry: Registry): ShardMetrics {
  const registers = [registry];
  const owned = new Gauge({
    name: 'repairmon_shard_owned_probes',
    help: "Probes of the whole config that this replica's shard runs",
    registers,
  });
  const total = new Gauge({ name: 'repairmon_config_probes', help: 'Probes of the whole config, every shard together', registers });
  return {
    describe(ownedCount, totalCount) {
      owned.set(ownedCount);
      total.set(totalCount);
    },
  };
}
