// `roam coverage report`: JaCoCo's figures of a tiny Java program run under JaCoCo's agent must
// be those of JaCoCo's own XML report of the same files (made here by a few lines of Java with
// XMLFormatter, not by the command); --html writes JaCoCo's report; class files of another build
// are said in words. Those tests skip when java, javac or Debian's libjacoco-java (or
// ROAM_JACOCO_JARS) are absent. Misuse, a missing java or jars, and the tool's answers (through
// a fake runner) are checked without Java.
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "base/files.h"
#include "cli/class_coverage.h"
#include "cli/jacoco_report.h"
#include "device/jacoco/exec_data.h"
#include "report/run_report.h"
#include "report/summary.h"
#include "test_paths.h"

namespace roam::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::RunCommand;
using testing::RunRoam;

std::string Q(const fs::path& p) { return "'" + p.string() + "'"; }

// JaCoCo's XML report of an exec file and a class folder, by JaCoCo's own classes; also extracts
// the agent's jar.
constexpr std::string_view kXmlTool = R"(import java.io.*;
import org.jacoco.core.analysis.*;
import org.jacoco.core.tools.ExecFileLoader;
import org.jacoco.report.*;
import org.jacoco.report.xml.XMLFormatter;
public class JacocoXml {
  public static void main(String[] args) throws Exception {
    if (args[0].equals("extract")) { org.jacoco.agent.AgentJar.extractTo(new File(args[1])); return; }
    ExecFileLoader loader = new ExecFileLoader();
    loader.load(new File(args[0]));
    CoverageBuilder builder = new CoverageBuilder();
    new Analyzer(loader.getExecutionDataStore(), builder).analyzeAll(new File(args[1]));
    try (OutputStream out = new FileOutputStream(args[2])) {
      IReportVisitor v = new XMLFormatter().createVisitor(out);
      v.visitInfo(loader.getSessionInfoStore().getInfos(),
                  loader.getExecutionDataStore().getContents());
      v.visitBundle(builder.getBundle("demo"), new MultiSourceFileLocator(4));
      v.visitEnd();
    }
  }
}
)";

// Run over [args[0], args[1]): some branches taken, some not; Unused never loads. Changed
// bodies make other builds of App and Helper.
constexpr std::string_view kApp = R"(package demo;
public class App {
  static int classify(int x) {
    if (x % 3 == 0) return 0;
    if (x % 3 == 1) return 1;
    return 2;
  }
  public static void main(String[] args) {
    int sum = 0;
    for (int i = Integer.parseInt(args[0]); i < Integer.parseInt(args[1]); i++)
      sum += classify(i) + Helper.twice(i);
    System.out.println(sum);
  }
}
class Helper {
  static int twice(int x) { return x > 1 ? 2 * x : x; }
  static int never() { return 7; }
}
class Unused {
  int pick(boolean b) { return b ? 1 : 2; }
}
)";

struct Demo {
  std::string skip;  // why the tests skip; "" when ready
  std::string fail;  // set-up went wrong although everything was there
  fs::path dir;
  fs::path exec, classes, sources;  // the run's exec file, its class folder, its source folder
  fs::path other_app;               // App and Helper changed: both of another build
  fs::path other_helper;            // Helper changed, App as it ran
  fs::path elsewhere;               // classes of another program
  std::string classpath;            // the JaCoCo jars, for the XML tool
};

std::string Run(const std::string& command, std::string& fail) {
  testing::CommandRun r = RunCommand(command + " 2>&1");
  if (r.code != 0 && fail.empty()) fail = command + " failed: " + r.out;
  return r.out;
}

// Compiles the program (three builds), extracts the agent and runs the program under it, once.
const Demo& DemoOnce() {
  static const Demo demo = [] {
    Demo d;
    if (RunCommand("command -v java && command -v javac && command -v timeout").code != 0) {
      d.skip = "java, javac or timeout is not installed";
      return d;
    }
    const char* env = std::getenv("ROAM_JACOCO_JARS");
    const fs::path jars = env != nullptr && *env != '\0' ? env : "/usr/share/java";
    for (std::string_view jar : {"org.jacoco.core", "org.jacoco.report", "org.jacoco.agent", "asm",
                                 "asm-commons", "asm-tree"}) {
      const fs::path p = jars / (std::string(jar) + ".jar");
      if (!fs::exists(p)) {
        d.skip = "no " + p.string() + " (apt-get install libjacoco-java)";
        return d;
      }
      d.classpath += (d.classpath.empty() ? "" : ":") + p.string();
    }
    d.dir = testing::TempDir("coverage_report");
    d.sources = d.dir / "src";
    d.classes = d.dir / "classes";
    d.other_app = d.dir / "other_app";
    d.other_helper = d.dir / "other_helper";
    d.elsewhere = d.dir / "elsewhere";
    d.exec = d.dir / "demo.exec";
    std::error_code ec;
    fs::create_directories(d.sources / "demo", ec);
    fs::create_directories(d.dir / "changed_app" / "demo", ec);
    fs::create_directories(d.dir / "changed_helper" / "demo", ec);
    std::string app(kApp), changed_app = app, changed_helper = app;
    changed_app.replace(changed_app.find("return 2;"), 9, "return 3;");
    changed_app.replace(changed_app.find("2 * x"), 5, "4 * x");
    changed_helper.replace(changed_helper.find("2 * x"), 5, "3 * x");
    Status s = WriteFileAtomic(d.dir / "JacocoXml.java", std::string(kXmlTool));
    if (s.ok()) s = WriteFileAtomic(d.sources / "demo" / "App.java", app);
    if (s.ok()) s = WriteFileAtomic(d.dir / "changed_app" / "demo" / "App.java", changed_app);
    if (s.ok()) s = WriteFileAtomic(d.dir / "changed_helper" / "demo" / "App.java", changed_helper);
    if (s.ok())
      s = WriteFileAtomic(d.dir / "Other.java", "public class Other { int f() { return 1; } }\n");
    if (!s.ok()) {
      d.fail = s.ToString();
      return d;
    }
    // --release 11: class files every JaCoCo 0.8 reads.
    const auto javac = [&](const fs::path& src, const fs::path& out) {
      return fmt::format("timeout 120 javac --release 11 -d {} {}", Q(out),
                         Q(src / "demo/App.java"));
    };
    Run(javac(d.sources, d.classes), d.fail);
    Run(javac(d.dir / "changed_app", d.other_app), d.fail);
    Run(javac(d.dir / "changed_helper", d.other_helper), d.fail);
    Run(fmt::format("timeout 120 javac --release 11 -d {} {}", Q(d.elsewhere),
                    Q(d.dir / "Other.java")),
        d.fail);
    Run(fmt::format("timeout 120 java -cp {} {} extract {}", Q(d.classpath),
                    Q(d.dir / "JacocoXml.java"), Q(d.dir / "agent.jar")),
        d.fail);
    Run(fmt::format("timeout 60 java -javaagent:{}=destfile={} -cp {} demo.App 0 2",
                    Q(d.dir / "agent.jar"), Q(d.exec), Q(d.classes)),
        d.fail);
    return d;
  }();
  return demo;
}

class CoverageReportReal : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!demo.skip.empty()) GTEST_SKIP() << demo.skip;
    ASSERT_EQ(demo.fail, "");
  }
  const Demo& demo = DemoOnce();
};

// The top-level counters of JaCoCo's XML report: {"LINE": {missed, covered}, ...}.
std::map<std::string, std::pair<int64_t, int64_t>> XmlTotals(const Demo& d, const fs::path& exec,
                                                             const fs::path& classes) {
  const fs::path xml = d.dir / "report.xml";
  std::string fail;
  Run(fmt::format("timeout 120 java -cp {} {} {} {} {}", Q(d.classpath),
                  Q(d.dir / "JacocoXml.java"), Q(exec), Q(classes), Q(xml)),
      fail);
  EXPECT_EQ(fail, "");
  pugi::xml_document doc;
  EXPECT_TRUE(doc.load_file(xml.c_str())) << xml;
  std::map<std::string, std::pair<int64_t, int64_t>> totals;
  for (pugi::xml_node c : doc.child("report").children("counter")) {
    totals[c.attribute("type").value()] = {c.attribute("missed").as_llong(),
                                           c.attribute("covered").as_llong()};
  }
  return totals;
}

TEST_F(CoverageReportReal, CountsAreJacocosOwnReport) {
  auto r = RunCommand(fmt::format("{} coverage report {} --classfiles {} --json",
                                  testing::RoamBinary(), Q(demo.exec), Q(demo.classes)));
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  const auto xml = XmlTotals(demo, demo.exec, demo.classes);
  ASSERT_EQ(xml.size(), 6u);  // INSTRUCTION, BRANCH, LINE, COMPLEXITY, METHOD, CLASS
  for (const auto& [type, key] : {std::pair{"LINE", "line"},
                                  {"BRANCH", "branch"},
                                  {"METHOD", "method"},
                                  {"CLASS", "class"},
                                  {"INSTRUCTION", "instruction"}}) {
    SCOPED_TRACE(type);
    ASSERT_TRUE(xml.count(type));
    EXPECT_EQ(j["total"][key]["missed"], xml.at(type).first) << r.out;
    EXPECT_EQ(j["total"][key]["covered"], xml.at(type).second) << r.out;
  }
  // The program ran under the agent, and one input leaves code unrun: neither figure is trivial.
  EXPECT_GT(j["total"]["line"]["covered"].get<int>(), 0);
  EXPECT_GT(j["total"]["line"]["missed"].get<int>(), 0);
  EXPECT_GT(j["total"]["branch"]["missed"].get<int>(), 0);
  EXPECT_EQ(j["total"]["class"]["missed"], 1);  // Unused
  EXPECT_EQ(j["exec_classes"], 2);              // App and Helper ran
  EXPECT_EQ(j["matched"], 2);
  EXPECT_EQ(j["mismatched"].size(), 0u);
  ASSERT_EQ(j["packages"].size(), 1u);
  EXPECT_EQ(j["packages"][0]["name"], "demo");
  ASSERT_EQ(j["classes"].size(), 3u);
  EXPECT_EQ(j["classes"][0]["name"], "demo/App");
  EXPECT_EQ(j["classes"][0]["source"], "App.java");
  EXPECT_EQ(j["html"], nullptr);
}

TEST_F(CoverageReportReal, ARunFolderGivesItsCoverageExecAsATable) {
  const fs::path run = demo.dir / "run1";
  fs::create_directories(run);
  fs::copy_file(demo.exec, run / "coverage.exec", fs::copy_options::overwrite_existing);
  auto r = RunRoam(fmt::format("coverage report {} --classfiles {}", Q(run), Q(demo.classes)));
  ASSERT_EQ(r.code, 0) << r.out;
  const auto xml = XmlTotals(demo, demo.exec, demo.classes);
  const auto row = [&](const char* name, const char* type) {
    const auto [missed, covered] = xml.at(type);
    return fmt::format("  {:<14}{:>9}{:>9}{:>9}", name, covered, missed, missed + covered);
  };
  EXPECT_NE(r.out.find(row("lines", "LINE")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(row("branches", "BRANCH")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(row("methods", "METHOD")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 of 2 classes that ran matched their class files"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find((run / "coverage.exec").string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  demo "), std::string::npos) << r.out;  // the package's row
}

// Issue 61: a run given --classfiles gets JaCoCo's own figures in summary.json and report.html
// (here a run folder around the demo's exec, as a run on a device leaves it); a run without
// coverage.exec gets a warning, not figures.
TEST_F(CoverageReportReal, ARunGivenClassFilesKeepsJacocosFiguresInItsSummaryAndReport) {
  const fs::path run = demo.dir / "run_classfiles";
  fs::create_directories(run);
  report::Summary summary;
  summary.app = "demo";
  summary.events = 10;
  ASSERT_TRUE(report::WriteSummary(run / "summary.json", summary).ok());
  ASSERT_TRUE(report::WriteRunReport(run).ok());
  EXPECT_FALSE(ReportClassCoverage("test", run, {demo.classes.string()}));  // no coverage.exec
  fs::copy_file(demo.exec, run / "coverage.exec", fs::copy_options::overwrite_existing);
  ASSERT_TRUE(ReportClassCoverage("test", run, {demo.classes.string()}));
  auto read = report::ReadSummary(run / "summary.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_TRUE(read->code_coverage.has_value());
  const auto xml = XmlTotals(demo, demo.exec, demo.classes);
  EXPECT_EQ(read->code_coverage->line.missed, xml.at("LINE").first);
  EXPECT_EQ(read->code_coverage->line.covered, xml.at("LINE").second);
  EXPECT_EQ(read->code_coverage->branch.covered, xml.at("BRANCH").second);
  EXPECT_EQ(read->code_coverage->method.covered, xml.at("METHOD").second);
  auto html = ReadFile(run / "report.html");
  ASSERT_TRUE(html.ok());
  EXPECT_NE(html->find(fmt::format(
                "of {} ({:.0f}%): JaCoCo, from the class files",
                xml.at("LINE").first + xml.at("LINE").second,
                100.0 * xml.at("LINE").second / (xml.at("LINE").first + xml.at("LINE").second))),
            std::string::npos);
}

TEST_F(CoverageReportReal, WritesJacocosHtmlReportWithTheSources) {
  const fs::path html = demo.dir / "html";
  const std::string args =
      fmt::format("coverage report {} --classfiles {} --sourcefiles {} --html {}", Q(demo.exec),
                  Q(demo.classes), Q(demo.sources), Q(html));
  auto r = RunRoam(args);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::is_regular_file(html / "index.html"));
  EXPECT_TRUE(fs::is_regular_file(html / "demo" / "App.java.html"));  // the source, with lines
  EXPECT_TRUE(fs::is_directory(html / "jacoco-resources"));
  EXPECT_NE(r.out.find("HTML report: " + (html / "index.html").string()), std::string::npos)
      << r.out;
  Result<std::string> index = ReadFile(html / "index.html");
  ASSERT_TRUE(index.ok());
  EXPECT_NE(index->find("demo"), std::string::npos);
  // Again over the first report: replaced, and no temporary folder left beside it.
  r = RunRoam(args);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::is_regular_file(html / "index.html"));
  for (const auto& entry : fs::directory_iterator(demo.dir)) {
    EXPECT_EQ(entry.path().filename().string().find("html."), std::string::npos) << entry.path();
  }
}

TEST_F(CoverageReportReal, ClassFilesOfAnotherBuildAreRefusedInWords) {
  auto r =
      RunRoam(fmt::format("coverage report {} --classfiles {}", Q(demo.exec), Q(demo.other_app)));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("none of the 2 classes in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 have class files of another build (demo/App, demo/Helper)"),
            std::string::npos)
      << r.out;
  // A folder of another program's classes: the exec's classes are in none of them.
  r = RunRoam(fmt::format("coverage report {} --classfiles {}", Q(demo.exec), Q(demo.elsewhere)));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("2 are in no --classfiles folder"), std::string::npos) << r.out;
}

TEST_F(CoverageReportReal, OneClassOfAnotherBuildIsAWarningAndCountsAsMissed) {
  auto r = RunCommand(fmt::format("{} coverage report {} --classfiles {} --json 2>{}",
                                  testing::RoamBinary(), Q(demo.exec), Q(demo.other_helper),
                                  Q(demo.dir / "warning.txt")));
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["matched"], 1);
  EXPECT_EQ(j["mismatched"], json({"demo/Helper"}));
  const auto xml = XmlTotals(demo, demo.exec, demo.other_helper);  // JaCoCo agrees
  EXPECT_EQ(j["total"]["line"]["covered"], xml.at("LINE").second);
  Result<std::string> warning = ReadFile(demo.dir / "warning.txt");
  ASSERT_TRUE(warning.ok());
  EXPECT_NE(warning->find("warning: 1 class that ran has class files of another build, so JaCoCo "
                          "counts it as not covered: demo/Helper"),
            std::string::npos)
      << *warning;
}

TEST_F(CoverageReportReal, TwoBuildsOfOneClassAreRefused) {
  auto r = RunRoam(fmt::format("coverage report {} --classfiles {} {}", Q(demo.exec),
                               Q(demo.classes), Q(demo.other_app)));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("two different class files of demo/"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("give the class folders of one build only"), std::string::npos) << r.out;
}

// Without Java: what a user gets wrong, and what is missing.
struct Inputs {
  fs::path dir = testing::TempDir("coverage_report_misuse");
  fs::path exec = dir / "a.exec", classes = dir / "classes";
  Inputs() {
    device::jacoco::ExecData d;
    d.sessions = {{"s", 1000, 2000}};
    EXPECT_TRUE(device::jacoco::AddClass(d, {0x10, "demo/App", {true, false}}).ok());
    EXPECT_TRUE(WriteFileAtomic(exec, device::jacoco::WriteExec(d)).ok());
    fs::create_directories(classes);
  }
};

TEST(CoverageReport, MisuseIsExit2WithTheReason) {
  Inputs in;
  const auto expect = [](const std::string& args, const std::string& says) {
    auto r = RunRoam("coverage report " + args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(says), std::string::npos) << args << "\n" << r.out;
  };
  expect("", "RUN_OR_EXEC is required");
  expect(Q(in.exec), "--classfiles is required");
  expect(Q(in.exec) + " --classfiles " + Q(in.dir / "nope"),
         "--classfiles " + (in.dir / "nope").string() + ": no such folder or file");
  expect(Q(in.dir / "none.exec") + " --classfiles " + Q(in.classes), "none.exec");
  ASSERT_TRUE(WriteFileAtomic(in.dir / "text.exec", "not exec data\n").ok());
  expect(Q(in.dir / "text.exec") + " --classfiles " + Q(in.classes), "text.exec: ");
  fs::create_directories(in.dir / "run");
  expect(Q(in.dir / "run") + " --classfiles " + Q(in.classes),
         "has no coverage.exec: the run recorded no JaCoCo coverage");
  expect(Q(in.exec) + " --classfiles " + Q(in.classes) + " --sourcefiles " + Q(in.classes),
         "--sourcefiles requires --html");
  expect(Q(in.exec) + " --classfiles " + Q(in.classes) + " --html " + Q(in.dir),
         "holds files that are not a JaCoCo report");
  expect(Q(in.exec) + " --classfiles " + Q(in.classes) + " --html " + Q(in.exec), "not a folder");
  expect(Q(in.exec) + " --classfiles " + Q(in.classes) + " --jsn", "did you mean \"--json\"");
}

TEST(CoverageReport, HelpSaysWhatItNeeds) {
  auto r = RunRoam("coverage report --help");
  EXPECT_EQ(r.code, 0) << r.out;
  for (const char* says : {"--classfiles", "--sourcefiles", "--html", "--json", "ROAM_JACOCO_JARS",
                           "apt-get install default-jdk-headless libjacoco-java"}) {
    EXPECT_NE(r.out.find(says), std::string::npos) << says << "\n" << r.out;
  }
  r = RunRoam("coverage");
  EXPECT_NE(r.out.find("report"), std::string::npos) << r.out;
}

TEST(CoverageReport, WithoutJavaOrJarsSaysWhatToInstall) {
  Inputs in;
  const std::string report = fmt::format("{} coverage report {} --classfiles {} 2>&1",
                                         testing::RoamBinary(), Q(in.exec), Q(in.classes));
  auto r = RunCommand("env -u JAVA_HOME PATH=" + in.dir.string() + " " + report);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("no java on PATH"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("apt-get install default-jdk-headless libjacoco-java"), std::string::npos)
      << r.out;

  // A java that is there, and a folder without JaCoCo's jars.
  const fs::path bin = in.dir / "bin", jars = in.dir / "jars";
  fs::create_directories(bin);
  fs::create_directories(jars);
  ASSERT_TRUE(WriteFileAtomic(bin / "java", "#!/bin/sh\nexit 0\n").ok());
  fs::permissions(bin / "java", fs::perms::owner_all);
  ASSERT_TRUE(WriteFileAtomic(jars / "asm.jar", "").ok());
  r = RunCommand(fmt::format("env -u JAVA_HOME PATH={}:/usr/bin:/bin ROAM_JACOCO_JARS={} {}",
                             bin.string(), jars.string(), report));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("JaCoCo's jars are not in " + jars.string() + " (ROAM_JACOCO_JARS)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("org.jacoco.core.jar, org.jacoco.report.jar, asm-commons.jar, "
                       "asm-tree.jar missing"),
            std::string::npos)
      << r.out;

  // Every jar there (Maven Central's names), and a java older than 11.
  for (const char* jar : {"org.jacoco.core-0.8.11.jar", "org.jacoco.report-0.8.11.jar",
                          "asm-commons-9.6.jar", "asm-tree-9.6.jar"}) {
    ASSERT_TRUE(WriteFileAtomic(jars / jar, "").ok());
  }
  ASSERT_TRUE(WriteFileAtomic(bin / "java",
                              "#!/bin/sh\necho 'Error: Could not find or load main class "
                              "RoamJacocoReport.java' >&2\nexit 1\n")
                  .ok());
  fs::permissions(bin / "java", fs::perms::owner_all);  // a new file, written over the first
  r = RunCommand(fmt::format("env -u JAVA_HOME PATH={}:/usr/bin:/bin ROAM_JACOCO_JARS={} {}",
                             bin.string(), jars.string(), report));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("is older than Java 11"), std::string::npos) << r.out;
}

// The tool's answer through a fake runner: what RunJacocoReport hands java and makes of its
// answers.
TEST(CoverageReport, RunsTheToolItCarriesAndReadsItsAnswer) {
  const fs::path dir = testing::TempDir("coverage_report_fake");
  JacocoTools tools{.java = "/opt/jdk/bin/java", .jars = {"/j/core.jar", "/j/report.jar"}};
  JacocoReportRequest request{.exec = dir / "a.exec",
                              .classfiles = {dir / "c1", dir / "c2.jar"},
                              .sourcefiles = {dir / "src"},
                              .html = dir / "html",
                              .title = "run1"};
  JacocoReport answer;
  answer.total.line = {.missed = 5, .covered = 8};
  answer.total.klass = {.missed = 1, .covered = 2};
  answer.packages = {{.name = "demo", .source = "", .counters = answer.total}};
  answer.classes = {{.name = "demo/App", .source = "App.java", .counters = answer.total}};
  answer.exec_classes = 3;
  answer.matched = 1;
  answer.mismatched = {"demo/Helper"};
  answer.not_found = {"x/\"Y\""};
  std::vector<std::string> seen, seen_env;
  std::string tool_text;
  ProcessRunner fake = [&](const std::vector<std::string>& argv,
                           const std::vector<std::string>& env) -> Result<ProcessOutput> {
    seen = argv;
    seen_env = env;
    Result<std::string> text = ReadFile(argv.at(4));  // the tool, there while java runs
    tool_text = text.ok() ? *text : text.status().ToString();
    return ProcessOutput{.exit_code = 0, .out = JsonLine(ToJson(answer)) + "\n"};
  };
  Result<JacocoReport> r = RunJacocoReport(tools, request, fake);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(ToJson(*r), ToJson(answer));
  EXPECT_EQ(tool_text, JacocoReportJava());
  EXPECT_NE(tool_text.find("public class RoamJacocoReport"), std::string::npos);
  EXPECT_FALSE(fs::exists(seen.at(4)));  // the temporary folder goes with the run
  const std::vector<std::string> expected = {"/opt/jdk/bin/java",
                                             "-XX:TieredStopAtLevel=1",
                                             "-cp",
                                             "/j/core.jar:/j/report.jar",
                                             seen.at(4),
                                             "--exec",
                                             (dir / "a.exec").string(),
                                             "--name",
                                             "run1",
                                             "--classfiles",
                                             (dir / "c1").string(),
                                             "--classfiles",
                                             (dir / "c2.jar").string(),
                                             "--sourcefiles",
                                             (dir / "src").string(),
                                             "--html",
                                             (dir / "html").string()};
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(seen_env, std::vector<std::string>{"LC_ALL=C.UTF-8"});

  // JaCoCo refusing the inputs (exit 2): its words, as a usage error.
  fake = [](const std::vector<std::string>&,
            const std::vector<std::string>&) -> Result<ProcessOutput> {
    return ProcessOutput{.exit_code = 2, .err = "JaCoCo cannot analyze c1/A.class: bad\n"};
  };
  r = RunJacocoReport(tools, request, fake);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "JaCoCo cannot analyze c1/A.class: bad");
  // Jars of a JaCoCo the tool does not compile against.
  fake = [](const std::vector<std::string>&,
            const std::vector<std::string>&) -> Result<ProcessOutput> {
    return ProcessOutput{.exit_code = 1,
                         .err =
                             "/tmp/x/RoamJacocoReport.java:20: error: cannot find symbol\n"
                             "import org.jacoco.core.analysis.Analyzer;\n1 error\n"
                             "error: compilation failed\n"};
  };
  r = RunJacocoReport(tools, request, fake);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("does not compile against the jars in /j"), std::string::npos)
      << r.status().ToString();
  EXPECT_NE(r.status().message().find("20: error: cannot find symbol"), std::string::npos);
  // An answer that is not the tool's.
  fake = [](const std::vector<std::string>&,
            const std::vector<std::string>&) -> Result<ProcessOutput> {
    return ProcessOutput{.exit_code = 0, .out = "{\"total\": {\"line\": 3}}"};
  };
  r = RunJacocoReport(tools, request, fake);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("RoamJacocoReport's answer: total.instruction: missing"),
            std::string::npos)
      << r.status().ToString();
}

}  // namespace
}  // namespace roam::cli
