#include "device/android/adb_protocol.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "base/json_fields.h"

namespace roam::device::android {

namespace {

void SetTimeouts(int fd, int timeout_ms) {
  timeval tv{};
  tv.tv_sec = timeout_ms / 1000;
  tv.tv_usec = (timeout_ms % 1000) * 1000;
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

std::string AddressText(const sockaddr* addr) {
  char host[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (addr->sa_family == AF_INET) {
    auto* in = reinterpret_cast<const sockaddr_in*>(addr);
    inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
    port = ntohs(in->sin_port);
  } else if (addr->sa_family == AF_INET6) {
    auto* in = reinterpret_cast<const sockaddr_in6*>(addr);
    inet_ntop(AF_INET6, &in->sin6_addr, host, sizeof host);
    port = ntohs(in->sin6_port);
  }
  return fmt::format("{}:{}", host, port);
}

Result<addrinfo*> Resolve(const std::string& host, int port, bool passive) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (passive) hints.ai_flags = AI_PASSIVE;
  addrinfo* res = nullptr;
  std::string service = std::to_string(port);
  int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res);
  if (rc != 0 || res == nullptr) {
    return Status::Unavailable(fmt::format("resolve {}:{}: {}", host, port, gai_strerror(rc)));
  }
  return res;
}

}  // namespace

// --- Socket -----------------------------------------------------------------------------------

Socket::Socket(int fd, std::string peer) : fd_(fd), peer_(std::move(peer)) {}
Socket::~Socket() { Close(); }
Socket::Socket(Socket&& other) noexcept : fd_(other.fd_), peer_(std::move(other.peer_)) {
  other.fd_ = -1;
}
Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = other.fd_;
    peer_ = std::move(other.peer_);
    other.fd_ = -1;
  }
  return *this;
}

Status Socket::Error(const char* op, int err) const {
  if (err == EAGAIN || err == EWOULDBLOCK) {
    return Status::Unavailable(fmt::format("{} {}: timed out", op, peer_));
  }
  return Status::Io(fmt::format("{} {}: {}", op, peer_, std::strerror(err)));
}

Result<Socket> Socket::Connect(const std::string& host, int port, int timeout_ms) {
  auto res = Resolve(host, port, false);
  if (!res.ok()) return res.status();
  std::string where = fmt::format("{}:{}", host, port);
  Status last = Status::Unavailable("connect " + where + ": no address");
  for (addrinfo* ai = *res; ai != nullptr; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      last = Status::Io(fmt::format("socket for {}: {}", where, std::strerror(errno)));
      continue;
    }
    int flags = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
    int err = rc == 0 ? 0 : errno;
    if (rc != 0 && err == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      int pr = poll(&p, 1, timeout_ms > 0 ? timeout_ms : -1);
      if (pr == 0) {
        err = ETIMEDOUT;
      } else if (pr < 0) {
        err = errno;
      } else {
        socklen_t len = sizeof err;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      }
    }
    if (err != 0) {
      close(fd);
      last = Status::Unavailable(fmt::format("connect {}: {}", where, std::strerror(err)));
      continue;
    }
    fcntl(fd, F_SETFL, flags);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    SetTimeouts(fd, timeout_ms);
    freeaddrinfo(*res);
    return Socket(fd, where);
  }
  freeaddrinfo(*res);
  return last;
}

Status Socket::SetTimeout(int timeout_ms) {
  if (fd_ < 0) return Status::Io("set timeout on closed socket " + peer_);
  SetTimeouts(fd_, timeout_ms);
  return Status::Ok();
}

Status Socket::WriteAll(std::string_view data) {
  if (fd_ < 0) return Status::Io("write to closed socket " + peer_);
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error("write to", errno);
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Result<size_t> Socket::ReadSome(char* buf, size_t max) {
  if (fd_ < 0) return Status::Io("read from closed socket " + peer_);
  while (true) {
    ssize_t n = recv(fd_, buf, max, 0);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno == EINTR) continue;
    return Error("read from", errno);
  }
}

Status Socket::ReadExactInto(char* buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    auto r = ReadSome(buf + done, n - done);
    if (!r.ok()) return r.status();
    if (*r == 0) {
      return Status::Io(
          fmt::format("read from {}: connection closed after {} of {} bytes", peer_, done, n));
    }
    done += *r;
  }
  return Status::Ok();
}

Result<std::string> Socket::ReadExact(size_t n) {
  std::string out(n, '\0');
  ROAM_RETURN_IF_ERROR(ReadExactInto(out.data(), n));
  return out;
}

Result<std::string> Socket::ReadToEnd(size_t max_bytes) {
  std::string out;
  char buf[16384];
  while (true) {
    auto r = ReadSome(buf, sizeof buf);
    if (!r.ok()) return r.status();
    if (*r == 0) return out;
    out.append(buf, *r);
    if (out.size() > max_bytes) {
      return Status::Io(fmt::format("read from {}: more than {} bytes", peer_, max_bytes));
    }
  }
}

bool Socket::WaitReadable(int timeout_ms) {
  if (fd_ < 0) return false;
  pollfd p{fd_, POLLIN, 0};
  int rc = poll(&p, 1, timeout_ms);
  return rc > 0;
}

void Socket::ShutdownWrite() {
  if (fd_ >= 0) shutdown(fd_, SHUT_WR);
}
void Socket::Shutdown() {
  if (fd_ >= 0) shutdown(fd_, SHUT_RDWR);
}
void Socket::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

// --- Listener ---------------------------------------------------------------------------------

Listener::~Listener() {
  Close();
  if (spare_fd_ >= 0) close(spare_fd_);
}
Listener::Listener(Listener&& o) noexcept
    : fd_(o.fd_), spare_fd_(o.spare_fd_), port_(o.port_), host_(std::move(o.host_)) {
  o.fd_ = -1;
  o.spare_fd_ = -1;
}
Listener& Listener::operator=(Listener&& o) noexcept {
  if (this != &o) {
    Close();
    if (spare_fd_ >= 0) close(spare_fd_);
    fd_ = o.fd_;
    spare_fd_ = o.spare_fd_;
    port_ = o.port_;
    host_ = std::move(o.host_);
    o.fd_ = -1;
    o.spare_fd_ = -1;
  }
  return *this;
}

Result<Listener> Listener::Listen(const std::string& host, int port, int backlog) {
  auto res = Resolve(host, port, true);
  if (!res.ok()) return res.status();
  std::string where = fmt::format("{}:{}", host, port);
  addrinfo* ai = *res;
  int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
  if (fd < 0) {
    freeaddrinfo(*res);
    return Status::Io(fmt::format("socket for {}: {}", where, std::strerror(errno)));
  }
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, backlog) != 0) {
    int err = errno;
    close(fd);
    freeaddrinfo(*res);
    return Status::Unavailable(fmt::format("listen on {}: {}", where, std::strerror(err)));
  }
  freeaddrinfo(*res);
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  Listener l;
  l.fd_ = fd;
  l.spare_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
  l.host_ = host;
  l.port_ = addr.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port)
                                       : ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  return l;
}

Result<Socket> Listener::Accept(int timeout_ms, int socket_timeout_ms) {
  if (fd_ < 0) return Status::Aborted("accept: listener closed");
  pollfd p{fd_, POLLIN, 0};
  int rc = poll(&p, 1, timeout_ms);
  if (rc == 0) return Status::Unavailable(fmt::format("accept on port {}: timed out", port_));
  if (rc < 0) {
    if (errno == EINTR) return Status::Unavailable("accept: interrupted");
    return Status::Io(fmt::format("accept on port {}: {}", port_, std::strerror(errno)));
  }
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  int fd = accept4(fd_, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_CLOEXEC);
  if (fd < 0) {
    if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED) {
      return Status::Unavailable("accept: no connection");
    }
    if (errno == EMFILE || errno == ENFILE) return RefuseOne();
    return Status::Io(fmt::format("accept on port {}: {}", port_, std::strerror(errno)));
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  SetTimeouts(fd, socket_timeout_ms);
  return Socket(fd, AddressText(reinterpret_cast<sockaddr*>(&addr)));
}

Status Listener::RefuseOne() {
  // The connection left pending keeps poll() ready: a caller that tries again would spin. Free
  // the spare descriptor, take the connection on it and close it (that one client is refused),
  // then hold a spare again.
  if (spare_fd_ >= 0) {
    close(spare_fd_);
    int fd = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) close(fd);
    spare_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
  } else {  // no spare to free (the whole system is out): wait instead of spinning
    poll(nullptr, 0, kRefuseBackoffMs);
  }
  return Status::Unavailable(
      fmt::format("accept on port {}: too many open files; a connection was refused", port_));
}

void Listener::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

// --- Framing ----------------------------------------------------------------------------------

std::string Hex4(size_t n) { return fmt::format("{:04x}", n & 0xffff); }

std::optional<size_t> ParseHex4(std::string_view text) {
  if (text.size() != 4) return std::nullopt;
  size_t v = 0;
  for (char c : text) {
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return std::nullopt;
    v = v * 16 + static_cast<size_t>(d);
  }
  return v;
}

std::string EncodeLengthPrefixed(std::string_view payload) {
  std::string out = Hex4(payload.size());
  out.append(payload);
  return out;
}
std::string EncodeRequest(std::string_view service) { return EncodeLengthPrefixed(service); }
std::string EncodeFail(std::string_view message) {
  return "FAIL" + EncodeLengthPrefixed(message.substr(0, 0xffff));
}

Status SendRequest(Socket& s, std::string_view service) {
  if (service.size() > 0xffff) return Status::InvalidArgument("adb request too long");
  return s.WriteAll(EncodeRequest(service));
}

Result<std::string> ReadLengthPrefixed(Socket& s) {
  auto head = s.ReadExact(4);
  if (!head.ok()) return head.status();
  auto n = ParseHex4(*head);
  if (!n) return Status::Corruption(fmt::format("{}: bad length \"{}\"", s.peer(), *head));
  return s.ReadExact(*n);
}

Status ReadStatus(Socket& s, std::string* fail_message) {
  auto head = s.ReadExact(4);
  if (!head.ok()) return head.status();
  if (*head == "OKAY") return Status::Ok();
  if (*head == "FAIL") {
    auto msg = ReadLengthPrefixed(s);
    if (!msg.ok()) return msg.status();
    if (fail_message) *fail_message = *msg;
    return Status::Unavailable("adb: " + *msg);
  }
  return Status::Corruption(fmt::format("{}: expected OKAY or FAIL, got \"{}\"", s.peer(), *head));
}

Status Request(Socket& s, std::string_view service, std::string* fail_message) {
  Status st = SendRequest(s, service);
  if (st.ok()) st = ReadStatus(s, fail_message);
  return st.Wrap(fmt::format("adb request \"{}\" to {}", service, s.peer()));
}

Result<uint64_t> ReadTransportId(Socket& s) {
  auto raw = s.ReadExact(8);
  if (!raw.ok()) return raw.status();
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>((*raw)[i]);
  return v;
}

Result<std::string> ReadRequest(Socket& s) { return ReadLengthPrefixed(s); }
Status SendOkay(Socket& s) { return s.WriteAll("OKAY"); }
Status SendFail(Socket& s, std::string_view message) { return s.WriteAll(EncodeFail(message)); }
Status WriteLengthPrefixed(Socket& s, std::string_view payload) {
  return s.WriteAll(EncodeLengthPrefixed(payload.substr(0, 0xffff)));
}

// --- Services ---------------------------------------------------------------------------------

std::string TransportService(std::string_view serial) {
  if (serial.empty()) return std::string(kHostTransportAny);
  return "host:transport:" + std::string(serial);
}
std::string TportService(std::string_view serial) {
  if (serial.empty()) return "host:tport:any";
  return "host:tport:serial:" + std::string(serial);
}
std::string HostSerialService(std::string_view serial, std::string_view request) {
  return fmt::format("host-serial:{}:{}", serial, request);
}
std::string ForwardService(std::string_view serial, int local_port, int device_port) {
  return HostSerialService(serial, fmt::format("forward:tcp:{};tcp:{}", local_port, device_port));
}
std::string KillForwardService(std::string_view serial, int local_port) {
  return HostSerialService(serial, fmt::format("killforward:tcp:{}", local_port));
}
std::string ShellService(std::string_view command) { return "shell:" + std::string(command); }
std::string ShellV2Service(std::string_view command) {
  return "shell,v2,raw:" + std::string(command);
}
std::string ExecService(std::string_view command) { return "exec:" + std::string(command); }
std::string EmuService(std::string_view command) { return "emu:" + std::string(command); }

// --- sync: ------------------------------------------------------------------------------------

void PutU32Le(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint32_t GetU32Le(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
std::string EncodeSyncHeader(std::string_view id, uint32_t value) {
  std::string out(id.substr(0, 4));
  out.resize(4, ' ');
  PutU32Le(out, value);
  return out;
}

Result<SyncHeader> ReadSyncHeader(Socket& s) {
  char buf[8];
  ROAM_RETURN_IF_ERROR(s.ReadExactInto(buf, 8));
  return SyncHeader{std::string(buf, 4), GetU32Le(buf + 4)};
}

namespace {
Status SendSyncRequest(Socket& s, std::string_view id, std::string_view path) {
  std::string msg = EncodeSyncHeader(id, static_cast<uint32_t>(path.size()));
  msg.append(path);
  return s.WriteAll(msg);
}
Status SyncFailStatus(Socket& s, const SyncHeader& h, std::string_view op, std::string_view path) {
  auto msg = s.ReadExact(h.value);
  std::string text = msg.ok() ? *msg : msg.status().message();
  return Status::NotFound(fmt::format("sync {} {}: {}", op, path, text));
}
}  // namespace

Result<SyncStat> SyncStatFile(Socket& s, std::string_view path) {
  ROAM_RETURN_IF_ERROR(SendSyncRequest(s, kSyncStat, path));
  char buf[16];
  ROAM_RETURN_IF_ERROR(s.ReadExactInto(buf, 16));
  if (std::string_view(buf, 4) != kSyncStat) {
    return Status::Corruption(fmt::format("sync STAT {}: bad reply id", path));
  }
  return SyncStat{GetU32Le(buf + 4), GetU32Le(buf + 8), GetU32Le(buf + 12)};
}

Result<std::string> SyncPull(Socket& s, std::string_view path) {
  ROAM_RETURN_IF_ERROR(SendSyncRequest(s, kSyncRecv, path));
  std::string out;
  while (true) {
    auto h = ReadSyncHeader(s);
    if (!h.ok()) return h.status().Wrap(fmt::format("sync RECV {}", path));
    if (h->id == kSyncDone) return out;
    if (h->id == kSyncFail) return SyncFailStatus(s, *h, "RECV", path);
    if (h->id != kSyncData || h->value > kSyncMaxChunk) {
      return Status::Corruption(
          fmt::format("sync RECV {}: bad header \"{}\" {}", path, h->id, h->value));
    }
    size_t at = out.size();
    out.resize(at + h->value);
    ROAM_RETURN_IF_ERROR(s.ReadExactInto(out.data() + at, h->value));
  }
}

Status SyncPush(Socket& s, std::string_view path, std::string_view data, uint32_t mode,
                uint32_t mtime) {
  std::string spec = fmt::format("{},{}", path, mode);
  ROAM_RETURN_IF_ERROR(SendSyncRequest(s, kSyncSend, spec));
  for (size_t at = 0; at < data.size(); at += kSyncMaxChunk) {
    std::string_view chunk = data.substr(at, kSyncMaxChunk);
    std::string msg = EncodeSyncHeader(kSyncData, static_cast<uint32_t>(chunk.size()));
    msg.append(chunk);
    ROAM_RETURN_IF_ERROR(s.WriteAll(msg));
  }
  ROAM_RETURN_IF_ERROR(s.WriteAll(EncodeSyncHeader(kSyncDone, mtime)));
  auto h = ReadSyncHeader(s);
  if (!h.ok()) return h.status().Wrap(fmt::format("sync SEND {}", path));
  if (h->id == kSyncOkay) return Status::Ok();
  if (h->id == kSyncFail) return SyncFailStatus(s, *h, "SEND", path);
  return Status::Corruption(fmt::format("sync SEND {}: bad reply \"{}\"", path, h->id));
}

Status SyncQuit(Socket& s) { return s.WriteAll(EncodeSyncHeader(kSyncQuit, 0)); }

// --- shell v2 ---------------------------------------------------------------------------------

std::string EncodeShellPacket(ShellPacket id, std::string_view data) {
  std::string out(1, static_cast<char>(id));
  PutU32Le(out, static_cast<uint32_t>(data.size()));
  out.append(data);
  return out;
}

Result<ShellV2Result> ReadShellV2(Socket& s) {
  ShellV2Result r;
  while (true) {
    char head[5];
    auto first = s.ReadSome(head, 1);
    if (!first.ok()) return first.status();
    if (*first == 0) return r;
    ROAM_RETURN_IF_ERROR(s.ReadExactInto(head + 1, 4));
    uint32_t len = GetU32Le(head + 1);
    if (len > (1u << 26)) return Status::Corruption(s.peer() + ": shell v2 packet too long");
    auto data = s.ReadExact(len);
    if (!data.ok()) return data.status();
    switch (static_cast<ShellPacket>(head[0])) {
      case ShellPacket::kStdout:
        r.out += *data;
        break;
      case ShellPacket::kStderr:
        r.err += *data;
        break;
      case ShellPacket::kExit:
        r.exit_code = data->empty() ? 0 : static_cast<uint8_t>((*data)[0]);
        return r;
      default:
        break;
    }
  }
}

// --- One-shot helpers -------------------------------------------------------------------------

Result<std::string> HostQuery(const std::string& host, int port, std::string_view service,
                              int timeout_ms) {
  auto s = Socket::Connect(host, port, timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, service));
  auto payload = ReadLengthPrefixed(*s);
  if (!payload.ok()) return payload.status().Wrap(fmt::format("adb \"{}\"", service));
  return payload;
}

Result<std::string> RunDeviceService(const std::string& host, int port, std::string_view serial,
                                     std::string_view service, int timeout_ms) {
  auto s = Socket::Connect(host, port, timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, TransportService(serial)));
  ROAM_RETURN_IF_ERROR(Request(*s, service));
  auto out = s->ReadToEnd();
  if (!out.ok()) return out.status().Wrap(fmt::format("adb \"{}\" on {}", service, serial));
  return out;
}

Result<int> Forward(const std::string& host, int port, std::string_view serial, int local_port,
                    int device_port, int timeout_ms) {
  const std::string service = ForwardService(serial, local_port, device_port);
  auto s = Socket::Connect(host, port, timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, service));  // the server took the request
  ROAM_RETURN_IF_ERROR(ReadStatus(*s).Wrap(fmt::format("adb \"{}\"", service)));  // set up
  auto bound = ReadLengthPrefixed(*s);
  if (!bound.ok()) {
    if (local_port != 0) return local_port;  // an older server says no more for a fixed port
    return bound.status().Wrap(fmt::format("adb \"{}\": the port it bound", service));
  }
  int n = 0;
  auto [end, ec] = std::from_chars(bound->data(), bound->data() + bound->size(), n);
  if (ec != std::errc() || end != bound->data() + bound->size() || n <= 0 || n > 65535)
    return Status::Corruption(
        fmt::format("adb \"{}\": \"{}\" is not a port", service, Excerpt(*bound)));
  return n;
}

Status KillForward(const std::string& host, int port, std::string_view serial, int local_port,
                   int timeout_ms) {
  const std::string service = KillForwardService(serial, local_port);
  auto s = Socket::Connect(host, port, timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, service));
  return ReadStatus(*s).Wrap(fmt::format("adb \"{}\"", service));
}

std::vector<std::pair<std::string, std::string>> DeviceStates(std::string_view host_devices) {
  std::vector<std::pair<std::string, std::string>> devices;
  while (!host_devices.empty()) {
    size_t eol = host_devices.find('\n');
    std::string_view line = host_devices.substr(0, eol);
    host_devices.remove_prefix(eol == std::string_view::npos ? host_devices.size() : eol + 1);
    size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0) continue;
    std::string_view state = line.substr(tab + 1);
    if (!state.empty() && state.back() == '\r') state.remove_suffix(1);
    devices.emplace_back(line.substr(0, tab), state);
  }
  return devices;
}

std::vector<std::string> OnlineSerials(std::string_view host_devices) {
  std::vector<std::string> serials;
  for (auto& [serial, state] : DeviceStates(host_devices))
    if (state == "device") serials.push_back(std::move(serial));
  return serials;
}

}  // namespace roam::device::android
