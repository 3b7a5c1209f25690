import os, sys, time, statistics, json
os.environ.setdefault("MPLBACKEND", "Agg")
import numpy as np, matplotlib.pyplot as plt, pandas as pd
from jupyter_codecheck.facts import kernel_facts
cells = [
 "fig, ax = plt.subplots(figsize=(6, 4))\nax.plot(x, np.sin(x), color='r', lw=2)\nax.set_title('a')\nax.set_xlabel('x')\nax.legend()\nplt.show()\n",
 "fig, axs = plt.subplots(2, 2)\nfor ax in axs.flat:\n    im = ax.imshow(z, cmap='viridis')\n    ax.set_title('t')\nfig.colorbar(im, ax=axs, shrink=0.8)\nfig.savefig('/tmp/s34/x.png', dpi=100)\n",
 "df['c'] = df['a'] * 2\ny = df.groupby('b').mean()\nprint(y.head())\n",
 "fig = plt.figure()\nax = fig.add_subplot(111)\nline, = ax.plot(x, x ** 2)\nline.set_dashes([2, 2])\nax2 = ax.twinx()\nax2.plot(x, -x)\nax.spines['top'].set_visible(False)\n",
]
ns = {"np": np, "plt": plt, "pd": pd, "x": np.linspace(0, 1, 50), "z": np.ones((4, 4)),
      "df": pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "x"]})}
out = []
for c in cells:
    kernel_facts(c, ns)
    ts = []
    for _ in range(15):
        t = time.perf_counter(); kernel_facts(c, ns); ts.append((time.perf_counter() - t) * 1000)
    out.append(round(statistics.median(ts), 2))
print(json.dumps({"median_ms": out}))
