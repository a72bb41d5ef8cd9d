# shellcheck shell=bash
# Helpers shared by scripts/test and scripts/demo. Source it; do not run it.

# The repository root (this file lives in scripts/).
CLOTHSIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Parallel jobs for builds and tests.
CLOTHSIM_JOBS="${CLOTHSIM_JOBS:-2}"

clothsim_log() {
    printf '\n==> %s\n' "$*"
}

# The command a Debian package provides, to find it outside dpkg too.
_clothsim_package_command() {
    case "$1" in
        pkg-config) echo pkg-config ;;
        build-essential) echo cc ;;
        gcc-aarch64-linux-gnu) echo aarch64-linux-gnu-gcc ;;
        qemu-user) echo qemu-aarch64 ;;
        *) echo "$1" ;;
    esac
}

# True when package $1 is installed (dpkg) or its command is on PATH.
clothsim_have_package() {
    local pkg="$1"
    if command -v "$(_clothsim_package_command "$pkg")" >/dev/null 2>&1; then
        return 0
    fi
    if command -v dpkg >/dev/null 2>&1 \
        && dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
        return 0
    fi
    return 1
}

# clothsim_ensure_packages PKG...: install the Debian packages that are
# missing. As root, or with password-less sudo, it runs apt-get (update only
# when something is missing); otherwise it prints what to install and exits 1.
clothsim_ensure_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        clothsim_have_package "$pkg" || missing+=("$pkg")
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        return 0
    fi

    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            echo "error: missing packages: ${missing[*]}" >&2
            echo "install them first, e.g.: sudo apt-get install ${missing[*]}" >&2
            exit 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: missing: ${missing[*]} (no apt-get here; install them with your package manager)" >&2
        exit 1
    fi
    clothsim_log "installing ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# clothsim_build DIR CMAKE_ARGS...: configure the repository into DIR and build.
clothsim_build() {
    local dir="$1"
    shift
    clothsim_log "configure ${dir#"$CLOTHSIM_ROOT"/}: $*"
    cmake -S "$CLOTHSIM_ROOT" -B "$dir" "$@"
    clothsim_log "build ${dir#"$CLOTHSIM_ROOT"/}"
    cmake --build "$dir" -j "$CLOTHSIM_JOBS"
}

# clothsim_ctest DIR [CTEST_ARGS...]: run the tests of a build directory.
clothsim_ctest() {
    local dir="$1"
    shift
    clothsim_log "test ${dir#"$CLOTHSIM_ROOT"/}"
    ctest --test-dir "$dir" --output-on-failure -j "$CLOTHSIM_JOBS" "$@"
}

# Stage timing for scripts/test. clothsim_stage_done NAME prints how long the
# stage that just ended took (since the previous call, or since this file was
# sourced) and keeps it for clothsim_stage_summary, which prints them all.
CLOTHSIM_STAGE_START=$SECONDS
CLOTHSIM_STAGE_TIMES=()
clothsim_stage_done() {
    local took=$((SECONDS - CLOTHSIM_STAGE_START))
    CLOTHSIM_STAGE_TIMES+=("$(printf '%-10s %4d s' "$1" "$took")")
    clothsim_log "stage $1 took ${took} s"
    CLOTHSIM_STAGE_START=$SECONDS
}
clothsim_stage_summary() {
    clothsim_log "time per stage (total ${SECONDS} s)"
    printf '    %s\n' "${CLOTHSIM_STAGE_TIMES[@]}"
}
