/**
 * The right-sidebar panel: actions, progress, per-cell notebook results, and the active cell's
 * result (findings, diff with Apply fix, heat map, exit histogram, stats).
 */
import { Cell, CodeCell } from '@jupyterlab/cells';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { LabIcon } from '@jupyterlab/ui-components';
import { Widget } from '@lumino/widgets';

import { CheckController, ICellState, IRepairState } from './controller';
import { severityCounts, severityOf } from './types';
import { diffView, exitView, findingsView, heatmapView, section, statsView } from './views';

export const codecheckIcon = new LabIcon({
  name: 'jupyter-codecheck:icon',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="16"><g class="jp-icon3" fill="#616161">' +
    '<path d="M3 5h12v2H3zm0 4h8v2H3zm0 4h6v2H3zm0 4h9v2H3z"/>' +
    '<path d="M13.5 15.5l2.5 2.5 5-6 1.5 1.3-6.4 7.7-4-3.9z"/></g></svg>'
});

export class CodecheckPanel extends Widget {
  private readonly head = document.createElement('div');
  private readonly checkCellButton = button('Check cell', 'jp-codecheck-check-cell');
  private readonly checkNotebookButton = button('Check notebook', 'jp-codecheck-check-notebook');
  private readonly cancelButton = button('Cancel', 'jp-codecheck-cancel');
  private readonly backend = document.createElement('div');
  private readonly notebookBox = document.createElement('div');
  private readonly cellBox = document.createElement('div');
  private frame = 0;

  constructor(private readonly controller: CheckController, private readonly tracker: INotebookTracker) {
    super();
    this.id = 'jupyter-codecheck-panel';
    this.title.icon = codecheckIcon;
    this.title.caption = 'Code check';
    this.addClass('jp-codecheck-panel');
    this.head.className = 'jp-codecheck-head';
    const title = document.createElement('h2');
    title.textContent = 'Code check';
    const actions = document.createElement('div');
    actions.className = 'jp-codecheck-actions';
    actions.append(this.checkCellButton, this.checkNotebookButton, this.cancelButton);
    this.backend.className = 'jp-codecheck-backend';
    this.head.append(title, actions, this.backend);
    this.notebookBox.className = 'jp-codecheck-notebook';
    this.cellBox.className = 'jp-codecheck-cell';
    this.node.append(this.head, this.notebookBox, this.cellBox);

    this.checkCellButton.onclick = () => {
      const panel = tracker.currentWidget;
      const cell = tracker.activeCell;
      if (panel && cell) {
        void controller.checkCell(panel, cell);
      }
    };
    this.checkNotebookButton.onclick = () => {
      if (tracker.currentWidget) {
        void controller.checkNotebook(tracker.currentWidget);
      }
    };
    this.cancelButton.onclick = () => controller.cancel();
    controller.changed.connect(() => this.schedule());
    tracker.activeCellChanged.connect(() => {
      if (tracker.activeCell) {
        controller.highlight(tracker.activeCell);
      }
      this.schedule();
    });
    tracker.currentChanged.connect(() => this.schedule());
    this.render();
  }

  /** Streaming tokens arrive quickly: redraw at most once a frame. */
  schedule(): void {
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.render();
      });
    }
  }

  private render(): void {
    const panel = this.tracker.currentWidget;
    const cell = this.tracker.activeCell;
    const c = this.controller;
    this.checkCellButton.disabled = !panel || !(cell instanceof CodeCell);
    this.checkNotebookButton.disabled = !panel;
    this.cancelButton.disabled = !c.busy;
    this.backend.textContent = c.backendName
      ? `Checks run in the ${c.backendName === 'server' ? 'Jupyter server (shared model)' : "notebook's kernel"}.`
      : '';
    this.renderNotebook(panel);
    this.renderCell(panel, cell);
  }

  private renderNotebook(panel: NotebookPanel | null): void {
    const box = this.notebookBox;
    box.replaceChildren();
    const p = this.controller.progress;
    if (!p || !panel) {
      return;
    }
    const line = document.createElement('div');
    line.className = 'jp-codecheck-progress-text';
    line.textContent = p.running
      ? `Checking cell ${Math.min(p.done + 1, p.total)} of ${p.total}…`
      : p.cancelled
      ? `Cancelled after ${p.done} of ${p.total} cells.`
      : `Checked ${p.total} code cell${p.total === 1 ? '' : 's'}.`;
    const bar = document.createElement('progress');
    bar.className = 'jp-codecheck-progress';
    bar.max = Math.max(p.total, 1);
    bar.value = p.done;
    box.append(line, bar);
    const list = document.createElement('ul');
    list.className = 'jp-codecheck-cell-list';
    const widgets = panel.content.widgets;
    for (const id of p.cells) {
      const index = widgets.findIndex(w => w.model.id === id);
      if (index < 0) {
        continue; // deleted since
      }
      const cell = widgets[index];
      const s = this.controller.state(cell);
      const item = document.createElement('li');
      item.className = 'jp-codecheck-cell-item';
      item.dataset.cellIndex = String(index);
      item.textContent = `[${index + 1}] ${summary(s, this.controller.applied(cell))}`;
      if (s?.result && s.result.findings.length) {
        item.classList.add('jp-codecheck-has-findings');
        const worst = s.result.findings.some(f => severityOf(f) === 'error') ? 'error' : 'warning';
        item.classList.add(`jp-codecheck-has-${worst}s`);
      }
      if (cell === this.tracker.activeCell) {
        item.classList.add('jp-codecheck-current');
      }
      item.onclick = () => {
        panel.content.activeCellIndex = index;
        void panel.content.scrollToItem(index);
      };
      list.appendChild(item);
    }
    box.appendChild(list);
  }

  private renderCell(panel: NotebookPanel | null, cell: Cell | null): void {
    const box = this.cellBox;
    box.replaceChildren();
    if (!panel || !cell) {
      box.append(note('Open a notebook and select a code cell.'));
      return;
    }
    const index = panel.content.widgets.indexOf(cell);
    const title = document.createElement('h3');
    title.className = 'jp-codecheck-cell-title';
    // named as the command line, SARIF and the pytest plugin name it (position among all cells, from 1)
    title.textContent = `cell_${index + 1}`;
    box.appendChild(title);
    if (!(cell instanceof CodeCell)) {
      box.append(note('Only code cells are checked.'));
      return;
    }
    const failed = this.controller.repairState(cell);
    if (failed) {
      box.append(section('When it ran', this.repairView(panel, cell, failed), 'jp-codecheck-repair-section'));
    }
    const s = this.controller.state(cell);
    if (!s) {
      box.append(note('Not checked yet: press Check cell.'));
      return;
    }
    if (s.waitingForKernel) {
      box.append(note('Checked as it runs: waiting for the kernel to reach the cell…', 'jp-codecheck-waiting'));
      return;
    }
    if (s.queued) {
      box.append(note('Waiting for the checks ahead of it…'));
      return;
    }
    if (s.running) {
      box.append(note(`Checking… ${s.tokens.length} tokens decided.`, 'jp-codecheck-running'));
      box.append(section('Heat map', heatmapView(s.source, s.tokens, undefined, true), 'jp-codecheck-heatmap-section'));
      return;
    }
    if (s.skipped) {
      box.append(note(`Not checked: a %%${s.skipped} cell is not Python.`, 'jp-codecheck-skipped'));
      return;
    }
    if (s.error) {
      box.append(note(`The check failed: ${s.error}`, 'jp-codecheck-error'));
      return;
    }
    const result = s.result!;
    const current = cell.model.sharedModel.getSource();
    const applied = this.controller.applied(cell);
    if (applied) {
      box.append(note('Fix applied (Ctrl+Z in the cell undoes it). Check the cell again to confirm.', 'jp-codecheck-applied'));
    } else if (current !== result.source) {
      box.append(note('The cell changed since it was checked: check it again for a current result.', 'jp-codecheck-stale'));
    }
    box.append(section('Findings', findingsView(result), 'jp-codecheck-findings-section'));
    if (result.corrected && result.corrected !== result.source) {
      const diff = diffView(result);
      const apply = button('Apply fix', 'jp-codecheck-apply');
      apply.disabled = current !== result.source;
      apply.onclick = () => {
        this.controller.applyFix(cell);
        cell.editor?.focus();
      };
      const wrap = document.createElement('div');
      wrap.append(diff, apply);
      box.append(section('Suggested fix', wrap, 'jp-codecheck-diff-section'));
    }
    const nLayer = result.stats.n_layer as number | undefined;
    box.append(section('Heat map (surprisal per token)', heatmapView(result.source, result.tokens, nLayer), 'jp-codecheck-heatmap-section'));
    box.append(section('Early exit', exitView(result.stats), 'jp-codecheck-histogram-section'));
    box.append(section('Stats', statsView(result.stats, result.tokens.length, s.objects), 'jp-codecheck-stats-section'));
  }

  /** A cell that raised: the cause, where the repair is, its diff and Apply fix (on this cell or
   *  the earlier cell it names). */
  private repairView(panel: NotebookPanel, cell: Cell, s: IRepairState): HTMLElement {
    const box = document.createElement('div');
    box.className = 'jp-codecheck-repair';
    if (s.running) {
      box.append(note(`${s.failure}: looking for a repair in the kernel…`, 'jp-codecheck-repair-running'));
      return box;
    }
    if (s.error || !s.repair || s.repair.cancelled) {
      box.append(note(`${s.failure}: no repair (${s.error ?? 'cancelled'}).`, 'jp-codecheck-repair-none'));
      return box;
    }
    const r = s.repair;
    const cause = note(r.cause, 'jp-codecheck-repair-cause');
    box.append(cause);
    const target = this.controller.repairTarget(panel, cell);
    const applied = this.controller.repairApplied(panel, cell);
    const where = target ? cellName(panel, target) : applied ? cellName(panel, applied) : '';
    box.append(note(r.summary + (where && r.cells_before > 0 ? ` \u2014 ${where}` : ''), 'jp-codecheck-repair-summary'));
    if (r.repaired === null) {
      return box;
    }
    box.append(diffView(r));
    const apply = button(r.cells_before > 0 && where ? `Apply fix to ${where}` : 'Apply fix', 'jp-codecheck-repair-apply');
    apply.disabled = !target;
    apply.onclick = () => {
      const edited = this.controller.applyRepair(panel, cell);
      edited?.editor?.focus();
    };
    box.append(apply);
    if (applied && !target) {
      const name = cellName(panel, applied);
      box.append(note(r.cells_before > 0
        ? `Fix applied to ${name}: run it again, then this cell. Ctrl+Z in ${name} undoes it.`
        : 'Fix applied (Ctrl+Z in the cell undoes it). Run the cell again.', 'jp-codecheck-repair-applied'));
    } else if (!target) {
      box.append(note('The cell the repair edits changed since it ran: run it again for a current repair.', 'jp-codecheck-stale'));
    }
    return box;
  }
}

/** "cell_3": a cell named by its position among all cells, as the command line names it. */
function cellName(panel: NotebookPanel, cell: Cell): string {
  return `cell_${panel.content.widgets.indexOf(cell) + 1}`;
}

function summary(s: ICellState | undefined, applied: boolean): string {
  if (!s) {
    return 'not checked';
  }
  if (s.queued || s.waitingForKernel) {
    return 'waiting';
  }
  if (s.running) {
    return `checking… (${s.tokens.length} tokens)`;
  }
  if (s.skipped) {
    return `skipped (%%${s.skipped})`;
  }
  if (s.error) {
    return `failed: ${s.error}`;
  }
  if (!s.result) {
    return 'not checked';
  }
  const n = s.result.findings.length;
  // "line 2:5", as the notebook view and the command line say it
  const where = s.result.findings.map(f => `line ${f.line}:${f.column + 1}`).join(', ');
  return applied
    ? 'fix applied'
    : n
    ? `${n} finding${n === 1 ? '' : 's'}: ${severityCounts(s.result.findings)} (${where})`
    : 'clean';
}

function button(label: string, cls: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.className = `jp-Button jp-mod-styled jp-codecheck-button ${cls}`;
  b.textContent = label;
  return b;
}

function note(text: string, cls = ''): HTMLElement {
  const div = document.createElement('div');
  div.className = `jp-codecheck-note ${cls}`;
  div.textContent = text;
  return div;
}
