// RunProcess and FindOnPath: both streams kept apart, exit codes and signals, a program that is
// not there, output past the cap.
#include "base/process.h"

#include <stdlib.h>

#include <gtest/gtest.h>

namespace roam {
namespace {

TEST(Process, KeepsStdoutAndStderrApartAndTheExitCode) {
  Result<ProcessOutput> r = RunProcess({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->signal, 0);
}

TEST(Process, ReadsBothStreamsWhileTheyFill) {
  // More than a pipe holds on each stream: reading one only until it ends would hang.
  Result<ProcessOutput> r = RunProcess(
      {"sh", "-c", "head -c 300000 /dev/zero; head -c 300000 /dev/zero >&2; head -c 5 /dev/zero"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->out.size(), 300005u);
  EXPECT_EQ(r->err.size(), 300000u);
  EXPECT_EQ(r->exit_code, 0);
}

TEST(Process, SetsVariablesOverTheInheritedOnes) {
  ::setenv("ROAM_PROCESS_TEST_A", "inherited", 1);
  ::setenv("ROAM_PROCESS_TEST_AB", "kept", 1);
  Result<ProcessOutput> r = RunProcess(
      {"sh", "-c", "echo $ROAM_PROCESS_TEST_A $ROAM_PROCESS_TEST_AB $ROAM_PROCESS_TEST_C"},
      {"ROAM_PROCESS_TEST_A=set", "ROAM_PROCESS_TEST_C=new"});
  ::unsetenv("ROAM_PROCESS_TEST_A");
  ::unsetenv("ROAM_PROCESS_TEST_AB");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->out, "set kept new\n");
}

TEST(Process, StdinIsEmpty) {
  Result<ProcessOutput> r = RunProcess({"sh", "-c", "wc -c"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->out, "0\n");
}

TEST(Process, SaysWhichSignalEndedIt) {
  Result<ProcessOutput> r = RunProcess({"sh", "-c", "kill -TERM $$"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->exit_code, -1);
  EXPECT_EQ(r->signal, 15);
}

TEST(Process, AProgramThatIsNotThereIsNotFound) {
  Result<ProcessOutput> r = RunProcess({"roam-no-such-program-here", "x"});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotFound()) << r.status().ToString();
  EXPECT_NE(r.status().message().find("roam-no-such-program-here"), std::string::npos);
  EXPECT_FALSE(RunProcess({}).ok());
}

TEST(Process, StopsAProgramThatPrintsTooMuch) {
  Result<ProcessOutput> r = RunProcess({"sh", "-c", "yes"}, {}, 100000);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("printed more than 100000 bytes"), std::string::npos)
      << r.status().ToString();
}

TEST(Process, FindsProgramsOnPath) {
  const std::filesystem::path sh = FindOnPath("sh");
  ASSERT_FALSE(sh.empty());
  EXPECT_TRUE(sh.is_absolute()) << sh;
  EXPECT_EQ(FindOnPath(sh.string()), sh);
  EXPECT_TRUE(FindOnPath("roam-no-such-program-here").empty());
  EXPECT_TRUE(FindOnPath("/etc/passwd").empty());  // there, but not runnable
  EXPECT_TRUE(FindOnPath("").empty());
}

}  // namespace
}  // namespace roam
