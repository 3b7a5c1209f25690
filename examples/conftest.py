"""nbval on the example notebooks: the codecheck views' JSON (a vendor MIME type holding the whole
CheckResult, timings included) is not compared; its text/plain and text/html are (the HTML's
timings are blanked by nbval-sanitize.cfg). nbval compares JSON outputs as they are, so a
sanitising pattern cannot reach them."""
from jupyter_codecheck.views.widgets import MIME_JSON


def pytest_collection_modifyitems(items):
    for item in items:
        notebook = item.parent
        skip = getattr(notebook, "skip_compare", None)
        if skip is not None and MIME_JSON not in skip:
            notebook.skip_compare = (*skip, MIME_JSON)
