// adb_protocol: every detail of the adb wire protocol, in one place, for both sides (the
// AndroidDevice client and `roam sim serve`):
//   * Socket / Listener: blocking TCP with timeouts; errors name the peer and the operation.
//   * smart-socket framing: a request is 4 hex digits of length + the service name; the reply is
//     "OKAY" or "FAIL" + 4 hex digits + message; host queries then send a length-prefixed payload,
//     device services (shell:, exec:, sync:) stream raw bytes until one side closes.
//   * the sync: protocol (8-byte headers: 4-char id + little-endian u32) for STAT/RECV/SEND.
//   * shell v2 packets (1-byte id + little-endian u32 length + data).
//   * the service names as constants and builders.
// A typical client exchange: Connect -> Request(s, TransportService(serial)) ->
// Request(s, ShellService("wm size")) -> ReadToEnd(s). See RunDeviceService().
// Socket and Listener are move-only owners of one file descriptor; one thread uses a Socket at a
// time (Listener::Close and Socket::Shutdown may be called from another thread to wake it).
// Free functions keep no state: thread-safe.
// What Debian's adb 29.0.6 client sends (observed): "host:version" (then it waits for the server
// to close), "host:devices-l", "host-serial:SER:features" (shell_v2 in the answer switches it to
// "shell,v2,raw:..."), "host:tport:serial:SER" (OKAY + 8-byte transport id), then "shell:CMD"
// (`adb shell a b` joins args with spaces, unescaped), `adb logcat -d` ->
// "shell:export ANDROID_LOG_TAGS=\"''\"; exec logcat '-d'", `adb pull` -> "sync:" + STAT/RECV,
// `adb kill-server` -> "host:kill". `adb emu` bypasses the server (emulator console port).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace roam::device::android {

constexpr std::string_view kLoopback = "127.0.0.1";
constexpr int kDefaultAdbServerPort = 5037;  // the real adb server
constexpr int kDefaultSimServePort = 5038;   // `roam sim serve`: never collides with the above
constexpr int kDefaultTimeoutMs = 10000;     // connect/read/write timeout unless told otherwise
constexpr int kAdbServerVersion = 41;        // host:version answers "0029" (adb 29.x, 30.x...)

// ---------------------------------------------------------------------------------------------
// TCP
class Socket {
 public:
  Socket() = default;
  Socket(int fd, std::string peer);  // takes ownership of fd
  ~Socket();
  Socket(Socket&& other) noexcept;
  Socket& operator=(Socket&& other) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  // Connects to host:port (numeric address or name) within timeout_ms; the socket then has
  // read and write timeouts of timeout_ms (0: none). TCP_NODELAY is set.
  static Result<Socket> Connect(const std::string& host, int port,
                                int timeout_ms = kDefaultTimeoutMs);

  bool is_open() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  const std::string& peer() const { return peer_; }  // "127.0.0.1:5037"

  // Read/write timeouts (SO_RCVTIMEO/SO_SNDTIMEO); 0 means block forever.
  Status SetTimeout(int timeout_ms);
  Status WriteAll(std::string_view data);
  // Exactly n bytes; EOF before that is an Io error ("... closed after k of n bytes").
  Result<std::string> ReadExact(size_t n);
  Status ReadExactInto(char* buf, size_t n);
  // Up to max bytes; 0 means the peer closed. A timeout is Unavailable ("... timed out").
  Result<size_t> ReadSome(char* buf, size_t max);
  // Everything until the peer closes (bounded by max_bytes, Io error beyond).
  Result<std::string> ReadToEnd(size_t max_bytes = size_t{1} << 30);
  // Waits up to timeout_ms for readable data (or EOF): true if readable.
  bool WaitReadable(int timeout_ms);
  // shutdown(SHUT_WR): tells the peer we are done sending; reads still work.
  void ShutdownWrite();
  // shutdown(SHUT_RDWR) without closing: wakes a thread blocked in a read. Thread-safe.
  void Shutdown();
  void Close();

 private:
  Status Error(const char* op, int err) const;
  int fd_ = -1;
  std::string peer_;
};

class Listener {
 public:
  Listener() = default;
  ~Listener();
  Listener(Listener&& other) noexcept;
  Listener& operator=(Listener&& other) noexcept;
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // Listens on host:port (port 0: an ephemeral port; see port()). SO_REUSEADDR is set.
  static Result<Listener> Listen(const std::string& host, int port, int backlog = 64);
  int port() const { return port_; }
  bool is_open() const { return fd_ >= 0; }
  // Waits up to timeout_ms (-1: forever) for a connection. Unavailable on timeout, Aborted
  // once closed; also when the process is out of file descriptors (the pending
  // connection is then closed, so a caller that loops does not spin).
  Result<Socket> Accept(int timeout_ms, int socket_timeout_ms = kDefaultTimeoutMs);
  void Close();

 private:
  static constexpr int kRefuseBackoffMs = 100;
  Status RefuseOne();  // out of descriptors
  int fd_ = -1;
  int spare_fd_ = -1;  // /dev/null, held so that a connection can be refused without a descriptor
  int port_ = 0;
  std::string host_;
};

// ---------------------------------------------------------------------------------------------
// Smart-socket framing
std::string Hex4(size_t n);                                  // 26 -> "001a" (n < 65536)
std::optional<size_t> ParseHex4(std::string_view text);      // "001a" -> 26; nullopt if bad
std::string EncodeRequest(std::string_view service);         // "000chost:version"
std::string EncodeFail(std::string_view message);            // "FAIL" + Hex4 + message
std::string EncodeLengthPrefixed(std::string_view payload);  // Hex4 + payload

// Client side.
Status SendRequest(Socket& s, std::string_view service);
// Reads "OKAY" (ok) or "FAIL"+message: Unavailable("adb: <message>") (the message alone is also
// stored in *fail_message when given). Anything else is Corruption.
Status ReadStatus(Socket& s, std::string* fail_message = nullptr);
// SendRequest + ReadStatus, the error naming the service.
Status Request(Socket& s, std::string_view service, std::string* fail_message = nullptr);
Result<std::string> ReadLengthPrefixed(Socket& s);  // Hex4 + payload
// After "host:tport:..." the server sends the transport id: 8 bytes little-endian.
Result<uint64_t> ReadTransportId(Socket& s);

// Server side.
Result<std::string> ReadRequest(Socket& s);  // Hex4 + service name
Status SendOkay(Socket& s);
Status SendFail(Socket& s, std::string_view message);
Status WriteLengthPrefixed(Socket& s, std::string_view payload);

// ---------------------------------------------------------------------------------------------
// Service names
constexpr std::string_view kHostVersion = "host:version";        // -> OKAY + LP("0029")
constexpr std::string_view kHostDevices = "host:devices";        // -> OKAY + LP("SER\tdevice\n")
constexpr std::string_view kHostDevicesLong = "host:devices-l";  // adds product: model: ...
constexpr std::string_view kHostFeatures = "host:features";      // -> OKAY + LP("shell_v2,cmd")
constexpr std::string_view kHostKill = "host:kill";              // -> OKAY, server exits
constexpr std::string_view kHostTransportAny = "host:transport-any";
constexpr std::string_view kHostTransportUsb = "host:transport-usb";
constexpr std::string_view kHostTransportLocal = "host:transport-local";
constexpr std::string_view kSyncService = "sync:";
constexpr std::string_view kFeatureShellV2 = "shell_v2";
// "host:transport:SERIAL" (reply OKAY), or transport-any when serial is empty.
std::string TransportService(std::string_view serial);
// "host:tport:serial:SERIAL" (reply OKAY + 8-byte transport id; newer clients), "host:tport:any".
std::string TportService(std::string_view serial);
// "host-serial:SERIAL:REQUEST", e.g. REQUEST "features", "get-state", "emu:avd snapshot save x".
std::string HostSerialService(std::string_view serial, std::string_view request);
std::string ShellService(std::string_view command);    // "shell:" + command (v1: raw stream)
std::string ShellV2Service(std::string_view command);  // "shell,v2,raw:" + command (packets)
std::string ExecService(std::string_view command);     // "exec:" + command (raw, no pty)
// "emu:" + console command, sent after a transport switch to an emulator-* serial. The reply is
// the console's text ("OK\r\n" or "KO: message\r\n"). roam sim serve answers it; a real adb
// server does not (real `adb emu` talks to the emulator console port directly).
std::string EmuService(std::string_view console_command);

// Port forwarding. The adb server listens on a local port and relays each connection to a
// port on the device (the device service "tcp:PORT"); `adb forward tcp:L tcp:R` asks for it.
// "host-serial:S:forward:tcp:L;tcp:R" (also "host:forward:..." after a transport switch): the
// server answers OKAY, then OKAY (set up) or FAIL+message, then the local port as a
// length-prefixed decimal (newer servers always; older ones for tcp:0 only). "killforward:tcp:L"
// and "killforward-all": OKAY OKAY or OKAY FAIL. "host:list-forward": OKAY + LP("S tcp:L tcp:R\n"
// lines).
std::string ForwardService(std::string_view serial, int local_port, int device_port);
std::string KillForwardService(std::string_view serial, int local_port);
constexpr std::string_view kHostListForward = "host:list-forward";

// ---------------------------------------------------------------------------------------------
// sync: protocol. Every message is an 8-byte header (4-char id, u32 little-endian) + data.
constexpr size_t kSyncMaxChunk = 64 * 1024;
constexpr std::string_view kSyncStat = "STAT", kSyncRecv = "RECV", kSyncSend = "SEND",
                           kSyncData = "DATA", kSyncDone = "DONE", kSyncOkay = "OKAY",
                           kSyncFail = "FAIL", kSyncQuit = "QUIT", kSyncList = "LIST",
                           kSyncDent = "DENT";
std::string EncodeSyncHeader(std::string_view id, uint32_t value);
void PutU32Le(std::string& out, uint32_t v);
uint32_t GetU32Le(const char* p);

struct SyncHeader {
  std::string id;      // "DATA", "DONE", ...
  uint32_t value = 0;  // a length, or a mode/mtime for DONE
};
Result<SyncHeader> ReadSyncHeader(Socket& s);

struct SyncStat {
  uint32_t mode = 0;  // 0 when the file does not exist
  uint32_t size = 0;
  uint32_t mtime = 0;
};
// Client side, after Request(s, kSyncService) on a device transport.
Result<SyncStat> SyncStatFile(Socket& s, std::string_view path);
Result<std::string> SyncPull(Socket& s, std::string_view path);  // RECV; FAIL -> NotFound
Status SyncPush(Socket& s, std::string_view path, std::string_view data, uint32_t mode = 0644,
                uint32_t mtime = 0);  // SEND path,mode; DATA; DONE
Status SyncQuit(Socket& s);

// ---------------------------------------------------------------------------------------------
// shell v2 packets: 1-byte id, u32 little-endian length, data.
enum class ShellPacket : uint8_t {
  kStdin = 0,
  kStdout = 1,
  kStderr = 2,
  kExit = 3,
  kCloseStdin = 4,
  kWindowSize = 5,
};
std::string EncodeShellPacket(ShellPacket id, std::string_view data);
struct ShellV2Result {
  std::string out;
  std::string err;
  int exit_code = -1;  // -1 when the stream ended without an exit packet
};
// Reads packets until kExit or EOF.
Result<ShellV2Result> ReadShellV2(Socket& s);

// ---------------------------------------------------------------------------------------------
// One-shot helpers (a fresh connection each).
// Host query with a length-prefixed answer: host:version, host:devices, host:features, ...
Result<std::string> HostQuery(const std::string& host, int port, std::string_view service,
                              int timeout_ms = kDefaultTimeoutMs);
// Forwards 127.0.0.1:local_port (0: a free port) of the adb server's host to `device_port` on
// `serial`; the local port in use. Errors carry the server's words ("cannot bind listener").
Result<int> Forward(const std::string& host, int port, std::string_view serial, int local_port,
                    int device_port, int timeout_ms = kDefaultTimeoutMs);
Status KillForward(const std::string& host, int port, std::string_view serial, int local_port,
                   int timeout_ms = kDefaultTimeoutMs);
// host:devices' answer ("SER\tSTATE\n" lines) as (serial, state) pairs, in the server's order;
// the serials whose state is "device" (online).
std::vector<std::pair<std::string, std::string>> DeviceStates(std::string_view host_devices);
std::vector<std::string> OnlineSerials(std::string_view host_devices);

// Transport to serial ("" = any), then `service`, then everything until EOF.
Result<std::string> RunDeviceService(const std::string& host, int port, std::string_view serial,
                                     std::string_view service, int timeout_ms = kDefaultTimeoutMs);

}  // namespace roam::device::android
