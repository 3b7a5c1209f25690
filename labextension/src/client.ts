/**
 * Where checks run: the server extension (streamed, cancellable, one shared model) or, when it is
 * not enabled, the notebook's own kernel (jupyter_codecheck.check(...).to_json() executed there).
 */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection, Kernel, KernelMessage } from '@jupyterlab/services';

import { ICheckRequest, ICheckResult, IProgress } from './types';

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
    // JSON text is a valid Python string literal once JSON-quoted again
    const payload = JSON.stringify(JSON.stringify(request));
    const code = [
      'def __codecheck_run(payload):',
      '    import json, threading',
      '    from jupyter_codecheck.core.pieces import cell_check, check_long',
      '    from jupyter_codecheck.views.magics import interrupt_cancels',
      '    req = json.loads(payload)',
      // the kernel's namespace, as %%codecheck gives it: its names are defined, its objects are
      // read for kernel facts, and a fix may name only attributes they have
      '    ns = {k: v for k, v in get_ipython().user_ns.items() if k != "__codecheck_run"}',
      // an interrupt (Cancel) ends the check with its partial result, wherever it lands
      '    cancel = threading.Event()',
      // the cell's context as every view picks it; a long cell piece by piece, as the server checks it
      '    job, start = cell_check(req["cells"], req["index"], req["context_start"], req["context_chars"])',
      '    with interrupt_cancels(cancel):',
      '        result = check_long(job.unit.source, **{**job.options(), "namespace": ns, "cancel": cancel,',
      '                                                **req["options"]})',
      '    result.stats["context_start"] = start',
      `    print("${RESULT_MARK}" + result.to_json())`,
      `try:\n    __codecheck_run(${payload})\nfinally:\n    del __codecheck_run`
    ].join('\n');
    const future = kernel.requestExecute({ code, silent: false, store_history: false, stop_on_error: false });
    let out = '';
    let error = '';
    future.onIOPub = msg => {
      if (KernelMessage.isStreamMsg(msg) && msg.content.name === 'stdout') {
        out += msg.content.text;
      } else if (KernelMessage.isErrorMsg(msg)) {
        error = `${msg.content.ename}: ${msg.content.evalue}`;
      }
    };
    const onAbort = () => void kernel.interrupt();
    signal.addEventListener('abort', onAbort);
    progress.onStarted?.();
    try {
      await future.done;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
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

const FACTS_MARK = '__codecheck_facts__';

/**
 * The kernel's facts on a cell, for a check that runs on the server (which has no kernel): the
 * names the kernel defines and what its live objects say (jupyter_codecheck.core.kernel, read
 * without running the user's code). Only asked of an idle kernel, silently, and given up after
 * `timeoutMs`: without them the server checks the code alone.
 */
export async function readKernelFacts(
  kernel: Kernel.IKernelConnection | null | undefined,
  source: string,
  timeoutMs = 3000
): Promise<{ names: string[]; facts: object[] } | null> {
  if (!kernel || kernel.status !== 'idle') {
    return null;
  }
  const code = [
    'def __codecheck_facts(source):',
    '    import json',
    '    from jupyter_codecheck.core.kernel import kernel_facts',
    '    ns = {k: v for k, v in get_ipython().user_ns.items() if k != "__codecheck_facts"}',
    '    facts = [f.to_dict() for f in kernel_facts(source, ns)]',
    '    names = [k for k in ns if isinstance(k, str) and not k.startswith("_")]',
    `    print("${FACTS_MARK}" + json.dumps({"names": names, "facts": facts}))`,
    `try:
    __codecheck_facts(${JSON.stringify(source)})
except Exception:
    pass
finally:
    del __codecheck_facts`
  ].join('\n');
  let out = '';
  try {
    const future = kernel.requestExecute({ code, silent: true, store_history: false, stop_on_error: false });
    future.onIOPub = msg => {
      if (KernelMessage.isStreamMsg(msg) && msg.content.name === 'stdout') {
        out += msg.content.text;
      }
    };
    const timeout = new Promise<'timeout'>(resolve => setTimeout(() => resolve('timeout'), timeoutMs));
    if ((await Promise.race([future.done, timeout])) === 'timeout') {
      return null;
    }
  } catch {
    return null;
  }
  const at = out.lastIndexOf(FACTS_MARK);
  return at < 0 ? null : JSON.parse(out.slice(at + FACTS_MARK.length));
}
