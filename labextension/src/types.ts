/**
 * The CheckResult JSON of jupyter_codecheck/result.py, as the server and the kernel send it.
 * Token and edit offsets are BYTE offsets into the UTF-8 source (see offsets.ts).
 */

export interface IAlternative {
  text: string;
  prob: number;
}

export type Decision = 'accept' | 'masked' | 'change' | 'delete' | 'flag';

export interface ITokenRecord {
  index: number;
  text: string;
  start: number;
  end: number;
  line: number;
  column: number;
  prob: number | null;
  rank: number | null;
  alternatives: IAlternative[];
  exit_layer: number | null;
  decision: Decision;
}

export interface IEdit {
  kind: 'change' | 'insert' | 'delete' | 'replace';
  start: number;
  end: number;
  line: number;
  column: number;
  original: string;
  replacement: string;
}

export interface IFinding {
  line: number;
  column: number;
  score: number;
  kind: string;
  message: string;
  replacement: string | null;
}

export interface ICheckResult {
  source: string;
  tokens: ITokenRecord[];
  edits: IEdit[];
  findings: IFinding[];
  corrected: string;
  stats: { [key: string]: any };
}

/** What the panel asks for: the cell, the earlier cells, and CheckOptions fields. */
export interface ICheckRequest {
  source: string;
  context: string[];
  options: { [key: string]: any };
}

/** Called while a check runs, with each token record or edit as soon as it is decided. */
export interface IProgress {
  onToken?(token: ITokenRecord): void;
  onEdit?(edit: IEdit): void;
  onStarted?(): void;
}
