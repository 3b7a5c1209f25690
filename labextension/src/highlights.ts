/**
 * Flagged tokens underlined in a cell's CodeMirror 6 editor, the suggested replacement on hover.
 * Marks live in a StateField, so they follow the user's edits until the next check replaces them.
 */
import { RangeSetBuilder, StateEffect, StateField, Extension } from '@codemirror/state';
import { Decoration, DecorationSet, EditorView, WidgetType, hoverTooltip } from '@codemirror/view';
import { CodeEditor } from '@jupyterlab/codeeditor';

import { ByteOffsets } from './offsets';
import { ICheckResult } from './types';

export interface IMark {
  from: number; // UTF-16 offsets into the checked source
  to: number;
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
  const builder = new RangeSetBuilder<Decoration>();
  for (const m of [...marks].sort((a, b) => a.from - b.from)) {
    const from = Math.min(m.from, length);
    const to = Math.min(Math.max(m.to, from), length);
    if (to > from) {
      builder.add(from, to, Decoration.mark({ class: 'jp-codecheck-flagged', attributes: { 'data-codecheck': m.message } }));
    } else {
      // an insertion: a zero-width widget marks the spot
      builder.add(from, from, Decoration.widget({ widget: new InsertMark(), side: 1 }));
    }
  }
  return builder.finish();
}

class InsertMark extends WidgetType {
  toDOM(): HTMLElement {
    const span = document.createElement('span');
    span.className = 'jp-codecheck-insert';
    return span;
  }
}

const tooltip = hoverTooltip((view, pos) => {
  const { marks } = view.state.field(marksField);
  const hit = marks.find(m => pos >= m.from && pos <= Math.max(m.to, m.from + 1));
  if (!hit) {
    return null;
  }
  return {
    pos: hit.from,
    end: hit.to,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'jp-codecheck-tooltip';
      const msg = document.createElement('div');
      msg.textContent = hit.message;
      dom.appendChild(msg);
      if (hit.replacement !== null) {
        const rep = document.createElement('code');
        rep.className = 'jp-codecheck-tooltip-replacement';
        rep.textContent = hit.replacement === '' ? '(delete)' : hit.replacement;
        dom.append('suggested: ', rep);
      }
      return { dom };
    }
  };
});

const extension: Extension = [marksField, tooltip];
const injected = new WeakSet<CodeEditor.IEditor>();

/** The marks for a result: each edit's original span, and tokens flagged without a fix. */
export function marksFor(result: ICheckResult): IMark[] {
  const offsets = new ByteOffsets(result.source);
  const marks: IMark[] = result.edits.map(e => ({
    from: offsets.start(e.start),
    to: offsets.end(e.end),
    message:
      e.kind === 'delete' || e.replacement === ''
        ? `'${e.original}' looks out of place`
        : e.original
        ? `'${e.original}' looks wrong here`
        : 'something seems missing here',
    replacement: e.replacement
  }));
  for (const t of result.tokens) {
    if (t.decision === 'flag') {
      const alt = t.alternatives[0];
      marks.push({
        from: offsets.start(t.start),
        to: offsets.end(t.end),
        message: `the model finds '${t.text}' unlikely here (p = ${(t.prob ?? 0).toPrecision(2)})`,
        replacement: alt ? alt.text : null
      });
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
