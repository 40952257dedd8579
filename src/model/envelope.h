// model/envelope: the header every learned-model file of Roam carries (the Fastbot model, the
// DQN model), so a truncated, corrupt or foreign file is refused the same way with its path and
// the fault. Plain functions; thread-safe.
//
//   offset 0   8 bytes  magic (e.g. "ROAMMODL")
//          8   u32      format version
//         12   u32      reserved, 0
//         16   u64      payload length in bytes
//         24   u64      checksum: gui::StableHash of the payload bytes
//         32   payload
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace roam::model {

struct Envelope {
  std::string_view magic;  // exactly 8 bytes
  uint32_t version = 1;
  std::string_view what;  // "Roam model": errors say "not a Roam model file"
};

constexpr size_t kEnvelopeHeaderSize = 32;

std::string Seal(const Envelope& envelope, std::string_view payload);
// The payload, or Corruption naming `source` and the fault.
Result<std::string_view> Unseal(const Envelope& envelope, std::string_view bytes,
                                const std::string& source);

// Little-endian fields, for payload writers and readers.
void PutU32(std::string& out, uint32_t v);
void PutU64(std::string& out, uint64_t v);
uint64_t GetLe(const char* p, int n);

}  // namespace roam::model
