// tcp_client: dumps execution data from a JaCoCo agent running with output=tcpserver (on a phone,
// reached through `adb forward tcp:L tcp:6300`), as JaCoCo's ExecDumpClient does, but keeping the
// connection for the next dump. DumpOverTcp keeps no state (thread-safe); a TcpDumper owns its
// socket and is used by one thread at a time.
//
// The agent serves one connection at a time (another client waits until the first closes). It
// sends its header once when a client connects, then for each dump command: session info, the
// classes with a hit, command ok (exec_data.h). It also sends an answer unasked, command ok and
// all, to the client connected when the VM exits (dumponexit, the default; a JVM's shutdown, not
// an Android app killed) or when the app calls RT.getAgent().dump(). An app restart takes the
// agent's server socket with it: TcpDumper then finds its connection closed and connects again,
// once.
//
// Which answer is the dump's: the agent answers commands in order, one command-ok each, and an
// unasked answer ends in one too, so on the wire they look alike (JaCoCo's own ExecDumpClient
// takes the first command ok after its command, whatever it ends). TcpDumper reads what came
// before it sends the command as unasked: on a fresh connection it first waits up to
// kGreetingWaitMs for the agent's header (which the agent writes as it accepts, before anything
// unasked), and an unasked answer that has begun but not ended when the command goes out is
// let end first: the dump's answer is the command ok after it. Unasked answers are merged into
// the dump's (coverage the agent recorded is never dropped).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "device/android/adb_protocol.h"
#include "device/jacoco/exec_data.h"
#include "device/jacoco/exec_reader.h"
#include "device/jacoco/exec_store.h"

namespace roam::device::jacoco {

// JaCoCo's default port for output=tcpserver (AgentOptions.DEFAULT_PORT).
constexpr int kDefaultAgentPort = 6300;
// A whole dump: connecting when needed, the command, the answer. An agent answers from memory
// in milliseconds; 10 s leaves room for a GC pause and an adb forward over USB.
constexpr int kDefaultDumpTimeoutMs = 10000;
// One answer (header included) beyond this is refused. An app of 20,000 classes of 200 probes
// each answers about 1.2 MB; the cap bounds what a foreign or broken server can make us hold
// (an ExecStore of tiny classes holds about twice the bytes it read).
constexpr size_t kMaxAnswerBytes = size_t{256} << 20;
// On a fresh connection, how long to wait for the agent's header before sending the command (it
// comes within a round trip; a server that says nothing first still gets the command after this).
constexpr int kGreetingWaitMs = 200;

// Connects to host:port, asks for one dump (reset: the agent then zeroes its probes, as
// `jacococli dump --reset` does) and returns the answer, all within timeout_ms. Errors start
// "JaCoCo agent at host:port: " and say what happened: Unavailable when the connection is
// refused, the connect or the answer times out, or the server closes before answering; Io when
// it closes mid-answer; InvalidArgument when the answer is not JaCoCo's (its first bytes are
// quoted); Unsupported for another exec format version; Corruption when it is malformed or
// longer than kMaxAnswerBytes.
Result<ExecData> DumpOverTcp(const std::string& host, int port, bool reset,
                             int timeout_ms = kDefaultDumpTimeoutMs);

class TcpDumper {
 public:
  TcpDumper(std::string host, int port, int timeout_ms = kDefaultDumpTimeoutMs,
            size_t max_answer_bytes = kMaxAnswerBytes);

  // One dump (errors as DumpOverTcp's), on the open connection when there is one. When that
  // connection turns out to be closed (writing fails, or it ends before any byte of the answer),
  // connects again once within the same timeout. Answers the agent sent unasked since the last
  // Dump (a VM's dump on exit) are merged into the answer returned: coverage the old process
  // recorded after the last dump is not lost. After any error the connection is closed (a late
  // answer must not be read as the next one's), so the next Dump connects afresh.
  Result<ExecData> Dump(bool reset);
  // The same, compactly: for answers of any size (`roam coverage dump`).
  Result<ExecStore> DumpStore(bool reset);

  void Close();
  bool connected() const { return socket_.is_open(); }
  // Connections made so far: stays 1 while one connection serves every dump.
  int connects() const { return connects_; }
  const std::string& where() const { return where_; }  // "host:port"

 private:
  Status Connect(int timeout_ms);
  // One command and its answer on the open connection, until `deadline_ms` (steady clock).
  // *nothing_came: the connection failed before any byte of the answer (the reconnect case).
  Result<ExecStore> Exchange(bool reset, int64_t deadline_ms, bool* nothing_came);
  // Reads what came before the command: whole answers the agent sent unasked go to unasked_;
  // *closed when the connection ended. Waits until `greeting_deadline_ms` for a first byte when
  // none has come on this connection.
  Status ReadUnasked(int64_t greeting_deadline_ms, bool* closed);
  // Moves the reader's answer into unasked_.
  Status KeepUnasked();
  // Counts, caps, quotes and reads bytes that came.
  Status Take(std::string_view bytes, size_t& received);
  std::string Prefix() const { return "JaCoCo agent at " + where_ + ": "; }

  std::string host_;
  int port_;
  std::string where_;
  int timeout_ms_;
  size_t max_answer_bytes_;
  android::Socket socket_;
  std::optional<ExecReader> reader_;  // one stream a connection
  std::string first_bytes_;           // the connection's first bytes, quoted in "not JaCoCo"
  ExecStore unasked_;                 // answers sent unasked, for the next Dump to return
  int connects_ = 0;
};

}  // namespace roam::device::jacoco
