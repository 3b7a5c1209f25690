"""The guard and the threads libraries start: a thread counts as the user's only when it runs the
user's code (views/user_threads.py), so pyzmq's garbage collector (started by the first large
message), matplotlib, tqdm's monitor, joblib/loky's and an executor's idle workers never switch
the guard off; a thread of the user's holds it back, and the user is told so once. Real threads
of the real libraries, in a real kernel and in this process."""
from __future__ import annotations

import concurrent.futures
import importlib.util
import threading
import time

import pytest

from jupyter_codecheck.views.user_threads import user_threads
from test_kernel_guard import Kernel, _text


def _installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def _errors(messages) -> list[str]:
    return [m["content"]["ename"] for m in messages if m["msg_type"] == "error"]


def test_library_threads_are_not_the_users_and_a_cells_are():
    ns = {"__name__": "__main__"}
    before = set(threading.enumerate())
    started = []
    if _installed("zmq"):
        import zmq
        from zmq.utils.garbage import gc
        ctx = zmq.Context()
        a, b = ctx.socket(zmq.PAIR), ctx.socket(zmq.PAIR)
        a.bind("inproc://guard-threads")
        b.connect("inproc://guard-threads")
        a.send(b"x" * 200_000, copy=False)      # a zero-copy send starts pyzmq's gc thread
        b.recv()
        assert gc.is_alive()
        started.append("zmq")
        # closed here: a context the collector finalises with open sockets blocks in zmq_ctx_term
        # (seen hanging a later test); pyzmq's gc thread lives on in its own context
        a.close(linger=0)
        b.close(linger=0)
        ctx.term()
    if _installed("tqdm"):
        from tqdm import tqdm
        for _ in tqdm(range(3), mininterval=0, disable=False):
            pass
        started.append("tqdm")
    if _installed("joblib"):
        from joblib import Parallel, delayed
        Parallel(n_jobs=2, backend="threading")(delayed(abs)(i) for i in range(4))
        Parallel(n_jobs=2)(delayed(abs)(i) for i in range(4))        # loky's executor and its threads
        started.append("joblib")
    if _installed("threadpoolctl"):
        from threadpoolctl import threadpool_limits
        with threadpool_limits(limits=1):
            pass
    if _installed("matplotlib"):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        ax.plot([1, 2, 3])
        fig.savefig(__import__("io").BytesIO(), format="png")
        plt.close(fig)
    idle_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    idle_pool.submit(abs, 1).result()           # a library's worker, idle: not the user's
    new = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert new, f"no library started a thread ({started})"
    assert user_threads(ns) == []

    # the user's: a target made in the notebook's namespace, a callback handed to a library's
    # loop, and an executor's worker while it runs a task of theirs
    exec("def work(ev):\n    ev.wait()\n", ns)
    ev = threading.Event()
    own = threading.Thread(target=ns["work"], args=(ev,), name="own")
    handed = threading.Thread(target=lambda f, e: f(e), args=(ns["work"], ev), name="handed")
    own.start()
    handed.start()
    busy = idle_pool.submit(ns["work"], ev)
    time.sleep(0.05)
    try:
        found = {t.name for t in user_threads(ns)}
        assert {"own", "handed"} <= found and any(n.startswith("ThreadPoolExecutor") for n in found)
    finally:
        ev.set()
        own.join()
        handed.join()
        busy.result()
        idle_pool.shutdown()


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    k = Kernel(tmp_path_factory.mktemp("guard-threads"))
    k.run("%load_ext jupyter_codecheck\nimport pandas as pd\ndf = pd.DataFrame({'price': [1.0, 2.0]})")
    yield k
    k.close()


def test_the_guard_stays_on_after_a_large_output_a_plot_and_library_threads(kernel):
    assert not _errors(kernel.run("%codecheck auto guard"))
    try:
        crash = "df['pirce'].mean()"
        assert _errors(kernel.run(crash)) == ["CellStopped"]
        kernel.run("print('x' * 200_000)")          # pyzmq's garbage-collector thread starts here
        assert _errors(kernel.run(crash + "  # again")) == ["CellStopped"]
        if _installed("matplotlib"):
            kernel.run("%matplotlib inline\nimport matplotlib.pyplot as plt\nimport numpy as np\n"
                       "plt.imshow(np.random.rand(300, 300)); plt.show()")
        if _installed("tqdm"):
            kernel.run("from tqdm.auto import tqdm\nfor _ in tqdm(range(3)): pass")
        if _installed("joblib"):
            kernel.run("from joblib import Parallel, delayed\nParallel(n_jobs=2)(delayed(abs)(i) for i in range(4))")
        assert _errors(kernel.run(crash + "  # third")) == ["CellStopped"]

        # a thread of the user's holds the guard back, and says so once
        kernel.run("import threading\nready = threading.Event()\ndef work():\n    ready.wait()\n"
                   "worker = threading.Thread(target=work, name='my-worker')\nworker.start()")
        first = kernel.run(crash + "  # fourth")
        assert _errors(first) == ["KeyError"]
        told = [m for m in first if "not stopped: your thread 'my-worker'" in _text(m)]
        assert len(told) == 1
        second = kernel.run(crash + "  # fifth")
        assert _errors(second) == ["KeyError"]
        assert not [m for m in second if "not stopped" in _text(m)]
        kernel.run("ready.set()\nworker.join()")
        assert _errors(kernel.run(crash + "  # sixth")) == ["CellStopped"]
    finally:
        kernel.run("%codecheck auto off")
