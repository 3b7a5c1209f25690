/** The panel's settings (schema/plugin.json) and the check options they become. */
import { ISettingRegistry } from '@jupyterlab/settingregistry';

export interface IPanelSettings {
  modelPath: string;
  acceptProb: number | null;
  acceptRank: number | null;
  exitPolicy: string;
  mode: 'batched' | 'sequential';
  contextChars: number;
  autoCheckOnRun: boolean;
  highlights: boolean;
  backend: 'auto' | 'server' | 'kernel';
}

export const DEFAULTS: IPanelSettings = {
  modelPath: '',
  acceptProb: 0.2,
  acceptRank: 9,
  exitPolicy: 'default',
  mode: 'batched',
  contextChars: 4000,
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

/** CheckOptions fields (jupyter_codecheck/check.py) for a request. */
export function checkOptions(s: IPanelSettings): { [key: string]: any } {
  const options: { [key: string]: any } = {
    accept_prob: s.acceptProb,
    accept_rank: s.acceptRank,
    exit_policy: s.exitPolicy.trim() === '' || s.exitPolicy.trim() === 'none' ? null : s.exitPolicy.trim(),
    mode: s.mode
  };
  if (s.modelPath.trim()) {
    options.model = s.modelPath.trim();
  }
  return options;
}

/** The most recent earlier cells that fit in `budget` characters, oldest first. */
export function contextFor(earlier: string[], budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (let i = earlier.length - 1; i >= 0; i--) {
    const text = earlier[i];
    if (!text.trim()) {
      continue;
    }
    if (used + text.length > budget) {
      break;
    }
    out.unshift(text);
    used += text.length;
  }
  return out;
}
