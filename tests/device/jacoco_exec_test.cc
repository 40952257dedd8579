// JaCoCo exec data: bytes derived from JaCoCo's writer by hand and one file its 0.8.6 agent wrote,
// round trips, merging as ExecutionData.merge does, and refusals located to the byte.
#include <malloc.h>

#include <chrono>
#include <set>

#include <gtest/gtest.h>

#include "device/jacoco/exec_data.h"
#include "device/jacoco/exec_reader.h"
#include "device/jacoco/modified_utf8.h"

namespace roam::device::jacoco {
namespace {

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out += static_cast<char>(b);
  return out;
}

std::vector<bool> Probes(std::string_view bits) {  // "0110" -> {F, T, T, F}
  std::vector<bool> out;
  for (char c : bits) out.push_back(c == '1');
  return out;
}

void Put(ExecData& d, ClassData c) {
  Status s = AddClass(d, std::move(c));
  ASSERT_TRUE(s.ok()) << s.ToString();
}

ExecData Sample() {
  ExecData d;
  d.sessions = {{"host-1a2b", 1000, 2000}, {"second", -1, 0x7FFFFFFFFFFFFFFF}};
  Put(d, {0x0123456789ABCDEF, "org/roam/Main", Probes("101")});
  Put(d, {0xFFFFFFFFFFFFFFFF, "org/roam/Main$1", Probes("000000001")});
  Put(d, {7, "caf\xC3\xA9/\xF0\x9F\x98\x80", Probes("1")});  // é and U+1F600
  return d;
}

// What ExecutionDataWriter and CompactDataOutput write, worked out from their source: the
// header, then one session, then a class of 9 probes: var-int 9, probe 0 in the low bit of the
// first byte, probe 8 in the low bit of the second.
TEST(JacocoExecTest, WritesTheBytesJacocoWrites) {
  ExecData d;
  d.sessions = {{"a", 1, 2}};
  Put(d, {0x1122334455667788, "Foo", Probes("100000001")});
  std::string expected =
      Bytes({0x01, 0xC0, 0xC0, 0x10, 0x07,                                   // header
             0x10, 0x00, 0x01, 'a',  0,    0,    0,    0,    0,    0, 0, 1,  // id, start
             0,    0,    0,    0,    0,    0,    0,    2,                    // dump
             0x11, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,           // class id
             0x00, 0x03, 'F',  'o',  'o',  0x09, 0x01, 0x01});
  EXPECT_EQ(WriteExec(d), expected);
  auto back = ParseExec(expected);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, d);
}

TEST(JacocoExecTest, VarIntAndBitPackingAsCompactDataOutput) {
  ExecData d;
  std::vector<bool> probes(300, false);  // var-int 300: AC 02; 38 bytes of probes
  probes[0] = probes[7] = probes[8] = probes[299] = true;
  Put(d, {1, "A", probes});
  std::string bytes = WriteExec(d);
  const size_t at = 5 + 1 + 8 + 2 + 1;  // header, type, id, name
  ASSERT_EQ(bytes.size(), at + 2 + 38);
  EXPECT_EQ(bytes.substr(at, 2), Bytes({0xAC, 0x02}));
  EXPECT_EQ(bytes.substr(at + 2, 2), Bytes({0x81, 0x01}));  // probes 0 and 7; probe 8
  EXPECT_EQ(bytes.back(), static_cast<char>(0x08));         // probe 299: bit 3 of byte 37
  auto back = ParseExec(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->classes.at(1).probes, probes);
}

// Written by JaCoCo 0.8.6's agent (Debian's libjacoco-java) for a class Hello with 7 probes.
TEST(JacocoExecTest, ReadsAFileTheRealAgentWrote) {
  std::string file =
      Bytes({0x01, 0xc0, 0xc0, 0x10, 0x07, 0x10, 0x00, 0x0b, 0x76, 0x6d, 0x2d, 0x64, 0x64, 0x66,
             0x66, 0x63, 0x62, 0x61, 0x37, 0x00, 0x00, 0x01, 0xa2, 0x1e, 0xf3, 0xec, 0xf5, 0x00,
             0x00, 0x01, 0xa2, 0x1e, 0xf3, 0xed, 0xd3, 0x11, 0x9c, 0x3e, 0x6a, 0x2d, 0x1c, 0xfb,
             0xf6, 0x08, 0x00, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x07, 0x7c});
  auto d = ParseExec(file);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ASSERT_EQ(d->sessions.size(), 1u);
  EXPECT_EQ(d->sessions[0].id, "vm-ddffcba7");
  EXPECT_EQ(d->sessions[0].dump_ms - d->sessions[0].start_ms, 0xf3edd3 - 0xf3ecf5);
  ASSERT_EQ(d->classes.size(), 1u);
  const ClassData& hello = d->classes.at(0x9c3e6a2d1cfbf608);
  EXPECT_EQ(hello.name, "Hello");
  EXPECT_EQ(hello.probes, Probes("0011111"));
  EXPECT_EQ(d->ProbeCount(), 7u);
  EXPECT_EQ(d->CoveredCount(), 5u);
  EXPECT_EQ(WriteExec(*d), file);
}

TEST(JacocoExecTest, RoundTripsNamesJavaEncodesItsOwnWay) {
  EXPECT_EQ(EncodeModifiedUtf8(std::string("a\0b", 3)), Bytes({'a', 0xC0, 0x80, 'b'}));
  EXPECT_EQ(EncodeModifiedUtf8("\xF0\x9F\x98\x80"), Bytes({0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}));
  EXPECT_EQ(EncodeModifiedUtf8("\xFF"), "\xEF\xBF\xBD");  // not UTF-8: U+FFFD
  EXPECT_EQ(EncodeModifiedUtf8(std::string(70000, 'x')).size(), kMaxModifiedUtf8Bytes);
  ExecData d = Sample();
  Put(d, {8, std::string("nul\0in", 6), Probes("1")});
  auto back = ParseExec(WriteExec(d));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, d);
  EXPECT_EQ(back->classes.size(), 4u);
  EXPECT_EQ(back->ProbeCount(), 3u + 9u + 1u + 1u);
  EXPECT_EQ(back->CoveredCount(), 5u);
}

TEST(JacocoExecTest, ClassesWithoutHitsAreLeftOutAsJacocoDoes) {
  ExecData d = Sample();
  Put(d, {99, "Never", Probes("0000")});
  auto back = ParseExec(WriteExec(d));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->classes.count(99), 0u);
  EXPECT_EQ(back->classes.size(), 3u);
}

TEST(JacocoExecTest, MergeOrsProbesAndKeepsSessions) {
  ExecData a, b;
  a.sessions = {{"a", 1, 2}};
  b.sessions = {{"b", 3, 4}};
  Put(a, {1, "One", Probes("1100")});
  Put(b, {1, "One", Probes("0101")});
  Put(b, {2, "Two", Probes("1")});
  ASSERT_TRUE(Merge(a, b).ok());
  EXPECT_EQ(a.classes.at(1).probes, Probes("1101"));
  EXPECT_EQ(a.classes.at(2).probes, Probes("1"));
  EXPECT_EQ(a.sessions.size(), 2u);
  EXPECT_EQ(a.CoveredCount(), 4u);
}

TEST(JacocoExecTest, MergeRefusesWhatAssertCompatibilityRefuses) {
  ExecData a, b, c;
  Put(a, {0xff, "One", Probes("10")});
  Put(b, {0xfe, "New", Probes("1")});
  Put(b, {0xff, "One", Probes("011")});
  const ExecData before = a;
  Status s = Merge(a, b);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "Incompatible execution data for class One with id 00000000000000ff.");
  EXPECT_EQ(a, before);  // all or nothing: class 0xfe was not added either
  Put(c, {0xff, "Other", Probes("10")});
  s = Merge(a, c);
  EXPECT_EQ(s.message(), "Different class names One and Other for id 00000000000000ff.");
}

// The agent's append=true writes a header for each run into one file; ExecFileLoader merges the
// classes of the same id as it reads.
TEST(JacocoExecTest, AppendedFilesMergeAndIncompatibleOnesAreLocated) {
  ExecData a, b;
  Put(a, {5, "C", Probes("10")});
  Put(b, {5, "C", Probes("01")});
  auto both = ParseExec(WriteExec(a) + WriteExec(b));
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ(both->classes.at(5).probes, Probes("11"));

  ExecData c;
  Put(c, {5, "C", Probes("111")});
  std::string first = WriteExec(a);
  auto bad = ParseExec(first + WriteExec(c));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kCorruption);
  EXPECT_EQ(bad.status().message(),
            "byte " + std::to_string(first.size() + 5) +
                ": Incompatible execution data for class C with id 0000000000000005.");
}

// Where each block of WriteExec(Sample()) starts, and where the stream ends.
std::set<size_t> Boundaries(const ExecData& d) {
  std::set<size_t> out = {5};
  size_t at = 5;
  for (const SessionInfo& s : d.sessions) out.insert(at += 1 + 2 + s.id.size() + 16);
  for (const auto& [id, c] : d.classes) {
    at += 1 + 8 + 2 + EncodeModifiedUtf8(c.name).size() + (c.probes.size() < 128 ? 1 : 2);
    out.insert(at += (c.probes.size() + 7) / 8);
  }
  return out;
}

TEST(JacocoExecTest, EveryTruncationIsRefusedAndLocated) {
  const ExecData d = Sample();
  const std::string bytes = WriteExec(d);
  const std::set<size_t> ends = Boundaries(d);
  ASSERT_EQ(*ends.rbegin(), bytes.size());
  size_t refused = 0;
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    auto r = ParseExec(std::string_view(bytes).substr(0, cut));
    if (ends.count(cut)) {  // a whole number of blocks is a shorter, valid file
      EXPECT_TRUE(r.ok()) << cut << ": " << r.status().ToString();
      continue;
    }
    ASSERT_FALSE(r.ok()) << "cut at " << cut;
    ++refused;
    const std::string& m = r.status().message();
    ASSERT_EQ(m.rfind("byte ", 0), 0u) << m;
    size_t at = std::stoul(m.substr(5));
    EXPECT_LE(at, cut) << m;
    EXPECT_TRUE(cut == 0 || m.find("the data ends in") != std::string::npos) << m;
    EXPECT_EQ(r.status().code(),
              cut == 0 ? Status::Code::kInvalidArgument : Status::Code::kCorruption)
        << m;
  }
  EXPECT_EQ(refused, bytes.size() - (ends.size() - 1));
}

// Issue 43's bar: 200 mutated files (a byte changed, a run of bytes dropped or doubled), each
// read to a value or to an error that names its byte offset; none is a signal (ASan's fuzz
// target covers the rest).
TEST(JacocoExecTest, MutatedFilesParseOrGiveALocatedError) {
  const std::string bytes = WriteExec(Sample());
  uint64_t x = 88172645463325252ULL;  // xorshift64: the same 200 mutants every run
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  int refused = 0;
  for (int k = 0; k < 200; ++k) {
    std::string m = bytes;
    const size_t at = next() % m.size(), n = 1 + next() % 8;
    switch (k % 3) {
      case 0:
        m[at] = static_cast<char>(next());
        break;
      case 1:
        m.erase(at, n);
        break;
      case 2:
        m.insert(at, m.substr(at, n));
        break;
    }
    auto r = ParseExec(m);
    if (r.ok()) continue;
    ++refused;
    EXPECT_EQ(r.status().message().rfind("byte ", 0), 0u) << k << ": " << r.status().message();
  }
  EXPECT_GT(refused, 100);  // most mutants are not JaCoCo's any more
}

TEST(JacocoExecTest, ForeignBytesAreRefused) {
  auto zip = ParseExec("PK\x03\x04rest");
  ASSERT_FALSE(zip.ok());
  EXPECT_EQ(zip.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(zip.status().message().substr(0, 30), "byte 0: block type 0x50, expec");
  auto magic = ParseExec(Bytes({0x01, 0xCA, 0xFE, 0x10, 0x07}));
  ASSERT_FALSE(magic.ok());
  EXPECT_EQ(magic.status().message().substr(0, 33), "byte 1: magic number 0xcafe, expe");
  auto old = ParseExec(Bytes({0x01, 0xC0, 0xC0, 0x10, 0x06}));
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), Status::Code::kUnsupported);
  EXPECT_NE(old.status().message().find("byte 3: exec format version 0x1006"), std::string::npos);
  auto unknown = ParseExec(ExecHeader() + Bytes({0x12}));
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message().substr(0, 32), "byte 5: unknown block type 0x12 ");
  auto command = ParseExec(DumpCommand(true, false));
  ASSERT_FALSE(command.ok());
  EXPECT_NE(command.status().message().find("byte 5: a dump command block"), std::string::npos);
  auto bad_utf =
      ParseExec(ExecHeader() + Bytes({0x10, 0x00, 0x02, 'a', 0x80}) + std::string(16, 0));
  ASSERT_FALSE(bad_utf.ok());
  EXPECT_EQ(bad_utf.status().message(), "byte 9: the session id is not modified UTF-8 (byte 0x80)");
  auto empty = ParseExec("");
  EXPECT_EQ(empty.status().code(), Status::Code::kInvalidArgument);
}

TEST(JacocoExecTest, HostileLengthsAreRefusedWithoutAllocating) {
  const std::string cls = ExecHeader() + Bytes({0x11, 0, 0, 0, 0, 0, 0, 0, 1, 0x00, 0x01, 'X'});
  const auto start = std::chrono::steady_clock::now();
  // 2^31 - 1 probes (Java would allocate 2 GB), then 3 bytes.
  auto huge = ParseExec(cls + Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x07, 1, 2, 3}));
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("claims 2147483647 probes"), std::string::npos);
  // Just under the limit, but the bytes are not there: refused before the vector is made.
  auto cut = ParseExec(cls + Bytes({0xFF, 0xFF, 0xFF, 0x07, 1}));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("2097152 bytes expected, 1 left"), std::string::npos)
      << cut.status().message();
  auto endless = ParseExec(cls + Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x01}));
  ASSERT_FALSE(endless.ok());
  EXPECT_NE(endless.status().message().find("not a var-int"), std::string::npos);
  auto name = ParseExec(ExecHeader() + Bytes({0x10, 0xFF, 0xFF, 'a'}));
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.status().message(),
            "byte 8: the data ends in the session id: 65535 bytes "
            "expected, 1 left");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));

  ExecReader reader;  // on a socket the claim waits for its bytes, then Finish refuses it
  EXPECT_TRUE(reader.Feed(cls + Bytes({0xFF, 0xFF, 0xFF, 0x07})).ok());
  EXPECT_EQ(reader.offset(), 5u);
  EXPECT_EQ(reader.Finish().code(), Status::Code::kCorruption);
}

// What the agent's TcpConnection sends: a header once, then per dump command the session, the
// classes and a command-ok block.
TEST(JacocoExecTest, ReadsTcpAnswersOneAtATime) {
  ExecData first, second;
  first.sessions = {{"s", 1, 2}};
  Put(first, {1, "A", Probes("10")});
  second.sessions = {{"s", 1, 3}};
  Put(second, {1, "A", Probes("11")});
  const std::string answer1 = WriteExec(first) + CmdOk();
  const std::string stream = answer1 + WriteExecBlocks(second) + CmdOk();

  ExecReader reader;
  size_t fed = 0;
  while (!reader.answered() && fed < stream.size()) {
    ASSERT_TRUE(reader.Feed(stream.substr(fed++, 1)).ok());
  }
  EXPECT_EQ(fed, answer1.size());
  EXPECT_EQ(reader.offset(), answer1.size());
  EXPECT_EQ(reader.TakeAnswer(), first);
  ASSERT_TRUE(reader.Feed(stream.substr(fed)).ok());
  EXPECT_TRUE(reader.answered());
  EXPECT_EQ(reader.cmd_ok_count(), 2);
  EXPECT_EQ(reader.TakeAnswer(), second);
  EXPECT_TRUE(reader.Finish().ok());

  int oks = 0;
  auto whole = ParseExec(stream, &oks);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  EXPECT_EQ(oks, 2);
  EXPECT_EQ(whole->classes.at(1).probes, Probes("11"));
  EXPECT_EQ(whole->sessions.size(), 2u);
}

TEST(JacocoExecTest, DumpCommandIsWhatRemoteControlWriterSends) {
  EXPECT_EQ(DumpCommand(true, false), Bytes({0x01, 0xC0, 0xC0, 0x10, 0x07, 0x40, 0x01, 0x00}));
  EXPECT_EQ(CmdOk(), Bytes({0x20}));
  auto r = ParseDumpCommand(DumpCommand(false, true));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->dump);
  EXPECT_TRUE(r->reset);
  EXPECT_FALSE(ParseDumpCommand(DumpCommand(true, true).substr(0, 7)).ok());
  EXPECT_FALSE(ParseDumpCommand(WriteExec(Sample()).substr(0, 8)).ok());
}

// Issue 60, row 5: a file of tiny classes took 20-100x its size in memory (a std::map node, a
// std::string and a std::vector<bool> a class). 200,000 blocks of 13 bytes, as the issue's.
TEST(JacocoExecTest, Issue60TinyClassesTakeAFewTimesTheirBytes) {
  constexpr uint64_t kClasses = 200000;
  std::string file = ExecHeader();
  for (uint64_t id = 1; id <= kClasses; ++id) {  // no name, one probe, hit
    file += static_cast<char>(kBlockExecutionData);
    for (int shift = 56; shift >= 0; shift -= 8) file += static_cast<char>(id >> shift);
    file += Bytes({0x00, 0x00, 0x01, 0x01});
  }
  ASSERT_EQ(file.size(), 5 + 13 * kClasses);
  const auto heap = [] {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
  };
  const size_t before = heap();
  ExecReader reader(/*stop_at_cmd_ok=*/false);
  ASSERT_TRUE(reader.Feed(file).ok());
  ASSERT_TRUE(reader.Finish().ok());
  const size_t held = heap() - before;
  EXPECT_EQ(reader.offset(), file.size());  // it read them all
  EXPECT_LT(held, 3 * file.size()) << held << " bytes held for " << file.size() << " read";
  EXPECT_EQ(reader.data().classes.size(), kClasses);
}

// Issue 60, row 7: names from a file reached error messages raw (ESC, CR) and whole (64 KB).
TEST(JacocoExecTest, Issue60NamesInMessagesAreEscapedAndCut) {
  ExecData d;
  Put(d, {1, "evil\x1b[2J\r", Probes("1")});
  Put(d, {2, std::string(65000, 'x'), Probes("1")});
  Status s = AddClass(d, {1, "other\x07", Probes("1")});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("evil\\x1b[2J\\x0d and other\\x07"), std::string::npos) << s.message();
  s = AddClass(d, {2, "x", Probes("1")});
  ASSERT_FALSE(s.ok());
  EXPECT_LT(s.message().size(), 400u);
  EXPECT_NE(s.message().find(std::string(200, 'x') + "... (65000 bytes)"), std::string::npos);
  // and where the reader names a class
  const std::string cut = WriteExec(d).substr(0, 5 + 1 + 8 + 2 + 9);  // the name, no count
  auto r = ParseExec(cut);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().find('\x1b'), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("class evil\\x1b[2J\\x0d"), std::string::npos)
      << r.status().message();
  EXPECT_EQ(ShownName("a\xC2\x9B"
                      "b\x7F"),
            "a\\x9bb\\x7f");  // C1 CSI, DEL
  EXPECT_EQ(ShownName("caf\xC3\xA9"), "caf\xC3\xA9");
}

// Issue 60, row 8: writeUTF's length is an unsigned 16 bits, so 65,535 bytes is a name JaCoCo
// writes; one that readUTF takes but writeUTF could not write back was cut to 32,767 on write.
TEST(JacocoExecTest, Issue60TheLongestNameRoundTripsAndALongerOneIsRefused) {
  ExecData d;
  Put(d, {1, std::string(65535, 'a'), Probes("1")});
  const std::string bytes = WriteExec(d);
  EXPECT_EQ(bytes.substr(5 + 1 + 8, 2), Bytes({0xFF, 0xFF}));
  auto back = ParseExec(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, d);
  ExecData twice = *back;
  ASSERT_TRUE(Merge(twice, *back).ok());
  EXPECT_EQ(WriteExec(twice), bytes);

  // 65,535 raw 0x00 bytes: readUTF reads 65,535 U+0000, which writeUTF writes as C0 80 each.
  std::string raw = ExecHeader() + Bytes({0x11, 0, 0, 0, 0, 0, 0, 0, 9, 0xFF, 0xFF});
  raw += std::string(65535, '\0') + Bytes({0x01, 0x01});
  auto r = ParseExec(raw);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption) << r.status().ToString();
  EXPECT_NE(r.status().message().find("byte 14: the class name (65535 bytes) holds 65535 raw "
                                      "0x00 bytes"),
            std::string::npos)
      << r.status().message();

  ExecData made;
  Status s = AddClass(made, {2, std::string(65536, 'a'), Probes("1")});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("65536 bytes of modified UTF-8; writeUTF writes at most 65535"),
            std::string::npos)
      << s.message();
  EXPECT_FALSE(AddClass(made, {3, std::string(40000, '\0'), Probes("1")}).ok());
  EXPECT_TRUE(made.classes.empty());
}

}  // namespace
}  // namespace roam::device::jacoco
