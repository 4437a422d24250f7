/**
 * A small Prometheus registry (text exposition format 0.0.4): counters, gauges and histograms with labels,
 * plus collectors that refresh gauges at scrape time. Enough for /metrics without a client library.
 */
type Labels = Record<string, string>;

const esc = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (l: Labels): string => {
  const parts = Object.entries(l).map(([k, v]) => `${k}="${esc(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
};
const keyOf = (l: Labels): string => JSON.stringify(Object.entries(l).sort(([a], [b]) => a.localeCompare(b)));
const num = (n: number): string => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');

interface Metric {
  render(): string[];
}

export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    if (by < 0) throw new Error(`counter ${this.name} cannot go down (inc by ${by})`);
    const k = keyOf(labels);
    const cur = this.values.get(k) ?? { labels, value: 0 };
    cur.value += by;
    this.values.set(k, cur);
  }
  get(labels: Labels = {}): number {
    return this.values.get(keyOf(labels))?.value ?? 0;
  }
  render(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`, ...[...this.values.values()].map((v) => `${this.name}${labelText(v.labels)} ${num(v.value)}`)];
  }
}

export class Gauge implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  set(labels: Labels, value: number): void {
    this.values.set(keyOf(labels), { labels, value });
  }
  render(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, ...[...this.values.values()].map((v) => `${this.name}${labelText(v.labels)} ${num(v.value)}`)];
  }
}

export class Histogram implements Metric {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {}
  observe(labels: Labels, value: number): void {
    const k = keyOf(labels);
    const s = this.series.get(k) ?? { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
    this.buckets.forEach((b, i) => {
      if (value <= b) s.counts[i] = (s.counts[i] ?? 0) + 1;
    });
    s.sum += value;
    s.count += 1;
    this.series.set(k, s);
  }
  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.series.values()) {
      this.buckets.forEach((b, i) => out.push(`${this.name}_bucket${labelText({ ...s.labels, le: num(b) })} ${s.counts[i] ?? 0}`));
      out.push(`${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
      out.push(`${this.name}_sum${labelText(s.labels)} ${num(s.sum)}`, `${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return out;
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];
  private readonly collectors: (() => Promise<void>)[] = [];
  register<M extends Metric>(m: M): M {
    this.metrics.push(m);
    return m;
  }
  /** Runs before each scrape (e.g. read the queue depth); a failing collector leaves its gauges as they were. */
  collect(fn: () => Promise<void>): void {
    this.collectors.push(fn);
  }
  async render(): Promise<string> {
    await Promise.all(this.collectors.map((c) => c().catch(() => undefined)));
    return this.metrics.flatMap((m) => m.render()).join('\n') + '\n';
  }
}
