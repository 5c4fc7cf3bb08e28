/**
 * The monitor's Registry: families that render themselves (the per-probe table) skip
 * prom-client's generic per-series formatting; every other metric goes through prom-client.
 * `metrics()` and `getSingleMetricAsString()` stay the entry points.
 */
import { Registry } from 'prom-client';
import { isTableFamily } from './probe-table.js';

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
  private fastPath(): boolean {
    return !this.hasDefaultLabels && (this.contentType as string) === Registry.PROMETHEUS_CONTENT_TYPE;
  }

  override getMetricsAsString(metric: unknown): Promise<string> {
    if (isTableFamily(metric) && this.fastPath()) return Promise.resolve(metric.render());
    return super.getMetricsAsString(metric);
  }

  /**
   * Same text as prom-client's `metrics()`, joined once: the table's cached row lines go
   * straight into the final string instead of through a 19 MiB per-family string first
   * (at 1 000 keys that copy and its garbage were ~20% of a scrape).
   */
  override async metrics(): Promise<string> {
    if (!this.fastPath()) return super.metrics();
    const all: readonly unknown[] = this.getMetricsAsArray();
    const texts = await Promise.all(all.map((m) => (isTableFamily(m) ? undefined : super.getMetricsAsString(m))));
    const parts: string[] = [];
    all.forEach((metric, i) => {
      if (i > 0) parts.push('\n\n');
      if (isTableFamily(metric)) metric.renderInto(parts);
      else parts.push(texts[i] ?? '');
    });
    parts.push('\n');
    return parts.join('');
  }
}
