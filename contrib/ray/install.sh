#!/usr/bin/env bash
# Installs Ray (contrib/ray/requirements.txt) into a virtual environment for contrib/ray/sim.py:
# target/ray-venv, or the folder given as the first argument. Prints the environment's python.
# Run by the Ray test (tests/ray.rs) itself; does nothing when the environment is already there.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${1:-$here/../../target/ray-venv}"
want="$(grep -E '^ray==' "$here/requirements.txt" | cut -d= -f3)"
if [ -x "$venv/bin/python" ] && [ "$("$venv/bin/python" -c 'import ray; print(ray.__version__)' 2>/dev/null)" = "$want" ]; then
  echo "$venv/bin/python"
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
echo "$venv/bin/python"
