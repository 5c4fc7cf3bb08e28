/**
 * The monitor's Registry: families that render themselves (the per-probe table) skip
 * prom-client's generic per-series formatting; every other metric goes through prom-client.
 * `metrics()` and `getSingleMetricAsString()` stay the entry points, as both call
 * `getMetricsAsString` for each family.
 */
import { type Metric, Registry } from 'prom-client';
import { type TableFamily, isTableFamily } from './probe-table.js';

declare module 'prom-client' {
  // prom-client 15 has this method at runtime but leaves it out of its typings.
  interface Registry {
    getMetricsAsString(metric: unknown): Promise<string>;
  }
}

export class MonitorRegistry extends Registry {
  private hasDefaultLabels = false;

  override setDefaultLabels(labels: object): void {
    this.hasDefaultLabels = Object.keys(labels).length > 0;
    super.setDefaultLabels(labels);
  }

  /** The fast path only writes the plain Prometheus format without default labels; anything else is prom-client's job. */
  override getMetricsAsString(metric: unknown): Promise<string> {
    if (isTableFamily(metric) && !this.hasDefaultLabels && (this.contentType as string) === Registry.PROMETHEUS_CONTENT_TYPE) {
      return Promise.resolve(metric.render());
    }
    return super.getMetricsAsString(metric);
  }
}

/** Registers a table family; prom-client only needs `name`, `get()` and `reset()` from it. */
export function registerFamily(registry: Registry, family: TableFamily): void {
  registry.registerMetric(family as unknown as Metric);
}
