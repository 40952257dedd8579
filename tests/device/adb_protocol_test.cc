// adb_protocol: framing, sync headers and shell v2 packets, over a real loopback socket pair.
#include "device/android/adb_protocol.h"

#include <thread>

#include <gtest/gtest.h>

#include "device/android/adb_address.h"

namespace roam::device::android {
namespace {

// A connected pair on 127.0.0.1 (an ephemeral port), with short timeouts.
struct Pair {
  Socket client, server;
};
Pair MakePair() {
  auto l = Listener::Listen("127.0.0.1", 0);
  EXPECT_TRUE(l.ok()) << l.status().ToString();
  auto c = Socket::Connect("127.0.0.1", l->port(), 2000);
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  auto s = l->Accept(2000, 2000);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return {std::move(*c), std::move(*s)};
}

TEST(AdbFramingTest, Hex4RoundTrips) {
  EXPECT_EQ(Hex4(0), "0000");
  EXPECT_EQ(Hex4(26), "001a");
  EXPECT_EQ(Hex4(0xffff), "ffff");
  EXPECT_EQ(ParseHex4("001a"), 26u);
  EXPECT_EQ(ParseHex4("001A"), 26u);
  EXPECT_FALSE(ParseHex4("01a").has_value());
  EXPECT_FALSE(ParseHex4("00g1").has_value());
}

TEST(AdbFramingTest, EncodesRequestsAndReplies) {
  EXPECT_EQ(EncodeRequest("host:version"), "000chost:version");
  EXPECT_EQ(EncodeFail("device offline"), "FAIL000edevice offline");
  EXPECT_EQ(TransportService("emulator-5554"), "host:transport:emulator-5554");
  EXPECT_EQ(TransportService(""), "host:transport-any");
  EXPECT_EQ(TportService("abc"), "host:tport:serial:abc");
  EXPECT_EQ(HostSerialService("abc", "features"), "host-serial:abc:features");
  EXPECT_EQ(ShellService("wm size"), "shell:wm size");
  EXPECT_EQ(ShellV2Service("id"), "shell,v2,raw:id");
}

TEST(AdbFramingTest, ReadStatusCarriesTheFailMessage) {
  Pair p = MakePair();
  ASSERT_TRUE(SendFail(p.server, "device 'x' not found").ok());
  std::string msg;
  Status st = ReadStatus(p.client, &msg);
  EXPECT_TRUE(st.IsUnavailable());
  EXPECT_EQ(msg, "device 'x' not found");
  EXPECT_NE(st.message().find("device 'x' not found"), std::string::npos);
}

TEST(AdbFramingTest, RequestOkayThenLengthPrefixed) {
  Pair p = MakePair();
  std::thread server([&] {
    auto req = ReadRequest(p.server);
    ASSERT_TRUE(req.ok());
    EXPECT_EQ(*req, "host:version");
    EXPECT_TRUE(SendOkay(p.server).ok());
    EXPECT_TRUE(WriteLengthPrefixed(p.server, "0029").ok());
  });
  ASSERT_TRUE(Request(p.client, kHostVersion).ok());
  auto v = ReadLengthPrefixed(p.client);
  server.join();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, "0029");
}

TEST(AdbFramingTest, GarbageStatusIsCorruption) {
  Pair p = MakePair();
  EXPECT_TRUE(p.server.WriteAll("WHAT").ok());
  EXPECT_EQ(ReadStatus(p.client).code(), Status::Code::kCorruption);
}

TEST(AdbFramingTest, ReadTimesOutAndNamesThePeer) {
  Pair p = MakePair();
  ASSERT_TRUE(p.client.SetTimeout(50).ok());
  auto r = p.client.ReadExact(4);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsUnavailable()) << r.status().ToString();
  EXPECT_NE(r.status().message().find("127.0.0.1"), std::string::npos);
}

TEST(AdbFramingTest, EofMidMessageIsAnError) {
  Pair p = MakePair();
  EXPECT_TRUE(p.server.WriteAll("00").ok());
  p.server.Close();
  auto r = ReadLengthPrefixed(p.client);
  EXPECT_FALSE(r.ok());
}

TEST(AdbFramingTest, ConnectToAClosedPortFails) {
  auto l = Listener::Listen("127.0.0.1", 0);
  ASSERT_TRUE(l.ok());
  int port = l->port();
  l->Close();
  auto c = Socket::Connect("127.0.0.1", port, 1000);
  EXPECT_FALSE(c.ok());
}

TEST(AdbSyncTest, HeadersAreLittleEndian) {
  std::string h = EncodeSyncHeader("DATA", 0x01020304);
  ASSERT_EQ(h.size(), 8u);
  EXPECT_EQ(h.substr(0, 4), "DATA");
  EXPECT_EQ(static_cast<uint8_t>(h[4]), 0x04);
  EXPECT_EQ(GetU32Le(h.data() + 4), 0x01020304u);
}

TEST(AdbSyncTest, PullReassemblesChunksAndReportsFail) {
  Pair p = MakePair();
  std::thread server([&] {
    auto h = ReadSyncHeader(p.server);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->id, "RECV");
    auto path = p.server.ReadExact(h->value);
    EXPECT_EQ(*path, "/sdcard/a.xml");
    EXPECT_TRUE(p.server
                    .WriteAll(EncodeSyncHeader("DATA", 3) + "abc" + EncodeSyncHeader("DATA", 2) +
                              "de" + EncodeSyncHeader("DONE", 0))
                    .ok());
    h = ReadSyncHeader(p.server);
    EXPECT_TRUE(p.server.ReadExact(h->value).ok());
    EXPECT_TRUE(p.server.WriteAll(EncodeSyncHeader("FAIL", 4) + "nope").ok());
  });
  auto data = SyncPull(p.client, "/sdcard/a.xml");
  ASSERT_TRUE(data.ok()) << data.status().ToString();
  EXPECT_EQ(*data, "abcde");
  auto missing = SyncPull(p.client, "/missing");
  server.join();
  EXPECT_TRUE(missing.status().IsNotFound());
}

TEST(AdbShellV2Test, PacketsCarryOutputAndExitCode) {
  Pair p = MakePair();
  ASSERT_TRUE(p.server
                  .WriteAll(EncodeShellPacket(ShellPacket::kStdout, "hi\n") +
                            EncodeShellPacket(ShellPacket::kStderr, "oops\n") +
                            EncodeShellPacket(ShellPacket::kExit, std::string(1, '\x7f')))
                  .ok());
  auto r = ReadShellV2(p.client);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "hi\n");
  EXPECT_EQ(r->err, "oops\n");
  EXPECT_EQ(r->exit_code, 127);
}

TEST(OnlineSerials, KeepsTheDevicesThatAreOnlineInTheServersOrder) {
  EXPECT_EQ(OnlineSerials("emulator-5556\tdevice\nR58M\toffline\nemulator-5554\tdevice\r\n"
                          "HT7\tunauthorized\n\tdevice\nno-tab\n"),
            (std::vector<std::string>{"emulator-5556", "emulator-5554"}));
  EXPECT_TRUE(OnlineSerials("").empty());
}

}  // namespace
}  // namespace roam::device::android

namespace roam::device::android {
namespace {

// As adb's client finds its server: ADB_SERVER_SOCKET first, then ANDROID_ADB_SERVER_PORT.
TEST(AdbServerFromEnvironment, ReadsWhatAdbReads) {
  auto none = AdbServerFromEnvironment(nullptr, "");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->host || none->port);
  auto port = AdbServerFromEnvironment("", "5038");
  ASSERT_TRUE(port.ok());
  EXPECT_EQ(port->port, 5038);
  EXPECT_FALSE(port->host);
  auto socket = AdbServerFromEnvironment("tcp:10.0.2.2:5039", "5038");
  ASSERT_TRUE(socket.ok());
  EXPECT_EQ(socket->host, "10.0.2.2");
  EXPECT_EQ(socket->port, 5039);
  auto bare = AdbServerFromEnvironment("tcp:5040", nullptr);
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->port, 5040);
  EXPECT_FALSE(bare->host);
  for (const char* bad : {"localabstract:adb", "tcp:", "tcp:host:", "tcp::5037", "tcp:70000"}) {
    auto refused = AdbServerFromEnvironment(bad, nullptr);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.status().message().find("ADB_SERVER_SOCKET"), std::string::npos);
  }
  auto refused = AdbServerFromEnvironment(nullptr, "five");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("ANDROID_ADB_SERVER_PORT=\"five\""), std::string::npos);
}

}  // namespace
}  // namespace roam::device::android
