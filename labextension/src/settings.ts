/** The panel's settings (schema/plugin.json) and the check options they become. */
import { ISettingRegistry } from '@jupyterlab/settingregistry';

export interface IPanelSettings {
  modelPath: string;
  // null / '': the checker's own default, the same the %%codecheck magic uses
  acceptProb: number | null;
  acceptRank: number | null;
  exitPolicy: string;
  mode: 'batched' | 'sequential' | null;
  // finding kinds never reported (core/silence.py)
  ignore: string[];
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
  ignore: [],
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
  if (s.ignore && s.ignore.length) {
    options.ignore = [...s.ignore];
  }
  if (s.modelPath.trim()) {
    options.model = s.modelPath.trim();
  }
  return options;
}
