// JaCoCo exec data as a device's agent sends it: parsed whole, and fed to the socket reader in
// two pieces (the first byte says where to split), which must agree. What parses must survive
// WriteExec and a second parse unchanged (less the classes without a hit, which JaCoCo's writer
// leaves out too), and merging it into itself must be allowed and change nothing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "device/jacoco/exec_data.h"
#include "device/jacoco/exec_reader.h"

namespace jacoco = roam::device::jacoco;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  size_t cut = bytes.empty() ? 0 : data[0] % (bytes.size() + 1);
  (void)jacoco::ParseDumpCommand(bytes);

  auto whole = jacoco::ParseExec(bytes);
  jacoco::ExecReader reader(/*stop_at_cmd_ok=*/false);
  roam::Status s = reader.Feed(bytes.substr(0, cut));
  if (s.ok()) s = reader.Feed(bytes.substr(cut));
  if (s.ok()) s = reader.Finish();
  if (s.ok() != whole.ok()) std::abort();
  if (!whole.ok()) return 0;
  if (!(reader.data() == *whole)) std::abort();

  jacoco::ExecData expected = *whole;
  std::erase_if(expected.classes, [](const auto& entry) { return !entry.second.HasHits(); });
  for (const auto& [id, cls] : expected.classes) {
    if (cls.name.size() > 30000) return 0;  // NULs double in size: may pass writeUTF's limit
  }
  for (const auto& session : expected.sessions) {
    if (session.id.size() > 30000) return 0;
  }
  auto again = jacoco::ParseExec(jacoco::WriteExec(*whole));
  if (!again.ok() || !(*again == expected)) std::abort();

  jacoco::ExecData twice = *whole;
  if (!jacoco::Merge(twice, *whole).ok()) std::abort();
  if (twice.classes != whole->classes) std::abort();
  return 0;
}
