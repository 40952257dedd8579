#include "device/jacoco/exec_store.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "device/jacoco/modified_utf8.h"

namespace roam::device::jacoco {

namespace {

void PutVarInt(std::string& out, uint32_t v) {
  while (v >= 0x80) {
    out += static_cast<char>(0x80 | (v & 0x7F));
    v >>= 7;
  }
  out += static_cast<char>(v);
}

uint32_t GetVarInt(const char*& p) {
  uint32_t v = 0;
  for (int shift = 0;; shift += 7) {
    const auto b = static_cast<uint8_t>(*p++);
    v |= uint32_t{b & 0x7Fu} << shift;
    if (b < 0x80) return v;
  }
}

void PutBig(std::string& out, uint64_t v, int bytes) {
  for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
    out += static_cast<char>((v >> shift) & 0xFF);
  }
}

std::string Utf8Of(std::string_view modified) {
  std::optional<std::string> text = DecodeModifiedUtf8(modified, nullptr);
  return text ? *std::move(text) : std::string(modified);
}

// JaCoCo compares names as Java strings: bytes that differ may still decode alike.
bool SameName(std::string_view a, std::string_view b) { return a == b || Utf8Of(a) == Utf8Of(b); }

Status Compatible(const ClassView& have, std::string_view name, uint32_t probe_count) {
  if (!SameName(have.name, name)) {
    return Status::InvalidArgument(fmt::format("Different class names {} and {} for id {:016x}.",
                                               ShownName(have.Name()), ShownName(Utf8Of(name)),
                                               have.id));
  }
  if (have.probe_count != probe_count) {
    return Status::InvalidArgument(
        fmt::format("Incompatible execution data for class {} with id {:016x}.",
                    ShownName(Utf8Of(name)), have.id));
  }
  return Status::Ok();
}

constexpr uint64_t kHashMultiplier = 0x9E3779B97F4A7C15;  // Fibonacci hashing

}  // namespace

size_t ClassView::CoveredCount() const {
  size_t n = 0;
  for (char c : packed) n += static_cast<size_t>(std::popcount(static_cast<uint8_t>(c)));
  return n;  // the store keeps the bits past the last probe zero
}

std::string ClassView::Name() const { return Utf8Of(name); }

size_t ExecStore::Slot(uint64_t id) const {
  const size_t mask = slots_.size() - 1;
  size_t i = static_cast<size_t>((id * kHashMultiplier) >> 32) & mask;
  while (slots_[i] != 0 && entries_[slots_[i] - 1].id != id) i = (i + 1) & mask;
  return i;
}

void ExecStore::Grow() {
  std::vector<uint32_t> old;
  old.swap(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, 0);
  for (uint32_t e : old) {
    if (e != 0) slots_[Slot(entries_[e - 1].id)] = e;
  }
}

ClassView ExecStore::at(size_t i) const {
  ClassView v;
  v.id = entries_[i].id;
  const char* p = arena_.data() + entries_[i].at;
  const uint32_t name_size = GetVarInt(p);
  v.name = std::string_view(p, name_size);
  p += name_size;
  v.probe_count = GetVarInt(p);
  v.packed = std::string_view(p, (size_t{v.probe_count} + 7) / 8);
  return v;
}

std::optional<ClassView> ExecStore::Find(uint64_t id) const {
  if (slots_.empty()) return std::nullopt;
  const uint32_t e = slots_[Slot(id)];
  if (e == 0) return std::nullopt;
  return at(e - 1);
}

Status ExecStore::Add(uint64_t id, std::string_view name, uint32_t probe_count,
                      std::string_view packed) {
  if (std::optional<ClassView> have = Find(id)) {
    ROAM_RETURN_IF_ERROR(Compatible(*have, name, probe_count));
    char* bits = arena_.data() + (have->packed.data() - arena_.data());
    for (size_t i = 0; i < have->packed.size(); ++i) bits[i] |= packed[i];
    if (probe_count % 8 != 0) bits[have->packed.size() - 1] &= (1 << (probe_count % 8)) - 1;
    return Status::Ok();
  }
  if (entries_.size() >= UINT32_MAX - 1) {
    return Status::InvalidArgument(fmt::format("more than {} classes", UINT32_MAX - 2));
  }
  if ((entries_.size() + 1) * 4 > slots_.size() * 3) Grow();
  const size_t at = arena_.size();
  PutVarInt(arena_, static_cast<uint32_t>(name.size()));
  arena_.append(name);
  PutVarInt(arena_, probe_count);
  arena_.append(packed.substr(0, (size_t{probe_count} + 7) / 8));
  if (probe_count % 8 != 0) arena_.back() &= static_cast<char>((1 << (probe_count % 8)) - 1);
  entries_.push_back({id, at});
  slots_[Slot(id)] = static_cast<uint32_t>(entries_.size());
  return Status::Ok();
}

Status ExecStore::Add(const ClassData& cls) {
  std::string name;
  if (!EncodeModifiedUtf8(cls.name, name)) {
    return Status::InvalidArgument(
        fmt::format("class {} (id {:016x}): its name takes {} bytes of modified UTF-8; "
                    "writeUTF writes at most {}",
                    ShownName(cls.name), cls.id, name.size(), kMaxModifiedUtf8Bytes));
  }
  std::string packed((cls.probes.size() + 7) / 8, '\0');
  for (size_t i = 0; i < cls.probes.size(); ++i) {
    if (cls.probes[i]) packed[i / 8] = static_cast<char>(packed[i / 8] | (1 << (i % 8)));
  }
  return Add(cls.id, name, static_cast<uint32_t>(cls.probes.size()), packed);
}

Status ExecStore::Merge(const ExecStore& other) {
  for (size_t i = 0; i < other.size(); ++i) {  // check all first: all or nothing
    const ClassView theirs = other.at(i);
    if (std::optional<ClassView> have = Find(theirs.id)) {
      ROAM_RETURN_IF_ERROR(Compatible(*have, theirs.name, theirs.probe_count));
    }
  }
  for (size_t i = 0; i < other.size(); ++i) {
    const ClassView theirs = other.at(i);
    ROAM_RETURN_IF_ERROR(Add(theirs.id, theirs.name, theirs.probe_count, theirs.packed));
  }
  sessions_.insert(sessions_.end(), other.sessions_.begin(), other.sessions_.end());
  return Status::Ok();
}

void ExecStore::Clear() { *this = ExecStore(); }

std::vector<uint32_t> ExecStore::ByIdOrder() const {
  std::vector<uint32_t> order(entries_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return entries_[a].id < entries_[b].id; });
  return order;
}

size_t ExecStore::ProbeCount() const {
  size_t n = 0;
  for (size_t i = 0; i < size(); ++i) n += at(i).probe_count;
  return n;
}

size_t ExecStore::CoveredCount() const {
  size_t n = 0;
  for (size_t i = 0; i < size(); ++i) n += at(i).CoveredCount();
  return n;
}

void ExecStore::KeepLatestSessions() {
  for (size_t i = sessions_.size(); i-- > 0;)
    for (size_t j = 0; j < i; ++j)
      if (sessions_[j].id == sessions_[i].id) {
        sessions_[j] = sessions_[i];
        sessions_.erase(sessions_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
}

void ExecStore::AppendBlocks(std::string& out) const {
  for (const SessionInfo& s : sessions_) {
    out += static_cast<char>(kBlockSessionInfo);
    std::string id;
    EncodeModifiedUtf8(s.id, id);  // a session id read is at most the limit; one made is short
    PutBig(out, id.size(), 2);
    out += id;
    PutBig(out, static_cast<uint64_t>(s.start_ms), 8);
    PutBig(out, static_cast<uint64_t>(s.dump_ms), 8);
  }
  const std::vector<uint32_t> order = ByIdOrder();
  size_t bytes = out.size();  // reserved once: doubling a big string would hold it twice
  for (uint32_t i : order) {
    const ClassView c = at(i);
    bytes += 1 + 8 + 2 + c.name.size() + 5 + c.packed.size();
  }
  out.reserve(bytes);
  for (uint32_t i : order) {
    const ClassView c = at(i);
    if (c.CoveredCount() == 0) continue;  // as ExecutionDataWriter.visitClassExecution
    out += static_cast<char>(kBlockExecutionData);
    PutBig(out, c.id, 8);
    PutBig(out, c.name.size(), 2);
    out += c.name;
    PutVarInt(out, c.probe_count);
    out += c.packed;
  }
}

ExecData ExecStore::ToExecData() const {
  ExecData out;
  out.sessions = sessions_;
  for (size_t i = 0; i < size(); ++i) {
    const ClassView c = at(i);
    ClassData cls{.id = c.id, .name = c.Name(), .probes = std::vector<bool>(c.probe_count)};
    for (uint32_t p = 0; p < c.probe_count; ++p) cls.probes[p] = c.probe(p);
    out.classes.emplace(c.id, std::move(cls));
  }
  return out;
}

Result<ExecStore> ExecStore::From(const ExecData& data) {
  ExecStore out;
  for (const auto& [id, cls] : data.classes) ROAM_RETURN_IF_ERROR(out.Add(cls));
  out.sessions_ = data.sessions;
  return out;
}

bool ExecStore::operator==(const ExecStore& other) const {
  if (sessions_ != other.sessions_ || size() != other.size()) return false;
  for (size_t i = 0; i < size(); ++i) {
    const ClassView a = at(i);
    std::optional<ClassView> b = other.Find(a.id);
    if (!b || a.name != b->name || a.probe_count != b->probe_count || a.packed != b->packed) {
      return false;
    }
  }
  return true;
}

}  // namespace roam::device::jacoco
