// net/stored_tensors: a check of the network library's weights archive before the library reads
// it. libtorch's archive is a zip whose entries ARCHIVE/data/N hold the raw bytes of one tensor
// each; libtorch trusts the sizes its pickle claims, so an entry emptied or cut short gave heap
// corruption instead of an error. This reads only the zip's directories (no libtorch, so the
// rest of Roam and the fuzz targets can use it) and checks that the stored tensors are exactly
// the sizes the network expects. Header-only and stateless; thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace roam::net {

namespace stored_tensors_internal {

inline uint32_t Le(std::string_view b, size_t at, int bytes) {
  uint32_t v = 0;
  for (int k = bytes - 1; k >= 0; --k) v = v << 8 | static_cast<uint8_t>(b[at + k]);
  return v;
}

// "ARCHIVE/data/N": a tensor's bytes.
inline bool IsTensorEntry(std::string_view name) {
  const size_t slash = name.rfind("/data/");
  if (slash == std::string_view::npos || slash + 6 == name.size()) return false;
  return std::all_of(name.begin() + slash + 6, name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace stored_tensors_internal

// "" when `archive` is a zip whose tensor entries are stored (not compressed), lie inside the
// archive, and have exactly the byte sizes in `expected` (in any order); otherwise what is wrong.
inline std::string CheckStoredTensors(std::string_view archive, std::vector<uint64_t> expected) {
  using stored_tensors_internal::IsTensorEntry;
  using stored_tensors_internal::Le;
  constexpr size_t kEnd = 22, kCentral = 46, kLocal = 30;
  if (archive.size() < kEnd) return "the weights are not an archive (too short)";
  // The end-of-directory record: its signature within the last 64 KiB + 22 bytes (a comment).
  size_t end = std::string_view::npos;
  const size_t lowest = archive.size() > kEnd + 0xFFFF ? archive.size() - kEnd - 0xFFFF : 0;
  for (size_t at = archive.size() - kEnd + 1; at-- > lowest;)
    if (Le(archive, at, 4) == 0x06054b50) {
      end = at;
      break;
    }
  if (end == std::string_view::npos) return "the weights are not an archive (no zip directory)";
  const uint32_t entries = Le(archive, end + 10, 2);
  const uint64_t dir_size = Le(archive, end + 12, 4), dir_at = Le(archive, end + 16, 4);
  if (dir_at + dir_size > end) return "the archive's directory lies outside it";
  std::vector<uint64_t> found;
  size_t at = dir_at;
  for (uint32_t k = 0; k < entries; ++k) {
    if (at + kCentral > dir_at + dir_size || Le(archive, at, 4) != 0x02014b50)
      return "the archive's directory is damaged at entry " + std::to_string(k);
    const uint32_t method = Le(archive, at + 10, 2);
    const uint64_t packed = Le(archive, at + 20, 4), size = Le(archive, at + 24, 4);
    const size_t name_len = Le(archive, at + 28, 2), extra = Le(archive, at + 30, 2),
                 comment = Le(archive, at + 32, 2);
    const uint64_t local = Le(archive, at + 42, 4);
    if (at + kCentral + name_len > dir_at + dir_size)
      return "the archive's directory is damaged at entry " + std::to_string(k);
    const std::string name(archive.substr(at + kCentral, name_len));
    at += kCentral + name_len + extra + comment;
    if (local + kLocal > dir_at || Le(archive, local, 4) != 0x04034b50)
      return "the archive's entry " + name + " has no header where the directory says";
    const uint64_t data = local + kLocal + Le(archive, local + 26, 2) + Le(archive, local + 28, 2);
    if (data + packed > dir_at) return "the archive's entry " + name + " runs past its end";
    if (!IsTensorEntry(name)) continue;
    if (method != 0 || packed != size)
      return "the archive's tensor " + name + " is compressed; the library stores tensors plain";
    found.push_back(size);
  }
  std::sort(found.begin(), found.end());
  std::sort(expected.begin(), expected.end());
  if (found != expected)
    return "the archive's " + std::to_string(found.size()) +
           " tensors are not of the sizes of the " + std::to_string(expected.size()) +
           " the network holds (an entry emptied, cut short or from another network)";
  return "";
}

}  // namespace roam::net
