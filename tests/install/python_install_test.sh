#!/bin/bash
# tests/install/python_install_test.sh — the README's Python install works
# without a package index: Debian's python3 makes a virtual environment that
# sees the system's setuptools and wheel, and `pip install
# --no-build-isolation` installs a copy of python/ from it with every index
# switched off. Negative control: the same install WITH build isolation must
# fail here (it fetches its build backend), so the test would notice if the
# index-free path stopped being the one exercised.
#
# Usage: python_install_test.sh PYTHON3 SOURCE_DIR
set -u
py=$1
src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/python_install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cp -r "$src/python" "$work/python"  # pip writes build metadata next to it
"$py" -m venv --system-site-packages "$work/venv" ||
  fail "$py -m venv (Debian: python3-venv)"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check --no-cache-dir)
export PIP_NO_INDEX=1 PIP_FIND_LINKS="" PIP_CONFIG_FILE=/dev/null

if "${pip[@]}" install --no-deps "$work/python" >"$work/isolated.log" 2>&1; then
  fail "an isolated build installed without an index: the negative control cannot tell"
fi
echo "ok: with build isolation and no index the install fails (negative control)"

"${pip[@]}" install --no-build-isolation --no-deps "$work/python" \
  >"$work/install.log" 2>&1 || { tail -20 "$work/install.log" >&2; fail "pip install --no-build-isolation"; }
version=$(cd / && "$work/venv/bin/python" -c 'import redline; print(redline.__version__)') ||
  fail "import redline from the installed package"
want=$(sed -n 's/^version = "\(.*\)"/\1/p' "$src/python/pyproject.toml")
[ "$version" = "$want" ] || fail "installed version '$version', pyproject says '$want'"
echo "ok: pip install --no-build-isolation without an index: redline $version"
