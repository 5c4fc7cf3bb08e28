/** The one real-Prometheus launcher (bench/lib/prometheus-server.ts), as the deploy tests use it. */
export { type PrometheusOptions, type QueryAnswer, type RunningPrometheus, startPrometheus } from '../../../bench/lib/prometheus-server.js';
