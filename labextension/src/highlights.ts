/**
 * Findings underlined in a cell's CodeMirror 6 editor, with their message and suggested
 * replacement on hover: errors (Python's own checks) with a red wavy line, warnings (the model's
 * verified edits) with an amber dashed one. Marks live in a StateField, so they follow the user's
 * edits until the next check replaces them.
 */
import { Range, StateEffect, StateField, Extension } from '@codemirror/state';
import { Decoration, DecorationSet, EditorView, WidgetType, hoverTooltip } from '@codemirror/view';
import { CodeEditor } from '@jupyterlab/codeeditor';

import { ByteOffsets } from './offsets';
import { ICheckResult, IEdit, Severity, severityOf } from './types';

export interface IMark {
  from: number; // UTF-16 offsets into the checked source
  to: number;
  severity: Severity;
  message: string;
  replacement: string | null;
}

const setMarks = StateEffect.define<IMark[]>();

const marksField = StateField.define<{ marks: IMark[]; deco: DecorationSet }>({
  create: () => ({ marks: [], deco: Decoration.none }),
  update(value, tr) {
    for (const effect of tr.effects) {
      if (effect.is(setMarks)) {
        return { marks: effect.value, deco: build(effect.value, tr.state.doc.length) };
      }
    }
    if (!tr.docChanged) {
      return value;
    }
    const marks = value.marks
      .map(m => ({ ...m, from: tr.changes.mapPos(m.from, 1), to: tr.changes.mapPos(m.to, -1) }))
      .filter(m => m.to >= m.from);
    return { marks, deco: value.deco.map(tr.changes) };
  },
  provide: f => EditorView.decorations.from(f, v => v.deco)
});

function build(marks: IMark[], length: number): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  for (const m of marks) {
    const from = Math.min(m.from, length);
    const to = Math.min(Math.max(m.to, from), length);
    if (to > from) {
      ranges.push(
        Decoration.mark({
          class: `jp-codecheck-flagged jp-codecheck-mark-${m.severity}`,
          attributes: { 'data-codecheck': m.message, 'data-severity': m.severity }
        }).range(from, to)
      );
    } else {
      // an insertion, or an error at the end of a line: a zero-width widget marks the spot
      ranges.push(Decoration.widget({ widget: new InsertMark(m.severity), side: 1 }).range(from));
    }
  }
  return Decoration.set(ranges, true);
}

class InsertMark extends WidgetType {
  constructor(readonly severity: Severity) {
    super();
  }

  eq(other: InsertMark): boolean {
    return other.severity === this.severity;
  }

  toDOM(): HTMLElement {
    const span = document.createElement('span');
    span.className = `jp-codecheck-insert jp-codecheck-mark-${this.severity}`;
    return span;
  }
}

const tooltip = hoverTooltip((view, pos) => {
  const { marks } = view.state.field(marksField);
  const hits = marks.filter(m => pos >= m.from && pos <= Math.max(m.to, m.from + 1));
  if (!hits.length) {
    return null;
  }
  return {
    pos: Math.min(...hits.map(m => m.from)),
    end: Math.max(...hits.map(m => m.to)),
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'jp-codecheck-tooltip';
      for (const hit of hits) {
        const msg = document.createElement('div');
        msg.className = `jp-codecheck-tooltip-finding jp-codecheck-tooltip-${hit.severity}`;
        const label = document.createElement('b');
        label.className = `jp-codecheck-severity jp-codecheck-severity-${hit.severity}`;
        label.textContent = hit.severity;
        msg.append(label, ' ', hit.message);
        dom.appendChild(msg);
        if (hit.replacement !== null) {
          const rep = document.createElement('code');
          rep.className = 'jp-codecheck-tooltip-replacement';
          rep.textContent = hit.replacement === '' ? '(delete)' : hit.replacement;
          const line = document.createElement('div');
          line.append('suggested: ', rep);
          dom.appendChild(line);
        }
      }
      return { dom };
    }
  };
});

const extension: Extension = [marksField, tooltip];
const injected = new WeakSet<CodeEditor.IEditor>();

/** UTF-16 index of a 1-based line and a 0-based column counted in characters (code points). */
export function positionOf(source: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', at);
    if (nl < 0) {
      return source.length;
    }
    at = nl + 1;
  }
  const nl = source.indexOf('\n', at);
  const end = nl < 0 ? source.length : nl;
  for (let c = 0; c < column && at < end; c++) {
    at += source.codePointAt(at)! > 0xffff ? 2 : 1;
  }
  return at;
}

const WORD = /[\p{L}\p{N}_]/u;

/** The name or number at `pos`, else the one character there; empty at the end of a line. */
export function spanAt(source: string, pos: number): [number, number] {
  const ch = (i: number) => String.fromCodePoint(source.codePointAt(i)!);
  if (pos >= source.length || source[pos] === '\n' || source[pos] === '\r') {
    return [pos, pos];
  }
  if (!WORD.test(ch(pos))) {
    return [pos, pos + ch(pos).length];
  }
  let from = pos;
  while (from > 0 && WORD.test(source[from - 1])) {
    from--;
  }
  let to = pos;
  while (to < source.length && WORD.test(ch(to))) {
    to += ch(to).length;
  }
  return [from, to];
}

function editMessage(e: IEdit): string {
  return e.kind === 'delete' || e.replacement === ''
    ? `'${e.original}' looks out of place`
    : e.original
    ? `'${e.original}' looks wrong here`
    : 'something seems missing here';
}

/**
 * The marks for a result: one per finding, with its severity. A finding's proposed edits (on its
 * line, the one at its column first) are marked where they apply; an error also marks the name
 * or character Python points at, and a finding without an edit (an undefined name the model has
 * no fix for) marks that spot alone. Model flags are not findings and are not marked. Edits no
 * finding claims (a result of an older version) are marked as warnings.
 */
export function marksFor(result: ICheckResult): IMark[] {
  const source = result.source;
  const offsets = new ByteOffsets(source);
  const edits = result.edits.map(e => ({ e, from: offsets.start(e.start), to: offsets.end(e.end), claimed: false }));
  const marks: IMark[] = [];
  for (const f of result.findings) {
    const severity = severityOf(f);
    const onLine = edits.filter(x => !x.claimed && x.e.line === f.line);
    const atColumn = onLine.filter(x => x.e.column === f.column);
    const mine = atColumn.length ? atColumn : onLine;
    const at = positionOf(source, f.line, f.column);
    // a kernel fact names its word or literal exactly (a key's whole quoted string); else the word there
    const [from, to] =
      typeof f.end_column === 'number' && f.end_column > f.column
        ? [at, positionOf(source, f.line, f.end_column)]
        : spanAt(source, at);
    if (severity === 'error' || !mine.length) {
      const fix = mine.find(x => x.from <= from && x.to >= to && x.to > x.from);
      marks.push({ from, to, severity, message: f.message, replacement: fix ? fix.e.replacement : null });
    }
    for (const x of mine) {
      x.claimed = true;
      const covered = severity === 'error' && x.from <= from && x.to >= to && x.to > x.from;
      if (!covered) {
        marks.push({ from: x.from, to: x.to, severity, message: f.message, replacement: x.e.replacement });
      }
    }
  }
  for (const x of edits) {
    if (!x.claimed) {
      marks.push({ from: x.from, to: x.to, severity: 'warning', message: editMessage(x.e), replacement: x.e.replacement });
    }
  }
  return marks;
}

/** Show `marks` in the editor (an empty list clears them). The source must be the checked one. */
export function showMarks(editor: CodeEditor.IEditor, marks: IMark[]): void {
  if (!injected.has(editor)) {
    editor.injectExtension(extension);
    injected.add(editor);
  }
  const view = (editor as any).editor as EditorView | undefined;
  view?.dispatch({ effects: setMarks.of(marks) });
}
