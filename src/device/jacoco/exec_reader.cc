#include "device/jacoco/exec_reader.h"

#include <fmt/format.h>

#include "device/jacoco/modified_utf8.h"

namespace roam::device::jacoco {

namespace {

enum class Step { kDone, kNeedMore, kError };

#define ROAM_STEP(expr)                     \
  do {                                      \
    Step _step = (expr);                    \
    if (_step != Step::kDone) return _step; \
  } while (0)

// Reads the body of one block (after its type byte) from the front of `buf`, whose first byte is
// at stream offset `base`, as ExecutionDataReader, RemoteControlReader and CompactDataInput read
// it. When `final` is false a block cut short asks for more bytes; when true it is an error.
class BlockParser {
 public:
  BlockParser(std::string_view buf, size_t base, bool final)
      : buf_(buf), base_(base), final_(final) {}

  size_t used() const { return pos_; }
  Status& error() { return error_; }

  Step Header() {
    ROAM_STEP(Need(4, "the magic number and format version"));
    uint16_t magic = U16();
    if (magic != kMagic) {
      return Fail(Status::InvalidArgument(
          fmt::format("byte {}: magic number 0x{:04x}, expected 0x{:04x}: not JaCoCo exec data",
                      At(-2), magic, kMagic)));
    }
    uint16_t version = U16();
    if (version != kFormatVersion) {
      return Fail(Status::Unsupported(
          fmt::format("byte {}: exec format version 0x{:04x}; this reader reads 0x{:04x} "
                      "(JaCoCo 0.7.5 and later; the file comes from another JaCoCo release)",
                      At(-2), version, kFormatVersion)));
    }
    return Step::kDone;
  }

  Step Session(SessionInfo& out) {
    ROAM_STEP(Utf(out.id, "the session id"));
    ROAM_STEP(Need(16, "the session's start and dump times"));
    out.start_ms = static_cast<int64_t>(U64());
    out.dump_ms = static_cast<int64_t>(U64());
    return Step::kDone;
  }

  Step Class(ClassData& out) {
    ROAM_STEP(Need(8, "the class id"));
    out.id = U64();
    ROAM_STEP(Utf(out.name, "the class name"));
    uint32_t count = 0;
    size_t count_at = At(0);
    ROAM_STEP(VarInt(count, "the probe count of class " + out.name));
    if (count > kMaxProbesPerClass) {
      return Fail(Status::Corruption(
          fmt::format("byte {}: class {} claims {} probes; more than {} is taken for corrupt data",
                      count_at, out.name, count, kMaxProbesPerClass)));
    }
    ROAM_STEP(Need((size_t{count} + 7) / 8, "the probes of class " + out.name));
    out.probes.resize(count);
    uint8_t buffer = 0;
    for (uint32_t i = 0; i < count; ++i) {  // CompactDataInput.readBooleanArray
      if (i % 8 == 0) buffer = U8();
      out.probes[i] = (buffer & 0x01) != 0;
      buffer >>= 1;
    }
    return Step::kDone;
  }

  Step Bool(bool& out, std::string_view what) {
    ROAM_STEP(Need(1, what));
    out = U8() != 0;
    return Step::kDone;
  }

 private:
  size_t At(int delta) const { return base_ + pos_ + delta; }
  Step Fail(Status s) {
    error_ = std::move(s);
    return Step::kError;
  }
  Step Need(size_t n, std::string_view what) {
    size_t left = buf_.size() - pos_;
    if (left >= n) return Step::kDone;
    if (!final_) return Step::kNeedMore;
    return Fail(
        Status::Corruption(fmt::format("byte {}: the data ends in {}: {} byte{} expected, {} left",
                                       At(0), what, n, n == 1 ? "" : "s", left)));
  }
  uint8_t U8() { return static_cast<uint8_t>(buf_[pos_++]); }
  uint16_t U16() {
    uint16_t hi = U8();
    return static_cast<uint16_t>((hi << 8) | U8());
  }
  uint64_t U64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | U8();
    return v;
  }
  Step Utf(std::string& out, const std::string& what) {  // DataInput.readUTF
    ROAM_STEP(Need(2, "the length of " + what));
    size_t n = U16();
    ROAM_STEP(Need(n, what));
    size_t bad = 0;
    std::optional<std::string> text = DecodeModifiedUtf8(buf_.substr(pos_, n), &bad);
    if (!text) {
      return Fail(
          Status::Corruption(fmt::format("byte {}: {} is not modified UTF-8 (byte 0x{:02x})",
                                         At(bad), what, static_cast<uint8_t>(buf_[pos_ + bad]))));
    }
    pos_ += n;
    out = std::move(*text);
    return Step::kDone;
  }
  // CompactDataInput.readVarInt. Java reads on for as long as the continuation bit says (the
  // value wraps past 32 bits); five bytes hold any int, so a sixth is refused.
  Step VarInt(uint32_t& out, const std::string& what) {
    uint64_t value = 0;
    for (int i = 0; i < 5; ++i) {
      ROAM_STEP(Need(1, what));
      uint8_t b = U8();
      value |= uint64_t{b & 0x7Fu} << (7 * i);
      if ((b & 0x80) == 0) {
        if (value > 0x7FFFFFFF) break;  // Java: a negative array size
        out = static_cast<uint32_t>(value);
        return Step::kDone;
      }
    }
    return Fail(Status::Corruption(
        fmt::format("byte {}: {} is not a var-int of a non-negative int", At(0), what)));
  }

  std::string_view buf_;
  size_t base_;
  bool final_;
  size_t pos_ = 0;
  Status error_;
};

}  // namespace

Status ExecReader::ReadBlocks(bool final) {
  size_t pos = 0;
  Status status;
  while (pos < pending_.size() && !(answered_ && stop_at_cmd_ok_)) {
    const size_t at = offset_ + pos;
    const uint8_t type = static_cast<uint8_t>(pending_[pos]);
    if (!header_seen_ && type != kBlockHeader) {
      status = Status::InvalidArgument(
          fmt::format("byte {}: block type 0x{:02x}, expected the header block 0x01 that starts "
                      "JaCoCo exec data",
                      at, type));
      break;
    }
    BlockParser p(std::string_view(pending_).substr(pos + 1), at + 1, final);
    Step step = Step::kDone;
    if (type == kBlockHeader) {
      step = p.Header();
      header_seen_ = header_seen_ || step == Step::kDone;
    } else if (type == kBlockSessionInfo) {
      SessionInfo info;
      step = p.Session(info);
      if (step == Step::kDone) data_.sessions.push_back(std::move(info));
    } else if (type == kBlockExecutionData) {
      ClassData cls;
      step = p.Class(cls);
      if (step == Step::kDone) {
        Status added = AddClass(data_, std::move(cls));
        if (!added.ok()) {
          p.error() = Status::Corruption(fmt::format("byte {}: {}", at, added.message()));
          step = Step::kError;
        }
      }
    } else if (type == kBlockCmdOk) {
      ++cmd_ok_count_;
      answered_ = true;
    } else if (type == kBlockCmdDump) {
      status = Status::InvalidArgument(
          fmt::format("byte {}: a dump command block (0x40), which a client sends the agent; "
                      "expected execution data",
                      at));
      break;
    } else {
      status = Status::Corruption(
          fmt::format("byte {}: unknown block type 0x{:02x} (JaCoCo's are 0x01 header, 0x10 "
                      "session info, 0x11 class, 0x20 command ok)",
                      at, type));
      break;
    }
    if (step == Step::kNeedMore) break;
    if (step == Step::kError) {
      status = p.error();
      break;
    }
    pos += 1 + p.used();
  }
  pending_.erase(0, pos);
  offset_ += pos;
  if (!status.ok()) error_ = status;
  return status;
}

Status ExecReader::Feed(std::string_view bytes) {
  if (!error_.ok()) return error_;
  pending_.append(bytes);
  return ReadBlocks(false);
}

Status ExecReader::Finish() {
  if (!error_.ok()) return error_;
  if (offset_ == 0 && pending_.empty()) {
    error_ = Status::InvalidArgument("byte 0: no bytes; expected the header block 0x01");
    return error_;
  }
  if (answered_ && stop_at_cmd_ok_) return Status::Ok();
  return ReadBlocks(true);
}

ExecData ExecReader::TakeAnswer() {
  ExecData out = std::move(data_);
  data_ = ExecData();
  answered_ = false;
  return out;
}

Result<ExecData> ParseExec(std::string_view bytes, int* cmd_ok_count) {
  ExecReader reader(/*stop_at_cmd_ok=*/false);
  ROAM_RETURN_IF_ERROR(reader.Feed(bytes));
  ROAM_RETURN_IF_ERROR(reader.Finish());
  if (cmd_ok_count != nullptr) *cmd_ok_count = reader.cmd_ok_count();
  return reader.TakeAnswer();
}

}  // namespace roam::device::jacoco
