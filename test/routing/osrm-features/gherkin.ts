// Reads the subset of Gherkin OSRM's feature files use: a Background, Scenarios, steps with a data table
// (`| a | b |` rows) or a doc string (`"""` … `"""`). Each scenario carries the background's steps first,
// as cucumber runs them.
import fs from 'node:fs';

export interface Step {
  /** The step text without its keyword ("the node map", "I route I should get"). */
  text: string;
  line: number;
  table?: string[][];
  doc?: string;
}

export interface Scenario {
  feature: string;
  name: string;
  /** 1-based line of the `Scenario:` line, as OSRM's issues cite them (`restrictions.feature:606`). */
  line: number;
  steps: Step[];
  /** The feature's and the scenario's tags (`@todo`, `@routing`…), without the `@`. */
  tags: string[];
}

const KEYWORD = /^(Given|When|Then|And|But)\s+(.*)$/;

function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  // `\|` inside a cell is a literal bar (OSRM's tables write lane lists so: designated\|designated).
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

export function readFeature(file: string, feature: string): Scenario[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const background: Step[] = [];
  const scenarios: Scenario[] = [];
  let current: Step[] | null = null;
  let step: Step | null = null;
  let featureTags: string[] = [];
  let pendingTags: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const t = raw.trim();
    if (t.startsWith('"""')) {
      // Doc string: the lines up to the closing quotes, indentation of the opening quotes removed.
      const indent = raw.indexOf('"""');
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith('"""'); i++) body.push(lines[i].slice(Math.min(indent, lines[i].search(/\S|$/))));
      if (step) step.doc = body.join('\n');
      continue;
    }
    if (t.startsWith('@')) {
      pendingTags.push(...t.split(/\s+/).filter((w) => w.startsWith('@')).map((w) => w.slice(1)));
      continue;
    }
    if (t === '' || t.startsWith('#')) continue;
    if (t.startsWith('Feature:')) {
      [featureTags, pendingTags] = [pendingTags, []];
      continue;
    }
    if (t.startsWith('Background:')) {
      current = background;
      step = null;
      continue;
    }
    if (t.startsWith('Scenario:') || t.startsWith('Scenario Outline:')) {
      const s: Scenario = { feature, name: t.replace(/^Scenario( Outline)?:\s*/, ''), line: i + 1, steps: background.map((b) => ({ ...b })), tags: [...featureTags, ...pendingTags] };
      pendingTags = [];
      scenarios.push(s);
      current = s.steps;
      step = null;
      continue;
    }
    if (t.startsWith('|')) {
      if (step) (step.table ??= []).push(cells(t));
      continue;
    }
    const m = KEYWORD.exec(t);
    if (m && current) {
      step = { text: m[2], line: i + 1 };
      current.push(step);
    }
  }
  return scenarios;
}

/** A data table's rows as objects keyed by its header. */
export function tableRows(table: string[][]): Array<Record<string, string>> {
  const [head, ...rows] = table;
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}
