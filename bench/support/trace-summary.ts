// Where a page's renderer spent its CPU: a Chromium performance trace (DevTools protocol, Tracing
// domain, the categories DevTools' Performance panel records) folded into figures a benchmark can print.
// Thread time (`tdur`), not wall time, is counted wherever the trace has it: on a loaded machine the wall
// time of a task includes the time its thread waited for a core, which says nothing about the page.
import { topSelfTime, type CpuProfile } from './cpu-profile';

/** What the Performance panel records, plus V8's sampling profiler (the JavaScript functions). */
export const TRACE_CATEGORIES = [
  '-*', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame',
  'toplevel', 'v8', 'v8.execute', 'disabled-by-default-v8.gc', 'disabled-by-default-v8.cpu_profiler', 'blink.user_timing',
  'cc', 'disabled-by-default-devtools.timeline.stack', 'loading', 'latencyInfo', 'blink', 'gpu',
];

interface TraceEvent {
  pid: number;
  tid: number;
  ts: number;
  ph: string;
  cat?: string;
  name: string;
  dur?: number;
  tdur?: number;
  tts?: number;
  id?: string;
  args?: any;
}

/** A complete (X, or B/E paired) event with its self time: thread time less its children's. */
interface Span {
  name: string;
  ts: number;
  end: number;
  cpu: number;
  self: number;
  args?: any;
  depth: number;
  children: Span[];
}

/** The groups a renderer's main-thread time is told in: what a fix would aim at. */
const BUCKETS: Array<[string, RegExp]> = [
  ['canvas', /^(Canvas|Canvas2D)/],
  ['gc', /^(MinorGC|MajorGC|V8\.GC|BlinkGC|ThreadState::|CppGC)/],
  ['style', /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|ScheduleStyleRecalculation|InvalidateLayout)$/],
  ['layout', /^(Layout|UpdateLayer|LocalFrameView::layout|PrePaint)$/],
  ['paint', /^(Paint|PaintImage|Layerize|UpdateLayerTree|CompositeLayers|Commit|PaintSetup|RasterTask|Decode|Draw|Canvas)/],
  ['parse', /^(ParseHTML|v8\.compile|V8\.Compile|v8\.parse|V8\.Parse|CompileScript|v8\.produceCache|CompileCode)/],
  ['script', /^(FunctionCall|EvaluateScript|V8\.|v8\.|TimerFire|EventDispatch|FireAnimationFrame|RunMicrotasks|XHRReadyStateChange|FireIdleCallback|JS|ResourceReceivedData)/],
];

function bucketOf(name: string): string {
  for (const [b, re] of BUCKETS) if (re.test(name)) return b;
  return 'other';
}

/** X events as they are, B/E pairs joined, per thread, nested by time. */
function spansByThread(events: TraceEvent[]): Map<string, Span[]> {
  const flat = new Map<string, Array<Omit<Span, 'self' | 'depth' | 'children'>>>();
  const open = new Map<string, TraceEvent[]>();
  const push = (key: string, s: Omit<Span, 'self' | 'depth' | 'children'>) => {
    let list = flat.get(key);
    if (!list) flat.set(key, (list = []));
    list.push(s);
  };
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X') push(key, { name: e.name, ts: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur ?? e.dur ?? 0, args: e.args });
    else if (e.ph === 'B') {
      let stack = open.get(key);
      if (!stack) open.set(key, (stack = []));
      stack.push(e);
    } else if (e.ph === 'E') {
      const b = open.get(key)?.pop();
      if (b) push(key, { name: b.name, ts: b.ts, end: e.ts, cpu: b.tts !== undefined && e.tts !== undefined ? e.tts - b.tts : e.ts - b.ts, args: { ...b.args, ...e.args } });
    }
  }
  const out = new Map<string, Span[]>();
  for (const [key, list] of flat) {
    // Parents first: earlier start, and for the same start the longer one.
    list.sort((a, b) => a.ts - b.ts || b.end - a.end);
    const roots: Span[] = [];
    const stack: Span[] = [];
    for (const s of list) {
      while (stack.length && stack[stack.length - 1].end <= s.ts) stack.pop();
      const span: Span = { ...s, self: s.cpu, depth: stack.length, children: [] };
      const parent = stack[stack.length - 1];
      if (parent && s.end <= parent.end) {
        parent.children.push(span);
        parent.self -= span.cpu;
      } else {
        // Overlapping but not nested (async slices drawn as X): count it as a root of its own.
        span.depth = 0;
        roots.push(span);
      }
      stack.push(span);
    }
    out.set(key, roots);
  }
  return out;
}

function walk(spans: Span[], fn: (s: Span) => void): void {
  for (const s of spans) {
    fn(s);
    walk(s.children, fn);
  }
}

const ms = (us: number) => (us / 1000).toFixed(0);

/**
 * The figures of one trace: CPU per renderer thread, the page's main thread by bucket and by event,
 * its long tasks and what each is made of, layouts and style recalculations (elements, forced ones),
 * paints and raster, and the JavaScript functions with the most self time.
 */
export function summarizeTrace(trace: { traceEvents: TraceEvent[] } | TraceEvent[], untilMark?: string): string[] {
  let events = Array.isArray(trace) ? trace : trace.traceEvents;
  // Up to a mark of the page's (performance.mark): what a phase holds, not what the driver saw later.
  const mark = untilMark ? events.find((e) => e.name === untilMark && e.cat?.includes('user_timing')) : undefined;
  if (mark) events = events.filter((e) => e.ph === 'M' || e.ts <= mark.ts);
  const processName = new Map<number, string>();
  const threadName = new Map<string, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'process_name') processName.set(e.pid, e.args?.name);
    if (e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name);
  }
  const threads = spansByThread(events.filter((e) => e.ph === 'X' || e.ph === 'B' || e.ph === 'E'));
  const lines: string[] = untilMark ? [mark ? `up to the page's mark ${untilMark}` : `(no mark ${untilMark} in the trace: counted to its end)`] : [];
  // CPU per renderer thread: the roots' thread time.
  const perThread: Array<{ key: string; name: string; cpu: number }> = [];
  for (const [key, roots] of threads) {
    const pid = Number(key.split(':')[0]);
    if (processName.get(pid) !== 'Renderer') continue;
    perThread.push({ key, name: threadName.get(key) ?? key, cpu: roots.reduce((sum, s) => sum + s.cpu, 0) });
  }
  const mainThreads = perThread.filter((t) => t.name === 'CrRendererMain').sort((a, b) => b.cpu - a.cpu);
  const main = mainThreads[0];
  if (!main) return ['no renderer main thread in the trace'];
  const pagePid = main.key.split(':')[0];
  const mine = perThread.filter((t) => t.key.startsWith(`${pagePid}:`));
  const byName = new Map<string, number>();
  for (const t of mine) byName.set(t.name, (byName.get(t.name) ?? 0) + t.cpu);
  lines.push(`renderer CPU by thread (thread time of top-level tasks): ${[...byName.entries()].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n} ${ms(c)} ms`).join(', ')}`);

  const roots = threads.get(main.key) ?? [];
  const bucket = new Map<string, number>();
  const self = new Map<string, number>();
  walk(roots, (s) => {
    bucket.set(bucketOf(s.name), (bucket.get(bucketOf(s.name)) ?? 0) + s.self);
    self.set(s.name, (self.get(s.name) ?? 0) + s.self);
  });
  lines.push(`main thread by kind (self thread time): ${[...bucket.entries()].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n} ${ms(c)} ms`).join(', ')}`);
  lines.push(`main thread by event (self): ${[...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 16).map(([n, c]) => `${n} ${ms(c)}`).join(', ')}`);

  // Long tasks: top-level spans over 50 ms of wall time, with their largest named parts.
  const long = roots.filter((s) => s.end - s.ts > 50_000).sort((a, b) => (b.end - b.ts) - (a.end - a.ts));
  lines.push(`main-thread tasks over 50 ms: ${long.length}; longest ${long.length ? ms(long[0].end - long[0].ts) : 0} ms wall`);
  for (const t of long.slice(0, 6)) {
    const parts = new Map<string, number>();
    walk(t.children, (s) => {
      const label = s.name === 'FunctionCall' || s.name === 'EventDispatch' || s.name === 'TimerFire'
        ? `${s.name}(${s.args?.data?.functionName || s.args?.data?.type || ''}${s.args?.data?.url ? ` ${String(s.args.data.url).split('/').pop()}:${s.args.data.lineNumber ?? ''}` : ''})`
        : s.name;
      parts.set(label, (parts.get(label) ?? 0) + s.self);
    });
    lines.push(`  ${ms(t.end - t.ts)} ms wall, ${ms(t.cpu)} ms CPU: ${[...parts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([n, c]) => `${n} ${ms(c)}`).join(', ')}`);
  }

  // Style and layout: how many, how many elements, and which were forced by script (they carry a stack).
  let styles = 0, styleElements = 0, layouts = 0, forced = 0, layoutObjects = 0, layoutMs = 0, styleMs = 0;
  const forcers = new Map<string, number>();
  walk(roots, (s) => {
    if (s.name === 'UpdateLayoutTree' || s.name === 'RecalculateStyles') {
      styles++;
      styleElements += Number(s.args?.elementCount ?? s.args?.data?.elementCount ?? 0);
      styleMs += s.cpu;
    }
    if (s.name === 'Layout') {
      layouts++;
      layoutMs += s.cpu;
      layoutObjects += Number(s.args?.beginData?.dirtyObjects ?? 0);
      const stack = s.args?.beginData?.stackTrace as Array<{ functionName: string; url: string; lineNumber: number }> | undefined;
      if (stack?.length) {
        forced++;
        const f = stack[0];
        const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
        forcers.set(key, (forcers.get(key) ?? 0) + 1);
      }
    }
  });
  lines.push(`style: ${styles} recalculations, ${styleElements} elements, ${ms(styleMs)} ms; layout: ${layouts} (${forced} forced by script${forcers.size ? `: ${[...forcers.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, n]) => `${k} ×${n}`).join(', ')}` : ''}), ${layoutObjects} dirty objects, ${ms(layoutMs)} ms`);

  // Paint on the main thread, raster on the compositor's workers.
  let paints = 0, paintMs = 0, paintArea = 0;
  walk(roots, (s) => {
    if (s.name !== 'Paint') return;
    paints++;
    paintMs += s.cpu;
    const clip = s.args?.data?.clip as number[] | undefined;
    if (clip?.length === 8) paintArea += Math.abs((clip[2] - clip[0]) * (clip[5] - clip[1]));
  });
  let raster = 0, rasterTasks = 0;
  for (const t of mine) {
    if (t.name === 'CrRendererMain') continue;
    walk(threads.get(t.key) ?? [], (s) => {
      if (s.name === 'RasterTask') { rasterTasks++; raster += s.cpu; }
    });
  }
  lines.push(`paint: ${paints} on the main thread, ${ms(paintMs)} ms, ${(paintArea / 1e6).toFixed(1)} Mpx of clips; raster: ${rasterTasks} tasks, ${ms(raster)} ms`);

  // JavaScript: V8's samples (Profile + ProfileChunk events) of the page's main thread.
  const profile: CpuProfile & { nodes: any[] } = { nodes: [], samples: [], timeDeltas: [] };
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || String(e.pid) !== pagePid) continue;
    const data = e.args?.data;
    for (const n of data?.cpuProfile?.nodes ?? []) profile.nodes.push({ id: n.id, callFrame: { functionName: n.callFrame.functionName, url: n.callFrame.url ?? '', lineNumber: n.callFrame.lineNumber ?? 0 } });
    profile.samples!.push(...(data?.cpuProfile?.samples ?? []));
    profile.timeDeltas!.push(...(data?.timeDeltas ?? []));
  }
  if (profile.samples!.length) lines.push(`JavaScript self time (V8 samples): ${topSelfTime(profile, 14).join('; ')}`);
  return lines;
}
