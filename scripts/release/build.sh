#!/usr/bin/env bash
# Builds a release archive of the `tsume` binary for one target:
#   scripts/release/build.sh [TARGET]      (default: the host's target)
# writes dist/tsume-<version>-<target>.tar.gz (.zip for Windows) with the binary, the
# READMEs, the rules document, the changelog and the licences, and checks the archived
# binary by running it when it runs here (the host target).
#
# Other targets need their Rust standard library (`rustup target add TARGET`) and a linker:
# x86_64-pc-windows-gnu builds on Linux with Debian's gcc-mingw-w64-x86-64; macOS targets
# build on macOS. .github/workflows/release.yml builds Linux, Windows and macOS with this
# script on each platform's own runner.
set -euo pipefail
cd "$(dirname "$0")/../.."
py=$(command -v python3 || command -v python)
# A lean binary: no debug info (the release profile keeps it for profiling), symbols stripped.
export CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=true
host=$(rustc -vV | sed -n 's/^host: //p')
target=${1:-$host}
version=$(cargo metadata --no-deps --format-version 1 |
  "$py" -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "tsume"))')
name="tsume-$version-$target"
cargo build --release --locked --bin tsume --target "$target"
exe=tsume
case "$target" in *windows*) exe=tsume.exe ;; esac
bin="target/$target/release/$exe"
stage="dist/$name"
rm -rf "$stage"
mkdir -p "$stage"
cp "$bin" README.md README.ja.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE "$stage/"
cp docs/rules.md "$stage/rules.md"
case "$target" in
  *windows*) (cd dist && rm -f "$name.zip" && "$py" -m zipfile -c "$name.zip" "$name") ; archive="dist/$name.zip" ;;
  *) tar -C dist -czf "dist/$name.tar.gz" "$name" ; archive="dist/$name.tar.gz" ;;
esac
if [ "$target" = "$host" ]; then
  # The archived binary answers: its version, and a mate in 3 from the README.
  "$stage/$exe" --version | grep -qx "tsume $version"
  "$stage/$exe" solve "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1" --json |
    "$py" -c 'import json,sys; d=json.load(sys.stdin); assert d["status"] == "mate", d'
fi
echo "$archive"
