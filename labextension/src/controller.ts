/**
 * Runs checks for notebook cells and keeps each cell's latest result. One check at a time (the
 * server serialises them anyway); cancelling stops the running check and drops the queued ones.
 */
import { Cell, CodeCell } from '@jupyterlab/cells';
import { NotebookPanel } from '@jupyterlab/notebook';
import { Signal, ISignal } from '@lumino/signaling';

import { foreignCellMagic } from './cells';
import { CheckError, IChecker, IKernelState, KernelChecker, KernelObjects, readKernelState, requestRepair, ServerChecker } from './client';
import { minimalReplacement } from './replacement';
import { marksFor, showMarks } from './highlights';
import { IPanelSettings, checkOptions } from './settings';
import { ICheckRequest, ICheckResult, IRepair, ITokenRecord } from './types';

export interface ICellState {
  source: string; // the source that was (or is being) checked
  running: boolean;
  queued: boolean;
  tokens: ITokenRecord[]; // streamed so far
  result?: ICheckResult;
  error?: string;
  skipped?: string; // a cell in another language: the name of its cell magic (bash, html, ...)
  waitingForKernel?: boolean; // checked as it runs: until the kernel reaches it
  // which state of the kernel the check's facts describe; 'none': no kernel answered
  objects?: KernelObjects | 'none';
}

/** A cell that raised when it ran: its repair, looked for in the kernel, or why there is none. */
export interface IRepairState {
  source: string; // the source that ran and raised
  failure: string; // "NameError: name 'xz' is not defined"
  running: boolean;
  repair?: IRepair;
  error?: string;
}

/** Errors that are no failure of the cell's code: an interrupt, the guard's stop, an exit. */
const NOT_FAILURES = new Set(['KeyboardInterrupt', 'CellStopped', 'SystemExit']);

/** A check on run: the source that ran and what the kernel read just before it ran. */
interface IBeforeRun {
  source: string;
  known: IKernelState | null;
}

export interface INotebookProgress {
  done: number;
  total: number;
  running: boolean;
  cancelled: boolean;
  cells: string[]; // cell model ids, in notebook order
}

export class CheckController {
  private readonly states = new Map<string, ICellState>();
  // cells that raised when run with check on run: their repairs, apart from their checks
  private readonly repairs = new Map<string, IRepairState>();
  private repairAbort: AbortController | null = null;
  private readonly _changed = new Signal<this, string | null>(this);
  private chain: Promise<void> = Promise.resolve();
  private abort: AbortController | null = null;
  private generation = 0;
  private server = new ServerChecker();
  private serverUp: boolean | null = null;
  private readonly watched = new WeakSet<Cell>();
  // cells run with check on run whose facts the kernel has not sent yet: the latest run of each
  private readonly waitingRuns = new Map<string, number>();
  private runs = 0;
  // where each notebook's context window begins (the last result's stats.context_start): kept so that checks in a row
  // share the earlier cells' KV
  private readonly contextStart = new WeakMap<NotebookPanel, number>();
  progress: INotebookProgress | null = null;
  backendName = '';

  constructor(public settings: IPanelSettings) {}

  /** Emits a cell model id whose state changed (null: notebook progress or backend). */
  get changed(): ISignal<this, string | null> {
    return this._changed;
  }

  state(cell: Cell | null | undefined): ICellState | undefined {
    return cell ? this.states.get(cell.model.id) : undefined;
  }

  get busy(): boolean {
    return this.abort !== null || this.repairAbort !== null || [...this.states.values()].some(s => s.queued || s.waitingForKernel);
  }

  repairState(cell: Cell | null | undefined): IRepairState | undefined {
    return cell ? this.repairs.get(cell.model.id) : undefined;
  }

  /**
   * A cell run with check on run raised: its repair, from the kernel (the objects and the live
   * exception are there). A later run of the cell, or a cell that did not fail, drops it.
   */
  repairOnRun(panel: NotebookPanel, cell: Cell, error: { errorName: string; errorValue: string; traceback: string[] } | null | undefined): void {
    const id = cell.model.id;
    this.repairs.delete(id);
    if (!(cell instanceof CodeCell) || !error || NOT_FAILURES.has(error.errorName)) {
      this._changed.emit(id);
      return;
    }
    const source = cell.model.sharedModel.getSource();
    const first = (error.errorValue || '').split('\n')[0];
    const state: IRepairState = { source, failure: first ? `${error.errorName}: ${first}` : error.errorName, running: true };
    this.repairs.set(id, state);
    this._changed.emit(id);
    this.watch(cell);
    const abort = new AbortController();
    this.repairAbort?.abort();
    this.repairAbort = abort;
    requestRepair(
      panel.sessionContext.session?.kernel,
      { source, ename: error.errorName, evalue: error.errorValue, traceback: error.traceback, options: checkOptions(this.settings) },
      abort.signal
    )
      .then(r => {
        state.repair = r;
      })
      .catch(e => {
        state.error = e instanceof CheckError ? e.message : String(e);
      })
      .finally(() => {
        state.running = false;
        if (this.repairAbort === abort) {
          this.repairAbort = null;
        }
        this._changed.emit(id);
      });
  }

  /** The cell a repair edits: the failed cell, or the nearest cell above it (else any other)
   *  that holds the earlier cell's text as it ran. Null when none holds it any more. */
  repairTarget(panel: NotebookPanel, cell: Cell): Cell | null {
    const r = this.repairs.get(cell.model.id)?.repair;
    if (!r || r.repaired === null) {
      return null;
    }
    const holds = (c: Cell) => c instanceof CodeCell && c.model.sharedModel.getSource() === r.target_source;
    if (r.cells_before === 0) {
      return holds(cell) ? cell : null;
    }
    const cells = panel.content.widgets;
    const at = cells.indexOf(cell);
    const order = [...cells.slice(0, Math.max(at, 0)).reverse(), ...cells.slice(at + 1)];
    return order.find(holds) ?? null;
  }

  /** The cell that holds the repaired text (Apply fix, and no undo since), or null. */
  repairApplied(panel: NotebookPanel, cell: Cell): Cell | null {
    const r = this.repairs.get(cell.model.id)?.repair;
    if (!r || r.repaired === null) {
      return null;
    }
    return panel.content.widgets.find(c => c instanceof CodeCell && c.model.sharedModel.getSource() === r.repaired) ?? null;
  }

  /** Apply the repair through the target cell's shared model (Ctrl+Z in that cell undoes it). */
  applyRepair(panel: NotebookPanel, cell: Cell): Cell | null {
    const r = this.repairs.get(cell.model.id)?.repair;
    const target = this.repairTarget(panel, cell);
    if (!r || r.repaired === null || !target) {
      return null;
    }
    const shared = target.model.sharedModel;
    const edit = minimalReplacement(shared.getSource(), r.repaired);
    shared.updateSource(edit.start, edit.end, edit.text);
    this.watch(target);
    this._changed.emit(cell.model.id);
    return target;
  }

  async checker(panel: NotebookPanel): Promise<IChecker> {
    const kernel = new KernelChecker(() => panel.sessionContext.session?.kernel);
    if (this.settings.backend === 'kernel') {
      return this.use(kernel);
    }
    if (this.serverUp === null || !this.serverUp) {
      this.serverUp = await this.server.available();
    }
    if (this.serverUp || this.settings.backend === 'server') {
      return this.use(this.server);
    }
    return this.use(kernel);
  }

  private use(checker: IChecker): IChecker {
    if (this.backendName !== checker.name) {
      this.backendName = checker.name;
      this._changed.emit(null);
    }
    return checker;
  }

  /** Check one code cell (queued behind a running check). */
  checkCell(panel: NotebookPanel, cell: Cell): Promise<void> {
    if (!(cell instanceof CodeCell) || !cell.model.sharedModel.getSource().trim()) {
      return Promise.resolve();
    }
    return this.enqueue(panel, [cell], false);
  }

  /**
   * Check a cell as it runs, about the state it runs in. Called when the cell's execution is
   * scheduled, before its execute request is sent: the kernel reads the cell's facts first (see
   * readKernelState), and the check starts once it has, while the cell runs. The cell's own
   * effects (a drop, a pop) are never held against it.
   */
  checkOnRun(panel: NotebookPanel, cell: Cell): void {
    const source = cell.model.sharedModel.getSource();
    if (!(cell instanceof CodeCell) || !source.trim()) {
      return;
    }
    if (foreignCellMagic(source) !== null) {
      void this.enqueue(panel, [cell], false); // not Python: said so, nothing to read
      return;
    }
    const id = cell.model.id;
    const known = readKernelState(panel.sessionContext.session?.kernel, source, { beforeRun: true });
    const generation = this.generation;
    const run = ++this.runs;
    this.waitingRuns.set(id, run);
    this.states.set(id, { ...this.blank(cell), source, waitingForKernel: true });
    this._changed.emit(id);
    void known.then(k => {
      if (generation !== this.generation || this.waitingRuns.get(id) !== run) {
        return; // cancelled, or the cell was checked or run again meanwhile
      }
      this.waitingRuns.delete(id);
      if (k === 'aborted') {
        this.states.delete(id); // the cell did not run either: nothing ran to check
        this._changed.emit(id);
        return;
      }
      void this.enqueue(panel, [cell], false, { source, known: k });
    });
  }

  /** Check every code cell in order, each with the cells above it as context. */
  checkNotebook(panel: NotebookPanel): Promise<void> {
    const cells = panel.content.widgets.filter(
      c => c instanceof CodeCell && c.model.sharedModel.getSource().trim()
    );
    return this.enqueue(panel, cells, true);
  }

  cancel(): void {
    this.generation++;
    this.abort?.abort();
    this.repairAbort?.abort();
    this.waitingRuns.clear();
    for (const [id, s] of this.states) {
      if (s.queued || s.waitingForKernel) {
        s.queued = false;
        s.waitingForKernel = false;
        this._changed.emit(id);
      }
    }
    if (this.progress?.running) {
      this.progress.cancelled = true;
      this.progress.running = false;
      this._changed.emit(null);
    }
  }

  private enqueue(panel: NotebookPanel, cells: Cell[], whole: boolean, beforeRun?: IBeforeRun): Promise<void> {
    const generation = this.generation;
    for (const cell of cells) {
      this.waitingRuns.delete(cell.model.id);
      this.states.set(cell.model.id, { ...this.blank(cell), source: beforeRun?.source ?? cell.model.sharedModel.getSource(), queued: true });
      this._changed.emit(cell.model.id);
    }
    if (whole) {
      this.progress = { done: 0, total: cells.length, running: true, cancelled: false, cells: cells.map(c => c.model.id) };
      this._changed.emit(null);
    }
    this.chain = this.chain.then(async () => {
      for (const cell of cells) {
        if (generation !== this.generation) {
          return;
        }
        await this.run(panel, cell, beforeRun);
        if (whole && this.progress) {
          this.progress.done++;
          this._changed.emit(null);
        }
      }
      if (whole && this.progress && generation === this.generation) {
        this.progress.running = false;
        this._changed.emit(null);
      }
    });
    return this.chain;
  }

  private blank(cell: Cell): ICellState {
    return { source: cell.model.sharedModel.getSource(), running: false, queued: false, tokens: [] };
  }

  /** Redraw when a checked cell is edited (Apply fix, Ctrl+Z, typing): "fix applied" and "changed
   *  since it was checked" follow the cell's source. */
  private watch(cell: Cell): void {
    if (!this.watched.has(cell)) {
      this.watched.add(cell);
      cell.model.sharedModel.changed.connect(() => this._changed.emit(cell.model.id));
    }
  }

  private async run(panel: NotebookPanel, cell: Cell, beforeRun?: IBeforeRun): Promise<void> {
    const id = cell.model.id;
    this.watch(cell);
    // the source as it is now (the user may have typed while the cell waited); on run, the one that ran
    const state: ICellState = { ...this.blank(cell), source: beforeRun?.source ?? cell.model.sharedModel.getSource(), running: true };
    this.states.set(id, state);
    this._changed.emit(id);
    const magic = foreignCellMagic(state.source);
    if (magic !== null) {
      // %%bash, %%html, ...: not Python, so not checked (as the magic and the command line do)
      state.running = false;
      state.skipped = magic;
      this._changed.emit(id);
      return;
    }
    // the notebook's code cells as they are; the checker picks the context from them as every
    // view does (jupyter_codecheck.core.long_sources.cell_check)
    const code: Cell[] = panel.content.widgets.filter(c => c instanceof CodeCell);
    const request: ICheckRequest = {
      source: state.source,
      cells: code.map(c => (c === cell ? state.source : c.model.sharedModel.getSource())),
      index: code.indexOf(cell),
      context_start: this.contextStart.get(panel) ?? 0,
      context_chars: this.settings.contextChars,
      options: checkOptions(this.settings)
    };
    this.abort = new AbortController();
    try {
      const checker = await this.checker(panel);
      // the objects are in the kernel: it reads the facts, of the state the cell runs in. On run
      // they were read before the cell ran; otherwise, for the server, now (a cell that already
      // ran gets none: views/panel_kernel.py); the kernel checks with its own objects itself
      let known: IKernelState | null | undefined = beforeRun?.known;
      if (!beforeRun && checker.name === 'server') {
        const read = await readKernelState(panel.sessionContext.session?.kernel, state.source);
        known = read === 'aborted' ? null : read;
      }
      if (known) {
        request.names = known.names;
        if (known.facts) {
          request.facts = known.facts;
        }
      }
      if (beforeRun && !known) {
        request.names = []; // no answer before the cell ran: the kernel's objects now are the state after it
      }
      state.objects = known ? known.objects : beforeRun || checker.name === 'server' ? 'none' : undefined;
      state.result = await checker.check(
        request,
        {
          onToken: t => {
            state.tokens.push(t);
            this._changed.emit(id);
          }
        },
        this.abort.signal
      );
      state.objects ??= state.result.stats?.kernel_objects;
      const start = state.result.stats?.context_start;
      if (typeof start === 'number') {
        this.contextStart.set(panel, start);
      }
      this.highlight(cell);
    } catch (e) {
      state.error = e instanceof CheckError ? e.message : String(e);
      if (e instanceof CheckError && e.status === 404) {
        this.serverUp = false; // the server extension went away: next time, the kernel
      }
    } finally {
      state.running = false;
      this.abort = null;
      this._changed.emit(id);
    }
  }

  /** Underline the cell's flagged tokens, if its editor exists and still holds the checked code. */
  highlight(cell: Cell): void {
    const state = this.states.get(cell.model.id);
    const editor = cell.editor;
    if (!editor || !state?.result) {
      return;
    }
    const current = cell.model.sharedModel.getSource();
    const show = this.settings.highlights && current === state.result.source;
    showMarks(editor, show ? marksFor(state.result) : []);
  }

  /** Replace the cell's source by the corrected one through the shared model (undo works). */
  applyFix(cell: Cell): boolean {
    const state = this.states.get(cell.model.id);
    const shared = cell.model.sharedModel;
    const current = shared.getSource();
    if (!state?.result || current !== state.result.source) {
      return false;
    }
    const r = minimalReplacement(current, state.result.corrected);
    if (cell.editor) {
      showMarks(cell.editor, []);
    }
    shared.updateSource(r.start, r.end, r.text);
    this._changed.emit(cell.model.id);
    return true;
  }

  /** Does the cell hold the result's corrected code (Apply fix, and no undo since)? */
  applied(cell: Cell): boolean {
    const result = this.states.get(cell.model.id)?.result;
    return !!result && result.corrected !== result.source && cell.model.sharedModel.getSource() === result.corrected;
  }
}
