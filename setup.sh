#!/usr/bin/env bash
# Installs what Roam needs from Debian's packages and builds it into build/.
# Usage: ./setup.sh [--no-fuzz]   (as root, or with sudo available)
#   --no-fuzz: skip the fuzz targets' build (build/fuzz), which only Roam's own tests use: a CI
#              job that runs Roam on an app does not need it (docs/ci.md).
set -euo pipefail
cd "$(dirname "$0")"
FUZZ=1
for arg in "$@"; do
  case $arg in
    --no-fuzz) FUZZ=0 ;;
    *) echo "setup.sh: unknown option $arg (--no-fuzz skips the fuzz targets' build)" >&2; exit 2 ;;
  esac
done

PACKAGES=(
  g++ cmake ninja-build   # compiler and build
  libpugixml-dev          # uiautomator dump XML
  nlohmann-json3-dev      # app specs, traces, summaries
  libcli11-dev            # command line
  libfmt-dev              # formatting
  libgtest-dev libgmock-dev  # tests
  libbenchmark-dev        # bench/ speed figures
  adb                     # tests drive `roam sim serve` with Debian's real adb client
  clang libclang-rt-dev   # the fuzz targets: libFuzzer, AddressSanitizer, UBSan
  clang-format            # CTest checks every C++ file against .clang-format
  libxml2-utils           # xmllint: tests validate --junit files against tests/report/junit.xsd
  libcairo2-dev libpng-dev pkg-config fonts-dejavu-core  # drawing screens as PNG
  libgraphviz-dev         # report.html's activity transition graph, laid out by dot
  chromium-headless-shell # tests open report.html in a real browser, headless
  libcurl4-openssl-dev    # llm/: the OpenAI-compatible chat-completions client (VisionDroid)
  libtorch-dev            # net/: DinoDroid's deep Q-network (--strategy dqn, roam train)
  libopenblas0-pthread    # the BLAS libtorch's matrix work goes to (by the alternatives
                          # system): a dqn decision 1.3-2.4x faster than the reference BLAS
  libgoogle-perftools-dev # tcmalloc, roam's allocator: dqn training 1.3x faster than glibc's
  fasttext wordnet-base   # scripts/word_vectors.sh: word vectors for the dqn's text feature
  android-framework-res aapt  # ... and Android's own English strings among their corpus
  default-jdk-headless libjacoco-java  # tests/device/jacoco_real_test: JaCoCo's own agent and
                          # readers check Roam's exec data (device/jacoco) both ways
  zlib1g-dev              # device/android/apk.cc: the manifest inside an APK is deflated
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# scripts/uia2_server.sh fetches Appium's UiAutomator2 server APKs (--driver uia2) with npm.
# Debian's npm only where no npm is on the PATH: a Node.js from elsewhere (NodeSource's
# nodejs) brings its own and conflicts with Debian's package.
command -v npm >/dev/null 2>&1 || missing+=(npm)
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
scripts/word_vectors.sh build  # build/wordvec/vectors.vec (cached)
scripts/uia2_server.sh build   # build/uia2/apks: the pinned npm package's APKs (cached)
# The fuzz targets, a build of their own with clang and the sanitizers (tests/fuzzers/README.md).
if [ "$FUZZ" = 1 ]; then
  cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DROAM_FUZZERS=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build build/fuzz -j "$(nproc)"
fi
