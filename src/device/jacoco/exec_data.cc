#include "device/jacoco/exec_data.h"

#include <algorithm>

#include <fmt/format.h>

#include "device/jacoco/modified_utf8.h"

namespace roam::device::jacoco {

namespace {

void PutU16(std::string& out, uint16_t v) {
  out += static_cast<char>(v >> 8);
  out += static_cast<char>(v & 0xFF);
}

void PutU64(std::string& out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xFF);
}

void PutUtf(std::string& out, std::string_view text) {  // DataOutput.writeUTF
  std::string bytes = EncodeModifiedUtf8(text);
  PutU16(out, static_cast<uint16_t>(bytes.size()));
  out += bytes;
}

void PutVarInt(std::string& out, uint32_t v) {  // CompactDataOutput.writeVarInt
  while ((v & ~uint32_t{0x7F}) != 0) {
    out += static_cast<char>(0x80 | (v & 0x7F));
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void PutProbes(std::string& out, const std::vector<bool>& probes) {  // writeBooleanArray
  PutVarInt(out, static_cast<uint32_t>(probes.size()));
  uint8_t buffer = 0;
  int used = 0;
  for (bool p : probes) {
    if (p) buffer |= static_cast<uint8_t>(1 << used);
    if (++used == 8) {
      out += static_cast<char>(buffer);
      buffer = 0;
      used = 0;
    }
  }
  if (used > 0) out += static_cast<char>(buffer);
}

// ExecutionData.assertCompatibility, its messages word for word.
Status Compatible(const ClassData& have, const ClassData& other) {
  if (have.name != other.name) {
    return Status::InvalidArgument(fmt::format("Different class names {} and {} for id {:016x}.",
                                               ShownName(have.name), ShownName(other.name),
                                               other.id));
  }
  if (have.probes.size() != other.probes.size()) {
    return Status::InvalidArgument(
        fmt::format("Incompatible execution data for class {} with id {:016x}.",
                    ShownName(other.name), other.id));
  }
  return Status::Ok();
}

void OrInto(ClassData& have, const ClassData& other) {
  for (size_t i = 0; i < have.probes.size(); ++i) {
    if (other.probes[i]) have.probes[i] = true;
  }
}

}  // namespace

std::string ShownName(std::string_view text) {
  std::string out;
  size_t chars = 0, i = 0;
  for (; i < text.size() && chars < kShownNameChars; ++chars) {
    const auto b = static_cast<uint8_t>(text[i]);
    const bool c1 = b == 0xC2 && i + 1 < text.size() && static_cast<uint8_t>(text[i + 1]) < 0xA0;
    if (b < 0x20 || b == 0x7F) {
      out += fmt::format("\\x{:02x}", b);
      i += 1;
    } else if (c1) {  // U+0080..U+009F: CSI and the other C1 controls
      out += fmt::format("\\x{:02x}", static_cast<uint8_t>(text[i + 1]));
      i += 2;
    } else {
      size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
      len = std::min(len, text.size() - i);
      out.append(text.substr(i, len));
      i += len;
    }
  }
  if (i < text.size()) out += fmt::format("... ({} bytes)", text.size());
  return out;
}

size_t ClassData::CoveredCount() const {
  size_t n = 0;
  for (bool p : probes) n += p ? 1 : 0;
  return n;
}

size_t ExecData::ProbeCount() const {
  size_t n = 0;
  for (const auto& [id, cls] : classes) n += cls.probes.size();
  return n;
}

size_t ExecData::CoveredCount() const {
  size_t n = 0;
  for (const auto& [id, cls] : classes) n += cls.CoveredCount();
  return n;
}

Status AddClass(ExecData& into, ClassData cls) {
  if (std::string bytes; !EncodeModifiedUtf8(cls.name, bytes)) {
    return Status::InvalidArgument(
        fmt::format("class {} (id {:016x}): its name takes {} bytes of modified UTF-8; "
                    "writeUTF writes at most {}",
                    ShownName(cls.name), cls.id, bytes.size(), kMaxModifiedUtf8Bytes));
  }
  auto it = into.classes.find(cls.id);
  if (it == into.classes.end()) {
    uint64_t id = cls.id;
    into.classes.emplace(id, std::move(cls));
    return Status::Ok();
  }
  ROAM_RETURN_IF_ERROR(Compatible(it->second, cls));
  OrInto(it->second, cls);
  return Status::Ok();
}

Status Merge(ExecData& into, const ExecData& other) {
  for (const auto& [id, cls] : other.classes) {  // check all first: all or nothing
    auto it = into.classes.find(id);
    if (it != into.classes.end()) ROAM_RETURN_IF_ERROR(Compatible(it->second, cls));
  }
  for (const auto& [id, cls] : other.classes) {
    auto it = into.classes.find(id);
    if (it == into.classes.end()) {
      into.classes.emplace(id, cls);
    } else {
      OrInto(it->second, cls);
    }
  }
  into.sessions.insert(into.sessions.end(), other.sessions.begin(), other.sessions.end());
  return Status::Ok();
}

std::string ExecHeader() {
  std::string out;
  out += static_cast<char>(kBlockHeader);
  PutU16(out, kMagic);
  PutU16(out, kFormatVersion);
  return out;
}

std::string WriteExecBlocks(const ExecData& data) {
  std::string out;
  for (const SessionInfo& s : data.sessions) {
    out += static_cast<char>(kBlockSessionInfo);
    PutUtf(out, s.id);
    PutU64(out, static_cast<uint64_t>(s.start_ms));
    PutU64(out, static_cast<uint64_t>(s.dump_ms));
  }
  for (const auto& [id, cls] : data.classes) {
    if (!cls.HasHits()) continue;  // as ExecutionDataWriter.visitClassExecution
    out += static_cast<char>(kBlockExecutionData);
    PutU64(out, cls.id);
    PutUtf(out, cls.name);
    PutProbes(out, cls.probes);
  }
  return out;
}

std::string WriteExec(const ExecData& data) { return ExecHeader() + WriteExecBlocks(data); }

std::string DumpCommand(bool dump, bool reset) {
  std::string out = ExecHeader();
  out += static_cast<char>(kBlockCmdDump);
  out += static_cast<char>(dump ? 1 : 0);  // DataOutput.writeBoolean
  out += static_cast<char>(reset ? 1 : 0);
  return out;
}

std::string CmdOk() { return std::string(1, static_cast<char>(kBlockCmdOk)); }

Result<DumpRequest> ParseDumpCommand(std::string_view bytes) {
  const std::string header = ExecHeader();
  if (bytes.size() != header.size() + 3) {
    return Status::InvalidArgument(
        fmt::format("dump command: {} bytes, expected {} (header + 0x40 + two booleans)",
                    bytes.size(), header.size() + 3));
  }
  if (bytes.substr(0, header.size()) != header) {
    return Status::InvalidArgument(
        "dump command: bytes 0-4 are not the header 01 C0 C0 10 07 of exec format 0x1007");
  }
  uint8_t type = static_cast<uint8_t>(bytes[header.size()]);
  if (type != kBlockCmdDump) {
    return Status::InvalidArgument(fmt::format(
        "dump command: byte {}: block type 0x{:02x}, expected 0x40", header.size(), type));
  }
  return DumpRequest{.dump = bytes[header.size() + 1] != 0, .reset = bytes[header.size() + 2] != 0};
}

}  // namespace roam::device::jacoco
