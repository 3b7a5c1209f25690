/** The panel's settings (schema/plugin.json) and the check options they become. */
import { ISettingRegistry } from '@jupyterlab/settingregistry';

export interface IPanelSettings {
  modelPath: string;
  // null / '': the checker's own default, the same the %%codecheck magic uses
  acceptProb: number | null;
  acceptRank: number | null;
  exitPolicy: string;
  mode: 'batched' | 'sequential' | null;
  contextChars: number;
  autoCheckOnRun: boolean;
  highlights: boolean;
  backend: 'auto' | 'server' | 'kernel';
}

export const DEFAULTS: IPanelSettings = {
  modelPath: '',
  acceptProb: null,
  acceptRank: null,
  exitPolicy: '',
  mode: null,
  contextChars: 2000,
  autoCheckOnRun: false,
  highlights: true,
  backend: 'auto'
};

export function readSettings(settings: ISettingRegistry.ISettings | null): IPanelSettings {
  if (!settings) {
    return { ...DEFAULTS };
  }
  return { ...DEFAULTS, ...(settings.composite as unknown as Partial<IPanelSettings>) };
}

/**
 * CheckOptions fields (jupyter_codecheck/core/options.py) for a request: only those the user set, so
 * that the panel and the magic check with one set of defaults.
 */
export function checkOptions(s: IPanelSettings): { [key: string]: any } {
  const options: { [key: string]: any } = {};
  if (s.acceptProb !== null && s.acceptProb !== undefined) {
    options.accept_prob = s.acceptProb;
  }
  if (s.acceptRank !== null && s.acceptRank !== undefined) {
    options.accept_rank = s.acceptRank;
  }
  const policy = (s.exitPolicy ?? '').trim();
  if (policy) {
    options.exit_policy = policy === 'none' ? null : policy;
  }
  if (s.mode) {
    options.mode = s.mode;
  }
  if (s.modelPath.trim()) {
    options.model = s.modelPath.trim();
  }
  return options;
}

/**
 * The earlier cells a check reads as context: the same rule as every other view
 * (jupyter_codecheck/core/pieces.py `select_context`). The window's start stays put while it
 * holds at most twice the budget, so the server finds the earlier cells' KV from the last check
 * and reads only what is new; then it moves to the most recent cells that fit the budget.
 * Returns the start to pass for the next cell of the same notebook, and the cells.
 */
export function selectContext(earlier: string[], start: number, budget: number): [number, string[]] {
  start = Math.min(start, earlier.length);
  const size = (cells: string[]) => cells.reduce((n, c) => n + c.length, 0);
  if (size(earlier.slice(start)) > 2 * budget) {
    let total = 0;
    start = earlier.length;
    while (start > 0 && total + earlier[start - 1].length <= budget) {
      start--;
      total += earlier[start].length;
    }
  }
  return [start, earlier.slice(start)];
}
