#include "model/envelope.h"

#include <cstring>

#include <fmt/format.h>

#include "gui/abstraction.h"

namespace roam::model {

void PutU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>(v >> (8 * i));
}
void PutU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>(v >> (8 * i));
}

uint64_t GetLe(const char* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}

namespace {
uint64_t Checksum(std::string_view payload) { return gui::StableHash().Add(payload).value(); }
}  // namespace

std::string Seal(const Envelope& envelope, std::string_view payload) {
  std::string out(envelope.magic);
  PutU32(out, envelope.version);
  PutU32(out, 0);
  PutU64(out, payload.size());
  PutU64(out, Checksum(payload));
  out += payload;
  return out;
}

Result<std::string_view> Unseal(const Envelope& envelope, std::string_view bytes,
                                const std::string& source) {
  auto fail = [&](const std::string& what) { return Status::Corruption(source + ": " + what); };
  const std::string_view magic = envelope.magic;
  if (bytes.size() < magic.size() || bytes.substr(0, magic.size()) != magic)
    return fail(
        bytes.size() < magic.size() && magic.substr(0, bytes.size()) == bytes
            ? fmt::format("truncated: {} bytes, the header alone is {}", bytes.size(),
                          kEnvelopeHeaderSize)
            : fmt::format("not a {} file (it does not start with \"{}\")", envelope.what, magic));
  if (bytes.size() < kEnvelopeHeaderSize)
    return fail(fmt::format("truncated: {} bytes, the header alone is {}", bytes.size(),
                            kEnvelopeHeaderSize));
  uint32_t version = static_cast<uint32_t>(GetLe(bytes.data() + 8, 4));
  if (version != envelope.version)
    return fail(fmt::format("model format version {}; this Roam reads version {}", version,
                            envelope.version));
  uint64_t length = GetLe(bytes.data() + 16, 8);
  uint64_t checksum = GetLe(bytes.data() + 24, 8);
  std::string_view payload = bytes.substr(kEnvelopeHeaderSize);
  if (payload.size() < length)
    return fail(
        fmt::format("truncated: the header announces {} bytes of payload, the file holds {}",
                    length, payload.size()));
  if (payload.size() > length)
    return fail(fmt::format("corrupt: {} bytes after the {}-byte payload", payload.size() - length,
                            length));
  if (Checksum(payload) != checksum)
    return fail(fmt::format("corrupt: checksum mismatch (stored {}, computed {})",
                            gui::KeyHex(checksum), gui::KeyHex(Checksum(payload))));
  return payload;
}

}  // namespace roam::model
