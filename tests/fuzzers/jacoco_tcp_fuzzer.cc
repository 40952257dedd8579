// What a JaCoCo agent answers over TCP, read as TcpDumper reads it: in pieces (the first byte
// seeds their sizes), one answer at a time (ExecReader stopping at each command ok, TakeStore,
// Feed on), the answers merged as the dumps merge unasked ones. Whatever the bytes, nothing
// crashes; when the whole stream parses, the answers merged are exactly what it holds, and
// writing them back parses to the same.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "device/jacoco/exec_reader.h"
#include "device/jacoco/exec_store.h"

namespace jacoco = roam::device::jacoco;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  uint32_t rng = data[0] * 2654435761u + 1;

  jacoco::ExecReader reader(/*stop_at_cmd_ok=*/true);
  jacoco::ExecStore merged;
  roam::Status s;
  bool mid_seen = false;
  for (size_t at = 0; at <= bytes.size() && s.ok();) {
    rng = rng * 1103515245u + 12345u;
    const size_t piece = std::min<size_t>(bytes.size() - at, 1 + (rng >> 16) % 64);
    s = reader.Feed(bytes.substr(at, piece));
    at += piece;
    while (s.ok() && reader.answered()) {
      s = merged.Merge(reader.TakeStore());
      if (s.ok()) s = reader.Feed({});
    }
    mid_seen = mid_seen || reader.mid_answer();
    if (piece == 0) break;
  }
  if (s.ok()) s = reader.Finish();
  if (s.ok()) s = merged.Merge(reader.TakeStore());

  auto whole = jacoco::ParseExecStore(bytes);
  if (!whole.ok() || !s.ok()) return 0;
  if (!(merged == *whole)) std::abort();
  std::string again = jacoco::ExecHeader();
  whole->AppendBlocks(again);
  auto back = jacoco::ParseExecStore(again);
  if (!back.ok()) std::abort();
  if (back->sessions() != whole->sessions()) std::abort();
  for (size_t i = 0; i < back->size(); ++i) {  // classes without a hit are left out
    auto c = back->at(i);
    auto w = whole->Find(c.id);
    if (!w || w->name != c.name || w->packed != c.packed) std::abort();
  }
  return 0;
}
