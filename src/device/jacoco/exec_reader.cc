#include "device/jacoco/exec_reader.h"

#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "base/files.h"
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
    std::string_view id;
    ROAM_STEP(Utf(id, "the session id"));
    out.id = *DecodeModifiedUtf8(id, nullptr);
    ROAM_STEP(Need(16, "the session's start and dump times"));
    out.start_ms = static_cast<int64_t>(U64());
    out.dump_ms = static_cast<int64_t>(U64());
    return Step::kDone;
  }

  // One class, as views into the buffer: its name (modified UTF-8, as it came) and its probes
  // packed 8 to a byte.
  struct Class {
    uint64_t id = 0;
    std::string_view name;
    uint32_t count = 0;
    std::string_view packed;
  };
  Step ReadClass(Class& out) {
    ROAM_STEP(Need(8, "the class id"));
    out.id = U64();
    ROAM_STEP(Utf(out.name, "the class name"));
    uint32_t count = 0;
    size_t count_at = At(0);
    ROAM_STEP(VarInt(count, "the probe count of class " + Shown(out.name)));
    if (count > kMaxProbesPerClass) {
      return Fail(Status::Corruption(
          fmt::format("byte {}: class {} claims {} probes; more than {} is taken for corrupt data",
                      count_at, Shown(out.name), count, kMaxProbesPerClass)));
    }
    const size_t bytes = (size_t{count} + 7) / 8;  // CompactDataInput.readBooleanArray
    ROAM_STEP(Need(bytes, "the probes of class " + Shown(out.name)));
    out.count = count;
    out.packed = buf_.substr(pos_, bytes);
    pos_ += bytes;
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
  static std::string Shown(std::string_view modified) {
    return ShownName(*DecodeModifiedUtf8(modified, nullptr));
  }
  // DataInput.readUTF: the u16 length is unsigned (up to kMaxModifiedUtf8Bytes). `out` views the
  // bytes, checked to be modified UTF-8 that writeUTF could write back.
  Step Utf(std::string_view& out, const std::string& what) {
    ROAM_STEP(Need(2, "the length of " + what));
    const size_t n = U16();
    ROAM_STEP(Need(n, what));
    size_t bad = 0;
    const std::string_view bytes = buf_.substr(pos_, n);
    if (!IsModifiedUtf8(bytes, &bad)) {
      return Fail(
          Status::Corruption(fmt::format("byte {}: {} is not modified UTF-8 (byte 0x{:02x})",
                                         At(bad), what, static_cast<uint8_t>(buf_[pos_ + bad]))));
    }
    if (const size_t again = ModifiedUtf8RewrittenSize(bytes); again > kMaxModifiedUtf8Bytes) {
      return Fail(Status::Corruption(fmt::format(
          "byte {}: {} ({} bytes) holds {} raw 0x00 bytes, which writeUTF writes as C0 80: {} "
          "bytes, more than the {} it can write back",
          At(-2), what, n, again - n, again, kMaxModifiedUtf8Bytes)));
    }
    out = bytes;
    pos_ += n;
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

size_t ExecReader::ReadBlocks(std::string_view buf, bool final, Status& status) {
  size_t pos = 0;
  while (pos < buf.size() && !(answered_ && stop_at_cmd_ok_)) {
    const size_t at = offset_ + pos;
    const uint8_t type = static_cast<uint8_t>(buf[pos]);
    if (!header_seen_ && type != kBlockHeader) {
      status = Status::InvalidArgument(
          fmt::format("byte {}: block type 0x{:02x}, expected the header block 0x01 that starts "
                      "JaCoCo exec data",
                      at, type));
      break;
    }
    BlockParser p(buf.substr(pos + 1), at + 1, final);
    Step step = Step::kDone;
    if (type == kBlockHeader) {
      step = p.Header();
      header_seen_ = header_seen_ || step == Step::kDone;
    } else if (type == kBlockSessionInfo) {
      SessionInfo info;
      step = p.Session(info);
      if (step == Step::kDone) into_->AddSession(std::move(info));
    } else if (type == kBlockExecutionData) {
      BlockParser::Class cls;
      step = p.ReadClass(cls);
      if (step == Step::kDone) {
        Status added = into_->Add(cls.id, cls.name, cls.count, cls.packed);
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
  offset_ += pos;
  if (!status.ok()) error_ = status;
  return pos;
}

Status ExecReader::Feed(std::string_view bytes) {
  if (!error_.ok()) return error_;
  Status status;
  if (pending_.empty()) {  // read in place; keep only what is left
    const size_t used = ReadBlocks(bytes, false, status);
    pending_.assign(bytes.substr(used));
  } else {
    pending_.append(bytes);
    pending_.erase(0, ReadBlocks(pending_, false, status));
  }
  if (pending_.capacity() > 2 * pending_.size() + 4096) pending_.shrink_to_fit();
  return status;
}

Status ExecReader::Finish() {
  if (!error_.ok()) return error_;
  if (offset_ == 0 && pending_.empty()) {
    error_ = Status::InvalidArgument("byte 0: no bytes; expected the header block 0x01");
    return error_;
  }
  if (answered_ && stop_at_cmd_ok_) return Status::Ok();
  Status status;
  pending_.erase(0, ReadBlocks(pending_, true, status));
  return status;
}

ExecStore ExecReader::TakeStore() {
  ExecStore out = std::move(*into_);
  into_->Clear();
  answered_ = false;
  return out;
}

Result<ExecStore> ParseExecStore(std::string_view bytes, int* cmd_ok_count) {
  ExecReader reader(/*stop_at_cmd_ok=*/false);
  ROAM_RETURN_IF_ERROR(reader.Feed(bytes));
  ROAM_RETURN_IF_ERROR(reader.Finish());
  if (cmd_ok_count != nullptr) *cmd_ok_count = reader.cmd_ok_count();
  return reader.TakeStore();
}

Result<ExecData> ParseExec(std::string_view bytes, int* cmd_ok_count) {
  Result<ExecStore> store = ParseExecStore(bytes, cmd_ok_count);
  if (!store.ok()) return store.status();
  return store->ToExecData();
}

Status ReadExecFile(const std::filesystem::path& path, ExecStore& into) {
  constexpr size_t kPiece = size_t{1} << 20;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return ReadFile(path).status();  // says what
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Io(path.string() + ": cannot open for reading");
  ExecReader reader(/*stop_at_cmd_ok=*/false, into);
  std::string piece(kPiece, '\0');
  while (in) {
    in.read(piece.data(), static_cast<std::streamsize>(piece.size()));
    const auto got = static_cast<size_t>(in.gcount());
    if (got == 0) break;
    if (Status s = reader.Feed(std::string_view(piece.data(), got)); !s.ok()) {
      return s.Wrap(path.string());
    }
  }
  if (in.bad()) return Status::Io(path.string() + ": a read failed");
  return reader.Finish().Wrap(path.string());
}

}  // namespace roam::device::jacoco
