"""What the text says, under every other room of the package: Python's own view of a cell
(`pycheck`: syntax errors, undefined names, scope, the AST helpers the kernel facts walk with),
identifier and data spans (`pysource`), files and notebooks as units (`sources`), and IPython's
automagic rule (`automagic`). Nothing here imports another room of the package."""
