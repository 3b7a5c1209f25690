/**
 * Plain-DOM views of one CheckResult: findings, diff, heat map, exit histogram, stats.
 * Each function builds and returns a fresh element; the panel decides where it goes.
 */
import { ByteOffsets } from './offsets';
import { ICheckResult, IDiffRow, ITokenRecord, severityOf } from './types';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) {
    node.className = cls;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

export function section(title: string, body: HTMLElement, cls: string): HTMLElement {
  const box = el('div', `jp-codecheck-section ${cls}`);
  box.appendChild(el('h3', 'jp-codecheck-section-title', title));
  box.appendChild(body);
  return box;
}

export function findingsView(result: ICheckResult): HTMLElement {
  if (result.findings.length === 0) {
    return el('div', 'jp-codecheck-clean', result.stats.cancelled ? 'Cancelled: no findings so far.' : 'No findings: the model accepts this cell.');
  }
  // every finding, with a fix or not; errors (Python's own checks) red, warnings amber
  const list = el('ul', 'jp-codecheck-findings');
  for (const f of result.findings) {
    const severity = severityOf(f);
    const item = el('li', `jp-codecheck-finding jp-codecheck-finding-${severity}`);
    item.dataset.severity = severity;
    const badge = el('span', `jp-codecheck-severity jp-codecheck-severity-${severity}`, severity);
    badge.title =
      typeof f.gain === 'number'
        ? `gain ${f.gain.toFixed(2)} nats: the rest of the cell is that much more likely with the edit`
        : severity === 'error'
        ? "Python's own check"
        : "the model's verified edit";
    item.appendChild(badge);
    item.appendChild(el('span', 'jp-codecheck-finding-where', `line ${f.line}:${f.column + 1}`));
    item.appendChild(el('span', 'jp-codecheck-finding-kind', f.kind));
    item.appendChild(el('span', 'jp-codecheck-finding-message', f.message));
    list.appendChild(item);
  }
  return list;
}

/** A diff row kind's sign and the end of its class name. */
const ROW_LOOK: { [kind in IDiffRow['kind']]: { sign: string; cls: string } } = {
  same: { sign: ' ', cls: 'same' },
  removed: { sign: '-', cls: 'del' },
  added: { sign: '+', cls: 'add' },
  gap: { sign: '…', cls: 'gap' }
};

/** The result's diff rows as the checker made them: the changed lines with a few lines of
 *  context around each, long unchanged stretches as one gap row. */
export function diffView(result: { diff_rows?: IDiffRow[] }): HTMLElement {
  const pre = el('pre', 'jp-codecheck-diff');
  for (const row of result.diff_rows ?? []) {
    const look = ROW_LOOK[row.kind];
    const line = el('div', `jp-codecheck-diff-line jp-codecheck-diff-${look.cls}`);
    line.textContent =
      row.kind === 'gap' ? `${look.sign} ${row.lines} unchanged line${row.lines === 1 ? '' : 's'}` : `${look.sign} ${row.text}`;
    pre.appendChild(line);
  }
  return pre;
}

const PENDING_LINES = 40;

/** Surprisal in nats, capped, as a 0..1 heat. Unpredicted tokens (the first) stay neutral. */
function heat(t: ITokenRecord): number {
  if (t.prob === null || t.decision === 'masked') {
    return 0;
  }
  return Math.min(-Math.log(Math.max(t.prob, 1e-9)) / 8, 1);
}

export function tokenDetails(t: ITokenRecord, nLayer: number | undefined): string {
  const parts = [`'${t.text}'  line ${t.line}:${t.column + 1}`, t.decision];
  if (t.prob !== null) {
    parts.push(`p = ${t.prob.toPrecision(2)}`, `rank ${t.rank}`);
  }
  if (t.exit_layer !== null) {
    parts.push(`decided at layer ${t.exit_layer + 1}${nLayer ? `/${nLayer}` : ''}`);
  }
  if (t.alternatives.length) {
    parts.push('model: ' + t.alternatives.slice(0, 3).map(a => `'${a.text}' ${a.prob.toFixed(2)}`).join(', '));
  }
  return parts.join(' · ');
}

/** The cell's tokens coloured by surprisal; hovering one fills the details line below. */
export function heatmapView(source: string, tokens: ITokenRecord[], nLayer?: number, pending = false): HTMLElement {
  const box = el('div', 'jp-codecheck-heatmap-box');
  const pre = el('pre', 'jp-codecheck-heatmap');
  // reserved height (visibility, not display): hovering must not resize the panel
  const details = el('div', 'jp-codecheck-token-details', 'Hover a token for its probability, rank and exit layer.');
  const offsets = new ByteOffsets(source);
  let at = 0; // UTF-16 index up to which the source is shown
  for (const t of [...tokens].sort((x, y) => x.start - y.start)) {
    const from = offsets.start(t.start);
    const to = offsets.end(t.end);
    if (from > at) {
      pre.appendChild(document.createTextNode(source.slice(at, from)));
    }
    if (to <= Math.max(from, at)) {
      continue;
    }
    const span = el('span', `jp-codecheck-token jp-codecheck-decision-${t.decision}`, source.slice(Math.max(from, at), to));
    span.style.setProperty('--jp-codecheck-heat', heat(t).toFixed(3));
    span.dataset.index = String(t.index);
    span.title = tokenDetails(t, nLayer);
    span.addEventListener('mouseenter', () => (details.textContent = tokenDetails(t, nLayer)));
    pre.appendChild(span);
    at = to;
  }
  if (at < source.length) {
    // while streaming, the part of the cell not decided yet is greyed out (of a long cell only
    // the next lines: the panel stays small)
    const rest = source.slice(at);
    if (pending) {
      const lines = rest.split('\n');
      const more = lines.length - PENDING_LINES;
      pre.appendChild(el('span', 'jp-codecheck-pending', more > 0 ? `${lines.slice(0, PENDING_LINES).join('\n')}\n… ${more} more lines` : rest));
    } else {
      pre.appendChild(document.createTextNode(rest));
    }
  }
  box.appendChild(pre);
  box.appendChild(details);
  return box;
}

/** Did any token leave the stack before the last layer? (Else the histogram is one bar.) */
function exitsEarly(histogram: number[]): boolean {
  return histogram.slice(0, -1).some(c => c > 0);
}

/** How many tokens were decided at each layer (the early-exit profile). */
export function histogramView(histogram: number[]): HTMLElement {
  const box = el('div', 'jp-codecheck-histogram');
  const max = Math.max(1, ...histogram);
  const total = histogram.reduce((a, b) => a + b, 0);
  histogram.forEach((count, layer) => {
    const bar = el('div', 'jp-codecheck-bar');
    bar.style.height = `${(100 * count) / max}%`;
    bar.title = `layer ${layer + 1}: ${count} token${count === 1 ? '' : 's'} (${total ? ((100 * count) / total).toFixed(0) : 0}%)`;
    box.appendChild(bar);
  });
  const axis = el('div', 'jp-codecheck-histogram-axis');
  axis.appendChild(el('span', '', 'layer 1'));
  axis.appendChild(el('span', '', `layer ${histogram.length}`));
  const wrap = el('div');
  wrap.appendChild(box);
  wrap.appendChild(axis);
  return wrap;
}

/**
 * What the early exit saved, in words (jupyter_codecheck/widgets/render.py, depth_summary), with
 * the histogram only when some token left before the last layer: one bar tells nothing.
 */
export function exitView(stats: { [key: string]: any }): HTMLElement {
  const box = el('div', 'jp-codecheck-exit');
  const histogram: number[] = Array.isArray(stats.exit_histogram) ? stats.exit_histogram : [];
  const n = histogram.length;
  const scored = histogram.reduce((a, b) => a + b, 0);
  const parts: string[] = [];
  if (scored) {
    if (exitsEarly(histogram)) {
      box.appendChild(histogramView(histogram));
      const mean = histogram.reduce((a, c, k) => a + (k + 1) * c, 0) / scored;
      parts.push(`tokens left the model after ${mean.toFixed(1)} of ${n} layers on average`);
    } else {
      parts.push(`every token ran all ${n} layers`);
    }
  }
  const possible = stats.layers_possible;
  const computed = stats.layers_computed;
  if (possible && computed !== undefined && possible > computed) {
    parts.push(`${((100 * (possible - computed)) / possible).toFixed(0)}% of the layer computations skipped`);
  }
  const rows = stats.rows_scored;
  const heads = stats.full_heads;
  if (rows && heads !== undefined) {
    const head = stats.n_vocab ? `the full ${Number(stats.n_vocab).toLocaleString('en-US')}-token output head` : 'the full output head';
    parts.push(`the cheap exit test settled ${rows - heads} of ${rows} rows (${((100 * (rows - heads)) / rows).toFixed(0)}%) without ${head}`);
  }
  box.appendChild(el('div', 'jp-codecheck-exit-text', parts.join('; ') || 'no token reached the model'));
  return box;
}

/** The exit policy as a user names it ('head', not its tests). */
function policyName(stats: { [key: string]: any }): string {
  const name = stats.exit_policy_name ?? stats.exit_policy;
  return name === null || name === 'none' ? 'none (full depth)' : String(name ?? '-');
}

/** Which state of the kernel the facts describe, as the stats table says it. */
const OBJECTS: { [objects: string]: string } = {
  'before-run': 'read just before the cell ran',
  now: 'read now (the cell has not run in this kernel)',
  ran: 'not read: the cell already ran, they hold the state after it',
  none: 'not read (the kernel did not answer)'
};

export function statsView(stats: { [key: string]: any }, decided: number, objects?: string): HTMLElement {
  const table = el('table', 'jp-codecheck-stats');
  const total = typeof stats.tokens === 'number' ? stats.tokens : decided;
  // a cancelled check decided fewer tokens than the cell has: count and speed are of those
  const n = stats.cancelled ? decided : total;
  const speed = stats.time_s ? n / stats.time_s : 0;
  const rows: [string, string][] = [
    ['tokens', stats.cancelled && decided < total ? `${decided} of ${total} decided` : String(total)],
    ['time', typeof stats.time_s === 'number' ? `${stats.time_s.toFixed(2)} s` : '-'],
    ['speed', `${speed.toFixed(1)} tokens/s`],
    ['exit policy', policyName(stats)],
    ['mode', String(stats.mode ?? '-')],
    ['model', String(stats.model ?? '-')]
  ];
  if (objects && OBJECTS[objects]) {
    rows.push(['kernel objects', OBJECTS[objects]]);
  }
  if (stats.pieces > 1) {
    rows.push(['pieces', `${stats.pieces} (a long cell is checked piece by piece)`]);
  }
  if (stats.cancelled) {
    rows.unshift(['cancelled', 'yes (partial result)']);
  }
  for (const [k, v] of rows) {
    const tr = el('tr');
    tr.appendChild(el('th', '', k));
    tr.appendChild(el('td', '', v));
    table.appendChild(tr);
  }
  return table;
}
