/**
 * Which cells are Python, as jupyter_codecheck.sources.is_python_cell decides for the magic and the
 * command line: a cell magic whose body is not Python (%%bash, %%html, ...) is skipped, not checked.
 */

// cell magics whose body is Python (jupyter_codecheck/sources.py, PYTHON_CELL_MAGICS)
const PYTHON_CELL_MAGICS = new Set(['time', 'timeit', 'capture', 'prun', 'python', 'python3', 'codecheck', 'debug', 'ipython', 'px']);

/** The cell magic's name ('bash' for `%%bash`), or null for a Python cell. */
export function foreignCellMagic(source: string): string | null {
  const first = source.trimStart().split('\n', 1)[0].trim();
  if (!first.startsWith('%%')) {
    return null;
  }
  const [name, ...args] = first.slice(2).split(/\s+/);
  if (!name) {
    return '%%';
  }
  if (name === 'writefile') {
    // Python only when it writes a .py file
    const target = args[args.length - 1];
    return target && target.endsWith('.py') ? null : name;
  }
  return PYTHON_CELL_MAGICS.has(name) ? null : name;
}
