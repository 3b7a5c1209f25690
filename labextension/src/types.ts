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

/**
 * "error": Python's own checks (kind "syntax" or "undefined-name") and the kernel's facts (kind
 * "attribute", "key" or "call"); "warning": an edit the model
 * verified on the rest of the cell (kind change / insert / delete / replace).
 */
export type Severity = 'error' | 'warning';

export interface IFinding {
  line: number; // 1-based
  column: number; // 0-based, in characters (code points)
  score: number;
  kind: string;
  message: string;
  replacement: string | null;
  severity?: Severity; // absent from the results of older versions: a warning
  gain?: number | null; // warnings: nats of evidence for the edit; errors: null
  end_column?: number | null; // where the named word or literal ends (kernel facts); else the word at `column`
}

/** A finding's severity ("warning" for a result of an older version that names none). */
export function severityOf(f: IFinding): Severity {
  return f.severity === 'error' ? 'error' : 'warning';
}

/** "1 error, 2 warnings" ('' without findings). */
export function severityCounts(findings: IFinding[]): string {
  const errors = findings.filter(f => severityOf(f) === 'error').length;
  const warnings = findings.length - errors;
  const parts: string[] = [];
  if (errors) {
    parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
  }
  if (warnings) {
    parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  }
  return parts.join(', ');
}

/** One row of the result's diff (jupyter_codecheck/core/diff.py): the server computes the
 *  rows, the panel only draws them. */
export interface IDiffRow {
  kind: 'same' | 'removed' | 'added' | 'gap'; // gap: unchanged lines left out
  old_line: number | null; // 1-based line in the source (same, removed; a gap: its first line)
  new_line: number | null; // 1-based line in the corrected source (same, added; a gap: its first)
  text: string; // the line without its end ('' for a gap)
  spans: [number, number][]; // removed / inserted characters of `text` (code points, [start, end))
  lines: number; // a gap: how many unchanged lines it stands for
  edit_kinds: string[]; // the change's edit kinds, on its first added row (else its last removed row)
}

export interface ICheckResult {
  source: string;
  tokens: ITokenRecord[];
  edits: IEdit[];
  findings: IFinding[];
  corrected: string;
  stats: { [key: string]: any };
  diff_rows?: IDiffRow[]; // absent from the results of older versions (a kernel's own install)
}

/** What the panel asks for: the cell, the notebook's code cells, and CheckOptions fields. */
export interface ICheckRequest {
  source: string;
  /** The notebook's code cells in order, this one at `index`: the checker picks the context,
   *  the cells before it and the cells after it (core/long_sources.py `cell_check`). */
  cells: string[];
  index: number;
  /** Where the context window started for the last cell (the result's stats.context_start):
   *  checks in a row then share the earlier cells' KV. */
  context_start: number;
  context_chars: number;
  options: { [key: string]: any };
  /** What the notebook's kernel read for this cell (jupyter_codecheck/views/panel_kernel.py): its
   *  names and the facts on its live objects, of the state the cell runs in (none for a cell that
   *  already ran). The server has no kernel; the panel asks it. */
  names?: string[];
  facts?: object[];
}

/** Called while a check runs, with each token record or edit as soon as it is decided. */
export interface IProgress {
  onToken?(token: ITokenRecord): void;
  onEdit?(edit: IEdit): void;
  onStarted?(): void;
}

/** The repair of a cell that raised when it ran (jupyter_codecheck/views/panel_kernel.py
 *  `repair_here`): the cause, where the repair is, its diff rows, and the text of the cell it
 *  edits (the failed cell, or an earlier one: `cells_before` > 0). */
export interface IRepair {
  cancelled: boolean;
  failure: { error: string; message: string };
  cause: string; // the cause in one line
  summary: string; // where the repair is and whether the re-check verified it, or that none was found
  cells_before: number;
  target_source: string;
  repaired: string | null;
  diff_rows: IDiffRow[];
  repair: { cell: number; line: number; verified: string | null; new_line: string } | null;
}
