"""jupyter-codecheck: check notebook code with a small language model on your own CPU."""
__version__ = "0.1.0"
