// exec_store: JaCoCo execution data (exec_data.h) held compactly, for data of any size. A class
// is its id and one record in a byte arena: its name as it came (modified UTF-8, so it is written
// back byte for byte), its probe count and its probes packed 8 to a byte as on the wire; an
// open-addressing index finds it by id. That is about 30 bytes a class besides its name and
// probes, against about 150 for ExecData's map of ClassData: the reader (exec_reader.h), the TCP
// client and `roam coverage` work on this; ExecData is the convenient form for an app's own data.
// One thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "device/jacoco/exec_data.h"

namespace roam::device::jacoco {

// One class of an ExecStore: views into the store, valid until the store next changes.
struct ClassView {
  uint64_t id = 0;
  std::string_view name;  // modified UTF-8, as written (Name() decodes it)
  uint32_t probe_count = 0;
  std::string_view packed;  // (probe_count + 7) / 8 bytes: probe i is bit i % 8 of byte i / 8
  bool probe(uint32_t i) const { return (static_cast<uint8_t>(packed[i / 8]) >> (i % 8)) & 1; }
  size_t CoveredCount() const;
  std::string Name() const;  // as UTF-8
};

class ExecStore {
 public:
  // Adds a class as it is on the wire (`name` modified UTF-8 of at most kMaxModifiedUtf8Bytes,
  // `packed` (probe_count + 7) / 8 bytes; bits past the last probe are ignored). A class of the
  // same id is ORed into, or refused (the store unchanged) as AddClass (exec_data.h) refuses it.
  Status Add(uint64_t id, std::string_view name, uint32_t probe_count, std::string_view packed);
  // The same from a ClassData; its name is refused (InvalidArgument) when it takes more than
  // kMaxModifiedUtf8Bytes of modified UTF-8: writeUTF could not write it.
  Status Add(const ClassData& cls);
  void AddSession(SessionInfo s) { sessions_.push_back(std::move(s)); }
  // One session per id, the one added last in the place of the first (a process's info, dumped
  // again and again, kept once as it was last).
  void KeepLatestSessions();
  // Every class and session of `other`, as Add. All or nothing.
  Status Merge(const ExecStore& other);
  void Clear();

  const std::vector<SessionInfo>& sessions() const { return sessions_; }
  size_t size() const { return entries_.size(); }  // classes
  ClassView at(size_t i) const;                    // in the order first added
  std::optional<ClassView> Find(uint64_t id) const;
  std::vector<uint32_t> ByIdOrder() const;  // indexes for at(), by unsigned id
  size_t ProbeCount() const;
  size_t CoveredCount() const;

  // WriteExecBlocks (exec_data.h) of this data, appended to `out`: sessions, then classes by id
  // (those without a hit left out), each name as it came.
  void AppendBlocks(std::string& out) const;
  ExecData ToExecData() const;
  static Result<ExecStore> From(const ExecData& data);

  bool operator==(const ExecStore& other) const;  // the same sessions, and classes by id

 private:
  struct Entry {
    uint64_t id;
    uint64_t at;  // of its record in arena_
  };
  size_t Slot(uint64_t id) const;  // where `id` is in slots_, or the empty slot it would take
  void Grow();

  std::vector<SessionInfo> sessions_;
  std::deque<Entry> entries_;    // a deque: growing copies nothing (a vector's doubling would)
  std::string arena_;            // records: var-int name length, name, var-int count, probes
  std::vector<uint32_t> slots_;  // entry index + 1; 0 is empty. A power of two long.
};

}  // namespace roam::device::jacoco
