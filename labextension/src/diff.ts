/** A line diff (longest common subsequence) between a cell and its corrected version. */

export interface IDiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

export function lineDiff(before: string, after: string): IDiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // cells are short: the O(n*m) table is fine and keeps the diff minimal
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: IDiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i++] });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // the removed line before the added one, as a unified diff reads
      out.push({ op: '-', text: a[i++] });
    } else {
      out.push({ op: '+', text: b[j++] });
    }
  }
  return out;
}

/** A gap of unchanged lines left out of a diff. */
export interface IDiffGap {
  op: '…';
  text: string; // "12 unchanged lines"
}

/** The diff's changes with `context` unchanged lines around each; the rest become gaps. */
export function diffHunks(lines: IDiffLine[], context = 2): (IDiffLine | IDiffGap)[] {
  const near = lines.map(() => false);
  lines.forEach((line, k) => {
    if (line.op !== ' ') {
      for (let d = Math.max(0, k - context); d <= Math.min(lines.length - 1, k + context); d++) {
        near[d] = true;
      }
    }
  });
  const out: (IDiffLine | IDiffGap)[] = [];
  let skipped = 0;
  const gap = () => {
    if (skipped) {
      out.push({ op: '…', text: `${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
      skipped = 0;
    }
  };
  lines.forEach((line, k) => {
    if (near[k]) {
      gap();
      out.push(line);
    } else {
      skipped++;
    }
  });
  gap();
  return out;
}

/** The smallest single replacement turning `before` into `after` (keeps undo and cursors sane). */
export function minimalReplacement(before: string, after: string): { start: number; end: number; text: string } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) {
    start++;
  }
  let tail = 0;
  while (
    tail < before.length - start &&
    tail < after.length - start &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail++;
  }
  return { start, end: before.length - tail, text: after.slice(start, after.length - tail) };
}
