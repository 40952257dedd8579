// exec_reader: reads JaCoCo exec data (the format is described in exec_data.h) from a whole file
// (ParseExec) or as it arrives on the agent's TCP server, an answer at a time (ExecReader), into
// an ExecStore (exec_store.h): a file of tiny classes takes about twice its size. Every length is
// checked against the bytes there before anything is allocated. ParseExec keeps no state
// (thread-safe); one thread uses an ExecReader at a time.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/status.h"
#include "device/jacoco/exec_data.h"
#include "device/jacoco/exec_store.h"

namespace roam::device::jacoco {

// Reads blocks as they arrive, in any chunks. Errors name the byte offset in the stream and what
// was expected there: a foreign start is InvalidArgument, another format version Unsupported,
// anything malformed Corruption. An error is final: later calls return it again.
class ExecReader {
 public:
  // stop_at_cmd_ok: reading stops after a command-ok block (one answer on a socket: see
  // answered() and TakeAnswer()). Otherwise command-ok blocks are counted and reading goes on.
  explicit ExecReader(bool stop_at_cmd_ok = true) : stop_at_cmd_ok_(stop_at_cmd_ok) {}
  // Reads into `into` (borrowed; it outlives the reader) instead of a store of its own: merging
  // a file into others as it is read (`roam coverage merge`), with no second copy of it.
  ExecReader(bool stop_at_cmd_ok, ExecStore& into)
      : stop_at_cmd_ok_(stop_at_cmd_ok), into_(&into) {}
  ExecReader(const ExecReader&) = delete;
  ExecReader& operator=(const ExecReader&) = delete;

  // Reads every whole block in what has come so far; a block cut short waits for more bytes (only
  // its bytes are kept). Once answered(), bytes are kept for the next answer but not read.
  Status Feed(std::string_view bytes);
  // The end of the stream: a block cut short is an error (Corruption, located), and so is a
  // stream with no bytes at all (JaCoCo reads that as empty; Roam never writes one).
  Status Finish();

  bool answered() const { return answered_; }  // a command-ok block ended the answer
  int cmd_ok_count() const { return cmd_ok_count_; }
  size_t offset() const { return offset_; }  // stream bytes read as whole blocks
  // Some of an answer has come (a block, or bytes of one) but not its command-ok block. Headers
  // do not count: the agent sends one as a client connects.
  bool mid_answer() const {
    return (!pending_.empty() && pending_[0] != static_cast<char>(kBlockHeader)) ||
           into_->size() > 0 || !into_->sessions().empty();
  }
  const ExecStore& store() const { return *into_; }
  ExecData data() const { return into_->ToExecData(); }
  // The data read so far; clears it and answered(). Feed (an empty string will do) reads on from
  // where the last answer ended.
  ExecStore TakeStore();
  ExecData TakeAnswer() { return TakeStore().ToExecData(); }

 private:
  // Reads the whole blocks at the front of `buf` (stream offset offset_); returns how many bytes.
  size_t ReadBlocks(std::string_view buf, bool final, Status& status);

  bool stop_at_cmd_ok_;
  std::string pending_;  // bytes not yet read as a whole block
  size_t offset_ = 0;    // the stream offset of pending_[0]
  bool header_seen_ = false;
  bool answered_ = false;
  int cmd_ok_count_ = 0;
  Status error_;
  ExecStore store_;
  ExecStore* into_ = &store_;  // where blocks go
};

// A whole exec file, or a captured stream of TCP answers (command-ok blocks are then allowed
// anywhere; *cmd_ok_count, when given, says how many there were). Classes repeated in the
// stream are merged as JaCoCo's ExecFileLoader merges them (AddClass).
Result<ExecStore> ParseExecStore(std::string_view bytes, int* cmd_ok_count = nullptr);
// The same as an ExecData (a map of classes: for an app's own data, not millions of classes).
Result<ExecData> ParseExec(std::string_view bytes, int* cmd_ok_count = nullptr);

// An exec file streamed through an ExecReader a megabyte at a time into `into` (merged as
// JaCoCo's ExecFileLoader merges): the store is all it holds. Errors name the file; only a
// regular file is read (ReadFile's rule).
Status ReadExecFile(const std::filesystem::path& path, ExecStore& into);

}  // namespace roam::device::jacoco
