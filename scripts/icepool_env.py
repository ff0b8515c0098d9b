"""The virtualenv with icepool that the reference-data scripts run in (built once under
$ICEPOOL_VENV, default /tmp/dice-icepool-venv); a script calls ensure_icepool() first and
is re-run inside the virtualenv when icepool is not importable."""
import os
import subprocess
import sys

VENV = os.environ.get("ICEPOOL_VENV", "/tmp/dice-icepool-venv")


def ensure_icepool():
    try:
        import icepool  # noqa: F401
        return
    except ImportError:
        pass
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
        subprocess.check_call([python, "-m", "pip", "install", "-q", "icepool"])
    os.execv(python, [python] + sys.argv)
