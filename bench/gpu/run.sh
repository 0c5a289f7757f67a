#!/usr/bin/env bash
# Vaani LLM decoding on WebGPU (Dawn) through onnxruntime-web in Node: the launcher for a bare
# Linux x86-64 machine with an NVIDIA GPU (no node, no npm, no network). Built by bench/gpu/bundle.sh
# beside vgb-base.tar.xz and vgb-app.tar.xz. From the repo root:  bash .gpu-bundle/run.sh
# Results, whatever happens: $OUT (./gpu-out if unset) gets run.log, gpu-bench.log, gpu-bench.json
# and groups/ (each group's raw result).
#
# 1. unpacks both tarballs into /tmp/vgb ($VGB_PARENT/vgb): node 22, onnxruntime-web's dist files,
#    dawn.node, Debian .debs of the Vulkan/EGL/GLX loaders, bench.mjs;
# 2. extracts the .debs into /tmp/vgb/sys/root and puts on LD_LIBRARY_PATH only the sonames the
#    system lacks (nothing of the system is overwritten; VGB_DEBS_TO_ROOT=1 does `dpkg -x deb /`);
#    adds /usr/local/nvidia/lib{64,} and finds the driver's Vulkan ICD and EGL vendor files, which
#    the bench's adapter probe tries in turn (as configured, VK_DRIVER_FILES/VK_ICD_FILENAMES naming
#    the NVIDIA ICD, the Vulkan backend with loader debug output, OpenGL ES);
# 3. runs the bench; the whole script stays within RUN_TIMEOUT_S (410 s): the bench gets what is
#    left, keeps its own budget (BENCH_BUDGET_S, 360 s or less) and writes what it measured on SIGTERM.
set -u
T0=$(date +%s)
LIMIT=${RUN_TIMEOUT_S:-410}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT" || { echo "cannot create OUT=$OUT"; exit 2; }
OUT=$(cd "$OUT" && pwd)
PARENT=${VGB_PARENT:-/tmp}
B=$PARENT/vgb
WORK=${BENCH_WORK:-$PARENT/vgb-work}
exec > >(tee -a "$OUT/run.log") 2>&1
TEE=$!
left() { echo $((LIMIT - ($(date +%s) - T0))); }
secs() { local l; l=$(left); [ "$l" -gt 1 ] && echo "$l" || echo 1; } # for timeout(1): 0 would mean none
stamp() { echo "== [$(($(date +%s) - T0)) s] $*"; }
rc=2
PID=
finish() { # always: the logs and raw results in $OUT
  trap - EXIT INT TERM
  if [ -d "$WORK" ] && ls "$WORK"/group-*.json >/dev/null 2>&1; then
    mkdir -p "$OUT/groups" && cp -f "$WORK"/group-*.json "$OUT/groups/" 2>/dev/null
  fi
  [ -s "$OUT/gpu-bench.json" ] || echo "{\"error\":\"the bench wrote no JSON\",\"exit\":$rc}" >"$OUT/gpu-bench.json"
  stamp "end, exit $rc; in $OUT:"
  ls -la "$OUT" "$OUT/groups" 2>/dev/null
  exec >&- 2>&-
  wait "$TEE" 2>/dev/null
  exit "$rc"
}
stop() { # a signal: the bench writes what it measured, then the logs are kept
  rc=143
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill -TERM "$PID" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$PID" 2>/dev/null || break; sleep 1; done
    kill -KILL "$PID" 2>/dev/null
  fi
  exit
}
trap finish EXIT
trap stop INT TERM
stamp "start $(date -u +%FT%TZ) on $(uname -srm), $(nproc) cores, cwd $PWD, OUT=$OUT, limit ${LIMIT} s"

# 1. Unpack.
untar() {
  timeout "$(secs)" tar -xJf "$1" -C "$PARENT" 2>/dev/null ||
    timeout "$(secs)" python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$1" "$PARENT"
}
rm -rf "$B" && mkdir -p "$B"
for t in "$HERE"/vgb-base.tar.xz "$HERE"/vgb-app.tar.xz; do
  [ -f "$t" ] || { stamp "missing $t (build it with npm run bench:gpu:bundle)"; exit 2; }
  untar "$t" || { stamp "cannot unpack $t"; exit 2; }
done
stamp "unpacked: $(du -sh "$B" | cut -f1)"
cat "$B/VERSIONS.txt" 2>/dev/null | head -8

# 2. Vulkan / EGL / GLX loaders (Dawn dlopens libvulkan.so.1; NVIDIA's libGLX_nvidia needs libGLdispatch and X11 client libraries).
SYS=$B/sys
mkdir -p "$SYS/root" "$SYS/lib"
debx() { # dpkg -x, or the same with python when dpkg is missing
  dpkg -x "$1" "$2" 2>/dev/null || python3 - "$1" "$2" <<'PY'
import io, sys, tarfile
with open(sys.argv[1], 'rb') as f:
    assert f.read(8) == b'!<arch>\n'
    while True:
        h = f.read(60)
        if len(h) < 60: break
        name, size = h[:16].decode().strip().rstrip('/'), int(h[48:58].decode().strip())
        data = f.read(size); f.read(size % 2)
        if name.startswith('data.tar'): tarfile.open(fileobj=io.BytesIO(data)).extractall(sys.argv[2])
PY
}
if [ "${VGB_DEBS_TO_ROOT:-0}" = 1 ]; then
  for f in "$B"/debs/*.deb; do debx "$f" /; done
  ldconfig 2>/dev/null
  stamp "debs extracted into /"
else
  for f in "$B"/debs/*.deb; do debx "$f" "$SYS/root" || echo "cannot extract $f"; done
  have=$(ldconfig -p 2>/dev/null)
  for l in "$SYS"/root/usr/lib/x86_64-linux-gnu/lib*.so.[0-9]; do
    [ -e "$l" ] || continue
    n=$(basename "$l")
    if printf '%s\n' "$have" | grep -q "^[[:space:]]*$n (.*x86-64"; then echo "system has $n"; else cp -L "$l" "$SYS/lib/$n" && echo "providing $n"; fi
  done
fi
NV=/usr/local/nvidia
export LD_LIBRARY_PATH="$SYS/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for d in $NV/lib64 $NV/lib; do
  [ -d "$d" ] && case ":$LD_LIBRARY_PATH:" in *":$d:"*) ;; *) LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$d" ;; esac
done
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
# The driver's files, for the bench's probe (it tries the system's ICDs first, then these named).
first() { for f in "$@"; do [ -f "$f" ] && { echo "$f"; return; }; done; }
ICD=$(first $NV/share/vulkan/icd.d/nvidia_icd*.json /usr/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json)
EGL=$(first $NV/share/glvnd/egl_vendor.d/*nvidia*.json /usr/share/glvnd/egl_vendor.d/*nvidia*.json /etc/glvnd/egl_vendor.d/*nvidia*.json)
[ -n "$ICD" ] && export BENCH_NVIDIA_ICD=${BENCH_NVIDIA_ICD:-$ICD}
[ -n "$EGL" ] && export BENCH_NVIDIA_EGL=${BENCH_NVIDIA_EGL:-$EGL}
stamp "LD_LIBRARY_PATH=$LD_LIBRARY_PATH; NVIDIA ICD: ${ICD:-none}; EGL vendor file: ${EGL:-none}"

# What the bench will meet.
{
  echo "glibc: $(ldd --version 2>&1 | head -1)"
  echo "os: $(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-?}")"
  for f in /usr/share/vulkan/icd.d/* /etc/vulkan/icd.d/* $NV/share/vulkan/icd.d/* /usr/share/glvnd/egl_vendor.d/* $NV/share/glvnd/egl_vendor.d/*; do
    [ -e "$f" ] && echo "$f: $(tr -d '\n ' <"$f" | cut -c1-300)"
  done
  ls $NV/lib64 2>/dev/null | grep -E 'GLX_nvidia|EGL_nvidia|vulkan|GLdispatch|nvidia-gl' | tr '\n' ' '; echo
  (command -v nvidia-smi >/dev/null && nvidia-smi -L) || ($NV/bin/nvidia-smi -L 2>/dev/null) || echo "no nvidia-smi"
  echo "node: $("$B/node" --version 2>&1)"
  echo "ldd dawn.node:"; ldd "$B/app/webgpu/dist/linux-x64/dawn.node" 2>&1 | sed 's/^/  /'
  for lib in $(ldconfig -p 2>/dev/null | awk '/libstdc\+\+\.so\.6 .*x86-64/ {print $NF; exit}'); do
    grep -qa GLIBCXX_3.4.30 "$lib" && echo "libstdc++ $lib has GLIBCXX_3.4.30" || echo "WARNING: $lib lacks GLIBCXX_3.4.30 (dawn.node needs GCC >= 12's libstdc++)"
  done
  for g in $NV/lib64/libGLX_nvidia.so.0 $NV/lib64/libEGL_nvidia.so.0; do
    [ -e "$g" ] && { echo "ldd $g:"; ldd "$g" 2>&1 | grep -E 'not found|GLdispatch|X11|Xext' | sed 's/^/  /'; }
  done
} 2>&1

# 3. The bench, within what is left of RUN_TIMEOUT_S.
limit=$(($(left) - 5))
[ "$limit" -gt 30 ] || { stamp "only $((limit + 5)) s left of ${LIMIT} s: not starting the bench"; exit 2; }
budget=$((limit - 30))
[ "$budget" -gt 360 ] && budget=360
export BENCH_BUDGET_S=${BENCH_BUDGET_S:-$budget}
stamp "running the bench (timeout ${limit} s, budget ${BENCH_BUDGET_S} s)"
cd "$B/app" || exit 2
mkdir -p "$WORK" && rm -f "$WORK"/group-*.json # fixtures from an earlier run are kept and reused
OUT="$OUT" BENCH_WORK="$WORK" timeout -k 5 "$limit" "$B/node" bench.mjs &
PID=$!
wait "$PID"
rc=$?
PID=
stamp "bench exit $rc"
exit "$rc"
