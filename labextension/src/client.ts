/**
 * Where checks run: the server extension (streamed, cancellable, one shared model) or, when it is
 * not enabled, the notebook's own kernel (jupyter_codecheck.check(...).to_json() executed there).
 */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection, Kernel, KernelMessage } from '@jupyterlab/services';

import { ICheckRequest, ICheckResult, IProgress, IRepair } from './types';

export class CheckError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

export interface IChecker {
  readonly name: string;
  check(request: ICheckRequest, progress: IProgress, signal: AbortSignal): Promise<ICheckResult>;
}

let counter = 0;

/** `POST codecheck/stream`: NDJSON events (queued, started, token, edit, then result or error). */
export class ServerChecker implements IChecker {
  readonly name = 'server';
  private readonly settings = ServerConnection.makeSettings();

  private url(...parts: string[]): string {
    return URLExt.join(this.settings.baseUrl, 'codecheck', ...parts);
  }

  /** Is the server extension enabled? (404 on its status route means no.) */
  async available(): Promise<boolean> {
    try {
      const r = await ServerConnection.makeRequest(this.url('status'), {}, this.settings);
      return r.ok;
    } catch {
      return false;
    }
  }

  async check(request: ICheckRequest, progress: IProgress, signal: AbortSignal): Promise<ICheckResult> {
    const id = `lab-${Date.now().toString(36)}-${++counter}`;
    const onAbort = () => {
      // the worker stops within one layer step and the stream ends with the partial result
      void ServerConnection.makeRequest(this.url('check', id), { method: 'DELETE' }, this.settings);
    };
    signal.addEventListener('abort', onAbort);
    try {
      const response = await ServerConnection.makeRequest(
        this.url('stream'),
        { method: 'POST', body: JSON.stringify({ ...request, id }) },
        this.settings
      );
      if (!response.ok) {
        let message = response.statusText;
        try {
          message = (await response.json()).message ?? message;
        } catch {
          // not our JSON (e.g. a proxy's page): keep the status text
        }
        throw new CheckError(`${response.status}: ${message}`, response.status);
      }
      return await readStream(response, progress);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

async function readStream(response: Response, progress: IProgress): Promise<ICheckResult> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (value) {
      buffer += decoder.decode(value, { stream: true });
    }
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (!line.trim()) {
        continue;
      }
      const event = JSON.parse(line);
      switch (event.type) {
        case 'started':
          progress.onStarted?.();
          break;
        case 'token':
          progress.onToken?.(event.token);
          break;
        case 'edit':
          progress.onEdit?.(event.edit);
          break;
        case 'result':
          return event.result as ICheckResult;
        case 'error':
          throw new CheckError(`${event.status}: ${event.message}`, event.status);
      }
    }
    if (done) {
      throw new CheckError('the server closed the stream before sending a result');
    }
  }
}

const RESULT_MARK = '__codecheck_result__';

/**
 * The code that asks the panel's side in the kernel (jupyter_codecheck/views/panel_kernel.py):
 * its one public entry point, called by name, binding no name in the user's namespace. It
 * prints its answer after STATE_MARK or RESULT_MARK. JSON text is a valid Python string literal
 * once JSON-quoted again.
 */
export function panelCall(request: object): string {
  const payload = JSON.stringify(JSON.stringify(request));
  return `__import__("jupyter_codecheck.views.panel_kernel", fromlist=["answer"]).answer(${payload})`;
}

/**
 * The kernel runs the check itself: no streaming, and cancelling interrupts the kernel
 * (check() then returns its partial result, which the kernel still prints).
 */
export class KernelChecker implements IChecker {
  readonly name = 'kernel';

  constructor(private readonly kernel: () => Kernel.IKernelConnection | null | undefined) {}

  async check(request: ICheckRequest, progress: IProgress, signal: AbortSignal): Promise<ICheckResult> {
    const kernel = this.kernel();
    if (!kernel) {
      throw new CheckError(
        'no kernel: start the notebook\'s kernel, or enable the server extension ' +
          '(jupyter server extension enable jupyter_codecheck)'
      );
    }
    progress.onStarted?.();
    const asked = await askKernel(kernel, panelCall({ ask: 'check', ...request }), signal);
    const out = asked.out;
    let error = asked.error;
    const at = out.lastIndexOf(RESULT_MARK);
    if (at < 0) {
      if (error.startsWith('ModuleNotFoundError')) {
        error += ' - install jupyter-codecheck in this kernel\'s environment, or enable the server extension';
      }
      throw new CheckError(error || 'the kernel printed no result');
    }
    return JSON.parse(out.slice(at + RESULT_MARK.length)) as ICheckResult;
  }
}

/**
 * Runs the panel's `code` in the kernel and collects what it prints and the error it raised;
 * cancelling interrupts the kernel (the panel's side then ends with what it has). A cell that
 * fails ahead of the request makes the kernel drop the requests queued behind it, this one too:
 * sent again once, after the failure.
 */
async function askKernel(
  kernel: Kernel.IKernelConnection,
  code: string,
  signal: AbortSignal
): Promise<{ out: string; error: string }> {
  let out = '';
  let error = '';
  const onAbort = () => void kernel.interrupt();
  signal.addEventListener('abort', onAbort);
  try {
    for (let attempt = 0; attempt < 2 && !signal.aborted; attempt++) {
      const future = kernel.requestExecute({ code, silent: false, store_history: false, stop_on_error: false });
      future.onIOPub = msg => {
        if (KernelMessage.isStreamMsg(msg) && msg.content.name === 'stdout') {
          out += msg.content.text;
        } else if (KernelMessage.isErrorMsg(msg)) {
          error = `${msg.content.ename}: ${msg.content.evalue}`;
        }
      };
      if ((await future.done).content.status !== 'aborted') {
        break;
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  return { out, error };
}

const STATE_MARK = '__codecheck_state__';

/** Which state of the kernel a check's facts describe (jupyter_codecheck/views/panel_kernel.py). */
export type KernelObjects = 'before-run' | 'now' | 'ran';

/** What the kernel read for a cell: the names it defines and the facts on the cell's objects
 *  (null: not read, the cell already ran and the objects hold the state after it). */
export interface IKernelState {
  names: string[];
  facts: object[] | null;
  objects: KernelObjects;
}

/**
 * The kernel's names and facts on a cell (jupyter_codecheck.facts, read without running the
 * user's code), for a check that runs on the server, which has no kernel.
 *
 * `beforeRun`: called as the cell is scheduled, before its execute request is sent. The kernel
 * handles requests in order, so this one, sent first, reads the objects the cell will run on,
 * however many cells are queued ahead; the answer comes when the kernel reaches the cell. The
 * request is sent before this function returns.
 *
 * Otherwise only an idle kernel is asked, silently, and given up after `timeoutMs`: without the
 * answer the server checks the code alone.
 */
export function readKernelState(
  kernel: Kernel.IKernelConnection | null | undefined,
  source: string,
  { beforeRun = false, timeoutMs = 3000 } = {}
): Promise<IKernelState | null | 'aborted'> {
  if (!kernel || (!beforeRun && kernel.status !== 'idle')) {
    return Promise.resolve(null);
  }
  const code = panelCall({ ask: 'state', source, before_run: beforeRun });
  let out = '';
  let future: Kernel.IShellFuture<KernelMessage.IExecuteRequestMsg, KernelMessage.IExecuteReplyMsg>;
  try {
    future = kernel.requestExecute({ code, silent: true, store_history: false, stop_on_error: false });
  } catch {
    return Promise.resolve(null); // the kernel is dead or gone
  }
  future.onIOPub = msg => {
    if (KernelMessage.isStreamMsg(msg) && msg.content.name === 'stdout') {
      out += msg.content.text;
    }
  };
  const answered = future.done.then(
    reply => {
      if (reply.content.status === 'aborted') {
        // an earlier cell failed: the kernel drops the requests queued behind it, the cell's too
        return 'aborted' as const;
      }
      const at = out.lastIndexOf(STATE_MARK);
      return at < 0 ? null : (JSON.parse(out.slice(at + STATE_MARK.length)) as IKernelState);
    },
    () => null // cancelled: the kernel restarted or shut down
  );
  if (beforeRun) {
    return answered;
  }
  const timeout = new Promise<null>(resolve => setTimeout(() => resolve(null), timeoutMs));
  return Promise.race([answered, timeout]);
}

const REPAIR_MARK = '__codecheck_repair__';

/** What the panel sends for a cell that raised: its source and the kernel's error reply. */
export interface IRepairRequest {
  source: string;
  ename: string;
  evalue: string;
  traceback: string[];
  options: { [key: string]: any };
}

/**
 * The repair of a cell that just raised, made in the kernel (its candidates are re-checked
 * against the kernel's objects, which only the kernel holds). Cancelling interrupts the kernel,
 * which stops the repair; its answer then says `cancelled`.
 */
export async function requestRepair(
  kernel: Kernel.IKernelConnection | null | undefined,
  request: IRepairRequest,
  signal: AbortSignal
): Promise<IRepair> {
  if (!kernel) {
    throw new CheckError('no kernel: the repair runs in the notebook\'s kernel');
  }
  const { out, error } = await askKernel(kernel, panelCall({ ask: 'repair', ...request }), signal);
  const at = out.lastIndexOf(REPAIR_MARK);
  if (at < 0) {
    throw new CheckError(error || 'the kernel printed no repair');
  }
  return JSON.parse(out.slice(at + REPAIR_MARK.length)) as IRepair;
}
