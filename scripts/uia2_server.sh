#!/bin/sh
# Appium's UiAutomator2 server, the on-device agent of `--driver uia2`, as the Android world ships
# it: the npm package appium-uiautomator2-server (Apache-2.0), pinned by version and checked
# against the registry's sha512 integrity before its two APKs are unpacked. Fetched with the
# ordinary npm client (Debian's `npm`) into BUILD_DIR/uia2/apks; cached: nothing is fetched
# again while the pinned APKs are there.
#
#   scripts/uia2_server.sh [BUILD_DIR]     (setup.sh runs it; roam finds BUILD_DIR/uia2/apks)
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
VERSION=10.6.6
# The registry's integrity (sha512-Ae7mB19O...InE1Wg==), as the hex sha512sum prints.
SHA512=01eee6075f4e70b904062fd4febf5e2a70a60891d5e6235fdbf1d8607b2db8fee25860935e3d565df202fbeedf05f1967526550e859cea724ef268992271355a
OUT="$BUILD/uia2"
SERVER="$OUT/apks/appium-uiautomator2-server-v$VERSION.apk"
TEST="$OUT/apks/appium-uiautomator2-server-debug-androidTest.apk"
[ -f "$SERVER" ] && [ -f "$TEST" ] && exit 0

rm -rf "$OUT/tmp"
mkdir -p "$OUT/tmp"
(cd "$OUT/tmp" && npm pack --silent "appium-uiautomator2-server@$VERSION" >/dev/null)
tarball="$OUT/tmp/appium-uiautomator2-server-$VERSION.tgz"
got=$(sha512sum "$tarball" | cut -d' ' -f1)
if [ "$got" != "$SHA512" ]; then
  echo "uia2_server.sh: $tarball has sha512 $got, expected the pinned $SHA512" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$OUT/tmp" package/apks package/package.json
rm -rf "$OUT/apks"
mv "$OUT/tmp/package/apks" "$OUT/apks"
mv "$OUT/tmp/package/package.json" "$OUT/package.json"
rm -rf "$OUT/tmp"
echo "uia2_server.sh: appium-uiautomator2-server $VERSION in $OUT/apks"
