// Counters, gauges and histograms written in the Prometheus text exposition format (version 0.0.4).
// Small on purpose: the gateway needs a handful of series, not a client library.

type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

function numberText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

export interface Metric {
  render(): string;
}

/**
 * A label set's key among a counter's series: names and values joined with separators no label holds.
 * Counters are incremented on every delivery; the escaped exposition text is made once per series.
 */
function labelKey(labels: Labels): string {
  let key = '';
  for (const name in labels) key += `${name}\u0000${labels[name]}\u0001`;
  return key;
}

export class Counter implements Metric {
  private readonly values = new Map<string, { text: string; value: number }>();

  constructor(readonly name: string, private readonly help: string) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { text: labelText(labels), value: by });
  }

  value(labels: Labels = {}): number {
    return this.values.get(labelKey(labels))?.value ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    if (this.values.size === 0) lines.push(`${this.name} 0`);
    for (const { text, value } of this.values.values()) lines.push(`${this.name}${text} ${numberText(value)}`);
    return lines.join('\n');
  }
}

export class Gauge implements Metric {
  private current = 0;

  constructor(readonly name: string, private readonly help: string) {}

  set(value: number): void {
    this.current = value;
  }

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${numberText(this.current)}`].join('\n');
  }
}

export class Histogram implements Metric {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  constructor(readonly name: string, private readonly help: string, private readonly bounds: readonly number[]) {
    this.counts = new Array<number>(bounds.length).fill(0);
  }

  observe(value: number): void {
    this.sum += value;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) if (value <= this.bounds[i]) this.counts[i]++;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    this.bounds.forEach((b, i) => lines.push(`${this.name}_bucket{le="${numberText(b)}"} ${this.counts[i]}`));
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`, `${this.name}_sum ${numberText(this.sum)}`, `${this.name}_count ${this.count}`);
    return lines.join('\n');
  }
}

export function renderMetrics(metrics: readonly Metric[]): string {
  return metrics.map((m) => m.render()).join('\n') + '\n';
}
