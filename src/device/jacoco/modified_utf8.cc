#include "device/jacoco/modified_utf8.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/utf8.h"

namespace roam::device::jacoco {

namespace {

// One UTF-16 code unit as writeUTF writes it: 1, 2 or 3 bytes.
void AppendUnit(std::string& out, uint16_t unit) {
  if (unit >= 0x01 && unit <= 0x7F) {
    out += static_cast<char>(unit);
  } else if (unit < 0x800) {  // U+0000 too: C0 80
    out += static_cast<char>(0xC0 | (unit >> 6));
    out += static_cast<char>(0x80 | (unit & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (unit >> 12));
    out += static_cast<char>(0x80 | ((unit >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (unit & 0x3F));
  }
}

bool IsHigh(uint16_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool IsLow(uint16_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

}  // namespace

bool EncodeModifiedUtf8(std::string_view text, std::string& out) {
  std::string valid;
  if (!IsValidUtf8(text)) {
    valid = ToValidUtf8(text);
    text = valid;
  }
  out.clear();
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const auto b = [&](size_t k) -> uint32_t { return static_cast<uint8_t>(text[i + k]); };
    uint32_t cp;
    size_t len;
    if (b(0) < 0x80) {
      cp = b(0), len = 1;
    } else if (b(0) < 0xE0) {
      cp = ((b(0) & 0x1F) << 6) | (b(1) & 0x3F), len = 2;
    } else if (b(0) < 0xF0) {
      cp = ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F), len = 3;
    } else {
      cp = ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
      len = 4;
    }
    if (cp < 0x10000) {
      AppendUnit(out, static_cast<uint16_t>(cp));
    } else {
      cp -= 0x10000;
      AppendUnit(out, static_cast<uint16_t>(0xD800 | (cp >> 10)));
      AppendUnit(out, static_cast<uint16_t>(0xDC00 | (cp & 0x3FF)));
    }
    i += len;
  }
  return out.size() <= kMaxModifiedUtf8Bytes;
}

std::string EncodeModifiedUtf8(std::string_view text) {
  std::string out;
  if (EncodeModifiedUtf8(text, out)) return out;
  size_t cut = kMaxModifiedUtf8Bytes;  // back to the first byte of a character
  while (cut > 0 && (static_cast<uint8_t>(out[cut]) & 0xC0) == 0x80) --cut;
  out.resize(cut);
  return out;
}

size_t ModifiedUtf8RewrittenSize(std::string_view bytes) {
  return bytes.size() + static_cast<size_t>(std::count(bytes.begin(), bytes.end(), '\0'));
}

bool IsModifiedUtf8(std::string_view bytes, size_t* bad_at) {
  size_t i = 0;
  const auto fail = [&](size_t at) {
    if (bad_at != nullptr) *bad_at = at;
    return false;
  };
  const auto cont = [&](size_t k) { return (static_cast<uint8_t>(bytes[k]) & 0xC0) == 0x80; };
  while (i < bytes.size()) {
    const uint8_t top = static_cast<uint8_t>(bytes[i]) >> 4;
    if (top <= 7) {
      i += 1;
    } else if (top == 12 || top == 13) {
      if (i + 2 > bytes.size()) return fail(i);
      if (!cont(i + 1)) return fail(i + 1);
      i += 2;
    } else if (top == 14) {
      if (i + 3 > bytes.size()) return fail(i);
      if (!cont(i + 1)) return fail(i + 1);
      if (!cont(i + 2)) return fail(i + 2);
      i += 3;
    } else {
      return fail(i);
    }
  }
  return true;
}

std::optional<std::string> DecodeModifiedUtf8(std::string_view bytes, size_t* bad_at) {
  // As DataInputStream.readUTF: the top bits of each first byte say the length.
  std::vector<uint16_t> units;
  units.reserve(bytes.size());
  size_t i = 0;
  const auto fail = [&](size_t at) {
    if (bad_at != nullptr) *bad_at = at;
    return std::nullopt;
  };
  while (i < bytes.size()) {
    const auto b = [&](size_t k) -> uint16_t { return static_cast<uint8_t>(bytes[i + k]); };
    const uint16_t top = b(0) >> 4;
    if (top <= 7) {
      units.push_back(b(0));
      i += 1;
    } else if (top == 12 || top == 13) {
      if (i + 2 > bytes.size()) return fail(i);
      if ((b(1) & 0xC0) != 0x80) return fail(i + 1);
      units.push_back(static_cast<uint16_t>(((b(0) & 0x1F) << 6) | (b(1) & 0x3F)));
      i += 2;
    } else if (top == 14) {
      if (i + 3 > bytes.size()) return fail(i);
      if ((b(1) & 0xC0) != 0x80) return fail(i + 1);
      if ((b(2) & 0xC0) != 0x80) return fail(i + 2);
      units.push_back(
          static_cast<uint16_t>(((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F)));
      i += 3;
    } else {  // 10xx xxxx (a continuation byte first), 1111 xxxx
      return fail(i);
    }
  }
  std::string out;
  out.reserve(units.size());
  for (size_t k = 0; k < units.size(); ++k) {
    uint16_t u = units[k];
    if (IsHigh(u) && k + 1 < units.size() && IsLow(units[k + 1])) {
      AppendUtf8(out, 0x10000 + ((uint32_t{u} - 0xD800) << 10) + (units[k + 1] - 0xDC00));
      ++k;
    } else if (IsHigh(u) || IsLow(u)) {
      AppendUtf8(out, 0xFFFD);
    } else {
      AppendUtf8(out, u);
    }
  }
  return out;
}

}  // namespace roam::device::jacoco
