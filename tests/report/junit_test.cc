#include "report/junit.h"

#include <map>
#include <string>

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "base/files.h"
#include "base/utf8.h"
#include "test_paths.h"

namespace roam::report {
namespace {

namespace fs = std::filesystem;
using roam::testing::RunCommand;

const char kFffd[] = "\xEF\xBF\xBD";

// A run with one of everything: a crash with a bug folder (steps.txt, bug.json with frames) and
// awkward text, a crash without a folder, a known ANR, a functional finding, two activities.
Summary MakeSummary() {
  Summary s;
  s.app = "apps/notes.json";
  s.package = "org.notes";
  s.device = "sim";
  s.strategy = "random";
  s.seed = 42;
  s.events = 500;
  s.wall_seconds = 12.5;
  s.stop_reason = "events";
  s.activities_total = 3;
  s.activities_covered = {"org.notes.Main", "org.notes.Edit"};
  s.units_total = 100;
  s.units_covered = 40;
  s.crashes.push_back({.kind = "crash",
                       .signature = "java.lang.IllegalStateException@org.notes.Edit.save",
                       .exception = "java.lang.IllegalStateException",
                       .message = "bad <&\" \xff byte \x01 end",
                       .count = 3,
                       .bug_id = "save_crash",
                       .first_step = 17,
                       .bug_dir = "bugs/B1"});
  s.crashes.push_back({.kind = "native_crash",
                       .signature = "SIGSEGV@libnotes.so",
                       .exception = "SIGSEGV",
                       .count = 1,
                       .first_step = 3});
  s.anrs.push_back({.kind = "anr",
                    .signature = "ANR@org.notes.Main",
                    .message = "Input dispatching timed out",
                    .count = 2,
                    .first_step = 40,
                    .bug_dir = "bugs/B2",
                    .known = true});
  s.functional = std::vector<FunctionalFinding>{{.id = "F1",
                                                 .key = "title lost after rotate",
                                                 .activity = "org.notes.Edit",
                                                 .explanation = "the title is empty after rotation",
                                                 .count = 2,
                                                 .first_seed = 5,
                                                 .bug_dir = "bugs/F1"}};
  return s;
}

// The run folder of MakeSummary: B1 with steps.txt and bug.json.
fs::path MakeRunDir(const std::string& name) {
  fs::path run = roam::testing::TempDir(name);
  fs::create_directories(run / "bugs/B1");
  EXPECT_TRUE(
      WriteFileAtomic(run / "bugs/B1/steps.txt",
                      "B1 crash: boom\n\nTo reproduce by hand:\n  1. tap \"Save\" on Edit\n\n"
                      "Replay: roam replay B1\n")
          .ok());
  EXPECT_TRUE(
      WriteJsonFile(run / "bugs/B1/bug.json",
                    {{"id", "B1"},
                     {"frames", {"org.notes.Edit.save(Edit.java:12)", "android.view.View.click"}}})
          .ok());
  return run;
}

pugi::xml_node FindCase(pugi::xml_node suite, const std::string& classname) {
  return suite.find_child_by_attribute("testcase", "classname", classname.c_str());
}

bool HaveXmllint() { return RunCommand("command -v xmllint >/dev/null 2>&1").code == 0; }

// xmllint's exit code and messages validating `file` against tests/report/junit.xsd.
roam::testing::CommandRun Validate(const fs::path& file) {
  const fs::path xsd = roam::testing::SourceDir() / "tests/report/junit.xsd";
  return RunCommand("xmllint --noout --schema '" + xsd.string() + "' '" + file.string() + "' 2>&1");
}

TEST(Junit, WritesCountsCasesAndFailureDetails) {
  const fs::path run = MakeRunDir("junit_cases");
  const fs::path file = run / "junit.xml";
  ASSERT_TRUE(WriteJunit(file, MakeSummary(), run, "roam explore").ok());

  auto raw = ReadFile(file);
  ASSERT_TRUE(raw.ok());
  EXPECT_TRUE(IsValidUtf8(*raw));
  EXPECT_EQ(raw->find('\x01'), std::string::npos);
  EXPECT_NE(raw->find("bad &lt;&amp;"), std::string::npos) << *raw;

  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_file(file.c_str())) << *raw;
  pugi::xml_node suite = doc.child("testsuites").child("testsuite");
  ASSERT_TRUE(suite);
  EXPECT_STREQ(suite.attribute("name").value(), "roam explore");
  EXPECT_EQ(suite.attribute("tests").as_int(), 6);  // 2 crashes, ANR, functional, 2 activities
  EXPECT_EQ(suite.attribute("failures").as_int(), 3);
  EXPECT_EQ(suite.attribute("skipped").as_int(), 1);
  EXPECT_EQ(suite.attribute("errors").as_int(), 0);
  EXPECT_STREQ(suite.attribute("time").value(), "12.500");

  std::map<std::string, std::string> props;
  for (pugi::xml_node p : suite.child("properties").children("property"))
    props[p.attribute("name").value()] = p.attribute("value").value();
  EXPECT_EQ(props["package"], "org.notes");
  EXPECT_EQ(props["seed"], "42");
  EXPECT_EQ(props["stop_reason"], "events");
  EXPECT_EQ(props["units_covered"], "40");
  EXPECT_EQ(props["units_total"], "100");

  pugi::xml_node crash = FindCase(suite, "roam.crash");
  ASSERT_TRUE(crash);
  EXPECT_STREQ(crash.attribute("name").value(),
               "java.lang.IllegalStateException@org.notes.Edit.save");
  pugi::xml_node failure = crash.child("failure");
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure.attribute("type").value(), "java.lang.IllegalStateException");
  const std::string message = failure.attribute("message").value();
  EXPECT_EQ(message, std::string("java.lang.IllegalStateException: bad <&\" ") + kFffd + " byte " +
                         kFffd + " end");
  const std::string text = failure.text().get();
  EXPECT_NE(text.find("found at step 17, seen 3 times"), std::string::npos) << text;
  EXPECT_NE(text.find("planted bug: save_crash"), std::string::npos) << text;
  // steps.txt's steps, without its own heading and replay line (said once, below).
  EXPECT_NE(text.find("\nTo reproduce by hand:\n  1. tap"), std::string::npos) << text;
  EXPECT_EQ(text.find("B1 crash: boom"), std::string::npos) << text;
  EXPECT_EQ(text.find("Replay: roam replay B1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("1. tap \"Save\" on Edit"), std::string::npos) << text;
  EXPECT_NE(text.find("\tat org.notes.Edit.save(Edit.java:12)\n\tat android.view.View.click"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("roam replay " + (run / "bugs/B1").string()), std::string::npos) << text;

  pugi::xml_node native = FindCase(suite, "roam.native_crash");
  ASSERT_TRUE(native);
  EXPECT_STREQ(native.child("failure").attribute("type").value(), "SIGSEGV");
  EXPECT_EQ(std::string(native.child("failure").text().get()).find("roam replay"),
            std::string::npos);

  pugi::xml_node anr = FindCase(suite, "roam.anr");
  ASSERT_TRUE(anr);
  EXPECT_FALSE(anr.child("failure"));
  EXPECT_STREQ(anr.child("skipped").attribute("message").value(), "known bug: ANR@org.notes.Main");

  pugi::xml_node functional = FindCase(suite, "roam.functional");
  ASSERT_TRUE(functional);
  EXPECT_STREQ(functional.attribute("name").value(), "title lost after rotate");
  EXPECT_STREQ(functional.child("failure").attribute("type").value(), "functional");
  const std::string ftext = functional.child("failure").text().get();
  EXPECT_NE(ftext.find("trace: bugs/F1/trace.jsonl"), std::string::npos) << ftext;
  EXPECT_NE(ftext.find("roam replay " + (run / "bugs/F1").string()), std::string::npos) << ftext;

  std::vector<std::string> activities;
  for (pugi::xml_node tc : suite.children("testcase"))
    if (std::string(tc.attribute("classname").value()) == "roam.activity") {
      EXPECT_FALSE(tc.first_child()) << "an activity reached is a passing case";
      activities.push_back(tc.attribute("name").value());
    }
  EXPECT_EQ(activities, (std::vector<std::string>{"org.notes.Main", "org.notes.Edit"}));
  EXPECT_FALSE(FindCase(suite, "roam.run"));
}

TEST(Junit, RunThatEndedOnADeviceErrorIsOneErrorCase) {
  const fs::path run = roam::testing::TempDir("junit_error");
  Summary s;
  s.stop_reason = "device error: adb: device offline";
  ASSERT_TRUE(WriteJunit(run / "junit.xml", s, run, "roam").ok());
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_file((run / "junit.xml").c_str()));
  pugi::xml_node suite = doc.child("testsuites").child("testsuite");
  EXPECT_EQ(suite.attribute("tests").as_int(), 1);
  EXPECT_EQ(suite.attribute("errors").as_int(), 1);
  EXPECT_EQ(suite.attribute("failures").as_int(), 0);
  pugi::xml_node error = FindCase(suite, "roam.run").child("error");
  ASSERT_TRUE(error);
  EXPECT_STREQ(error.attribute("message").value(), "device error: adb: device offline");
  EXPECT_STREQ(error.attribute("type").value(), "device error");
}

TEST(Junit, OutputValidatesAgainstTheSchema) {
  if (!HaveXmllint())
    GTEST_SKIP() << "xmllint is not on PATH (Debian: apt-get install libxml2-utils)";
  const fs::path run = MakeRunDir("junit_valid");
  ASSERT_TRUE(WriteJunit(run / "junit.xml", MakeSummary(), run, "roam explore").ok());
  auto r = Validate(run / "junit.xml");
  EXPECT_EQ(r.code, 0) << r.out;

  Summary failed = MakeSummary();
  failed.stop_reason = "write error: disk full";
  failed.functional.reset();
  ASSERT_TRUE(WriteJunit(run / "error.xml", failed, run, "roam").ok());
  r = Validate(run / "error.xml");
  EXPECT_EQ(r.code, 0) << r.out;

  ASSERT_TRUE(WriteJunit(run / "empty.xml", Summary{}, run, "").ok());
  r = Validate(run / "empty.xml");
  EXPECT_EQ(r.code, 0) << r.out;
}

// The schema is not a rubber stamp: each slip fails, while the same file without it passes.
TEST(Junit, SchemaRejectsBrokenFiles) {
  if (!HaveXmllint())
    GTEST_SKIP() << "xmllint is not on PATH (Debian: apt-get install libxml2-utils)";
  const fs::path dir = roam::testing::TempDir("junit_broken");
  auto doc = [](const std::string& suite_attrs, const std::string& cases) {
    return "<?xml version=\"1.0\"?>\n<testsuites><testsuite " + suite_attrs + ">" + cases +
           "</testsuite></testsuites>\n";
  };
  const std::string suite = "name=\"s\" tests=\"1\"";
  const std::string good_case =
      "<testcase name=\"t\" classname=\"c\"><failure message=\"m\"/>"
      "</testcase>";
  ASSERT_TRUE(WriteFileAtomic(dir / "good.xml", doc(suite, good_case)).ok());
  auto r = Validate(dir / "good.xml");
  ASSERT_EQ(r.code, 0) << r.out;

  const std::map<std::string, std::string> broken = {
      {"no_name", doc(suite, "<testcase classname=\"c\"/>")},
      {"no_tests", doc("name=\"s\"", good_case)},
      {"unknown_element", doc(suite, "<testcase name=\"t\" classname=\"c\"><crash/></testcase>")},
      {"two_outcomes",
       doc(suite, "<testcase name=\"t\" classname=\"c\"><failure/><skipped/></testcase>")},
      {"bad_count", doc("name=\"s\" tests=\"-1\"", good_case)},
      {"unknown_attribute", doc(suite, "<testcase name=\"t\" classname=\"c\" colour=\"red\"/>")},
  };
  for (const auto& [name, text] : broken) {
    const fs::path file = dir / (name + ".xml");
    ASSERT_TRUE(WriteFileAtomic(file, text).ok());
    EXPECT_NE(Validate(file).code, 0) << name << " passed the schema:\n" << text;
  }
}

}  // namespace
}  // namespace roam::report
