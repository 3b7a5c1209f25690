"""What users see: the command line, the IPython magics and widgets, the Jupyter server extension
and the pytest plugin. Each is a thin layer over `jupyter_codecheck.core` (see ARCHITECTURE.md).
"""
