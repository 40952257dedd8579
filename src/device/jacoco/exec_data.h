// exec_data: JaCoCo's execution data ("exec"/".ec" files, and the same blocks on the agent's TCP
// server), read and written byte for byte as JaCoCo 0.7.5 and later do (ExecutionDataWriter and
// -Reader, CompactDataOutput and -Input, RemoteControlWriter and -Reader; format 0x1007). This
// file: the values, merging, and the writers; exec_reader.h reads. Values own their data; the
// free functions keep no state (thread-safe).
//
// Every number is big-endian (java.io.DataOutput). A stream is a sequence of blocks:
//   0x01 header        u16 magic 0xC0C0, u16 format version 0x1007. First, and again wherever
//                      a writer started anew (the agent's append=true adds one per JVM run).
//   0x10 session info  utf id, i64 start and i64 dump time (ms since 1970).
//   0x11 class         u64 class id (a CRC64 of the class file), utf name ("com/x/Main"),
//                      var-int probe count (7 bits a byte, low bits first, 0x80 = more follow),
//                      then the probes packed 8 to a byte, the least significant bit first.
//   0x20 command ok    (agent -> client) the answer to a command is complete.
//   0x40 dump command  (client -> agent, after a header) bool dump, bool reset.
// utf = u16 byte count + Java's modified UTF-8 (modified_utf8.h).
// Over TCP (agent option output=tcpserver) the client sends header + dump command; the agent
// sends a header once a connection, then for each command: session info, classes, command ok.
// JaCoCo writes only the classes with at least one probe hit (ExecutionDataWriter skips the rest).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace roam::device::jacoco {

constexpr uint8_t kBlockHeader = 0x01;
constexpr uint8_t kBlockSessionInfo = 0x10;
constexpr uint8_t kBlockExecutionData = 0x11;
constexpr uint8_t kBlockCmdOk = 0x20;
constexpr uint8_t kBlockCmdDump = 0x40;
constexpr uint16_t kMagic = 0xC0C0;
constexpr uint16_t kFormatVersion = 0x1007;  // since JaCoCo 0.7.5 (2015); 0x1006 before
// Probes a class may claim. JaCoCo has no limit (it allocates what the var-int says, up to
// 2^31); real classes have at most a few thousand. Beyond this a count is refused as corrupt
// before anything is allocated.
constexpr uint32_t kMaxProbesPerClass = uint32_t{1} << 24;

struct SessionInfo {
  std::string id;        // the agent's sessionid option, or "<host>-<random hex>"
  int64_t start_ms = 0;  // when the agent started (or was last reset)
  int64_t dump_ms = 0;   // when this data was collected
  bool operator==(const SessionInfo&) const = default;
};

struct ClassData {
  uint64_t id = 0;           // CRC64 of the class file's bytes
  std::string name;          // VM name: "org/roam/Main$1"
  std::vector<bool> probes;  // true: executed
  size_t CoveredCount() const;
  bool HasHits() const { return CoveredCount() > 0; }
  bool operator==(const ClassData&) const = default;
};

struct ExecData {
  std::vector<SessionInfo> sessions;      // in the order read
  std::map<uint64_t, ClassData> classes;  // by class id
  size_t ProbeCount() const;              // over every class
  size_t CoveredCount() const;
  bool operator==(const ExecData&) const = default;
};

// Adds `cls`, or ORs its probes into the class of the same id. Refused (InvalidArgument, `into`
// unchanged) as JaCoCo's ExecutionData.assertCompatibility refuses it: another name for the
// id ("Different class names a and b for id 00000000000000ff.") or another probe count
// ("Incompatible execution data for class a with id 00000000000000ff."); and, as writeUTF would
// refuse it, a name of more than kMaxModifiedUtf8Bytes of modified UTF-8.
Status AddClass(ExecData& into, ClassData cls);
// Every class of `other` as AddClass; its sessions are appended. All or nothing: on a refusal
// `into` is unchanged.
Status Merge(ExecData& into, const ExecData& other);

// A class or session name as a terminal or an error message may show it: control characters
// (C0, DEL, C1) escaped as \xNN, and past kShownNameChars characters cut, with the whole size
// said: "org/x/AAAA... (65535 bytes)". JSON output keeps names exact instead.
constexpr size_t kShownNameChars = 200;
std::string ShownName(std::string_view utf8);

// The 5-byte header block.
std::string ExecHeader();
// Session infos then classes (by id; those without a hit left out, as JaCoCo does), no header:
// what the agent sends for the second and later dumps on one connection.
std::string WriteExecBlocks(const ExecData& data);
// ExecHeader() + WriteExecBlocks(): an exec file as ExecutionDataWriter writes it.
std::string WriteExec(const ExecData& data);
// What RemoteControlWriter sends to ask the agent for a dump: header + 0x40 + dump + reset.
std::string DumpCommand(bool dump, bool reset);
// The command-ok block (one byte), for a server double that answers a dump.
std::string CmdOk();

struct DumpRequest {
  bool dump = true;
  bool reset = false;
};
// Reads what DumpCommand() writes (exactly 8 bytes; any non-zero byte is true, as readBoolean).
Result<DumpRequest> ParseDumpCommand(std::string_view bytes);

}  // namespace roam::device::jacoco
