// apk: what Roam reads from an Android package without the Android tools: the manifest's package
// name, versionCode, versionName, instrumentation and activities with their intent filters, from
// the APK's zip (the central directory,
// then AndroidManifest.xml stored or deflated, inflated with zlib) and the binary XML (AXML:
// string pool, start-element chunks, typed attribute values) that aapt writes. The uia2 driver
// reads the version of the server it would install; `roam sim serve` reads what `pm install`
// is given. Plain functions: thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "gui/intent.h"

namespace roam::device::android {

struct ApkManifest {
  std::string package;        // <manifest package="...">
  int64_t version_code = -1;  // android:versionCode; -1 when absent
  std::string version_name;   // android:versionName; "" when absent
  // The first <instrumentation>: android:name (the runner) and android:targetPackage.
  std::string instrumentation_runner;
  std::string instrumentation_target;
  // Every <activity> and <activity-alias>, in the manifest's order: its class (fully qualified),
  // android:exported (when absent: whether it has an intent filter, Android's rule before 12), and
  // its intent filters' actions, categories and data (scheme; host with port; path, pathPrefix,
  // pathPattern, pathSuffix as prefixes: FilterPathPrefix). A filter with a mimeType is left
  // out (`am start` without -t matches none); values that are resource references are unknown
  // here and left out.
  std::vector<gui::DeclaredActivity> activities;
};

// Corruption naming the part and the byte offset when the bytes are not a zip with a binary
// AndroidManifest.xml ("APK: no AndroidManifest.xml in the zip's central directory").
Result<ApkManifest> ReadApkManifest(std::string_view apk);

// The same from AndroidManifest.xml's own bytes (binary XML).
Result<ApkManifest> ReadBinaryManifest(std::string_view axml);

}  // namespace roam::device::android
