// A device's logcat stream, fed in two pieces (the first byte says where to split), as the
// Android driver reads it.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "device/android/logcat.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  size_t cut = text.empty() ? 0 : data[0] % (text.size() + 1);
  roam::device::android::LogcatParser parser({.package = "org.app"});
  std::vector<roam::device::Event> events;
  parser.Feed(text.substr(0, cut), events);
  parser.Feed(text.substr(cut), events);
  parser.Finish(events);
  (void)roam::device::android::ParseLogcat(text);
  return 0;
}
