// Java's "modified UTF-8" (DataOutput.writeUTF / DataInput.readUTF), the string encoding of
// JaCoCo's exec data: UTF-16 code units, U+0000 as C0 80, a supplementary character as two
// 3-byte surrogates, a 2-byte big-endian byte count in front. Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace roam::device::jacoco {

// writeUTF's limit: the 2-byte length counts bytes, not characters.
constexpr size_t kMaxModifiedUtf8Bytes = 65535;

// The bytes (without the length) of `text` (UTF-8; ill-formed bytes become U+FFFD), all of them
// in `out`; false when they are more than kMaxModifiedUtf8Bytes (writeUTF throws then). A class
// name cannot be that long (the class file's constant pool has the same limit): AddClass, the
// store and the readers refuse such names, so what they hold is always written whole.
bool EncodeModifiedUtf8(std::string_view text, std::string& out);
// The same, returned; text past the limit is cut at the last whole character, a last guard for
// data put together by hand (ExecData filled without AddClass).
std::string EncodeModifiedUtf8(std::string_view text);
// The bytes modified UTF-8 of what `bytes` decodes to takes when written back: more than
// bytes.size() only for raw 0x00 bytes (readUTF takes them; writeUTF writes C0 80). `bytes` must
// pass DecodeModifiedUtf8.
size_t ModifiedUtf8RewrittenSize(std::string_view bytes);

// Decodes what readUTF accepts (it does not reject overlong forms, nor do we) into UTF-8; a
// surrogate without its pair becomes U+FFFD. nullopt when readUTF would throw
// UTFDataFormatException; *bad_at is then the offset of the malformed byte within `bytes`.
std::optional<std::string> DecodeModifiedUtf8(std::string_view bytes, size_t* bad_at);
// Whether DecodeModifiedUtf8 would take `bytes` (*bad_at as there), without decoding them.
bool IsModifiedUtf8(std::string_view bytes, size_t* bad_at);

}  // namespace roam::device::jacoco
