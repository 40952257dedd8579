// JaCoCo's own figures for `roam coverage report`: RoamJacocoReport.java (compiled into roam)
// runs JaCoCo's analyzer, and with --html its HTML report, under java with Debian's
// libjacoco-java jars; its JSON answer is read into a JacocoReport. Finding java and the jars,
// and saying what to install when they are missing, is here too. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/process.h"
#include "base/status.h"
#include "report/code_coverage.h"

namespace roam::cli {

using report::CoverageCounter;
using report::CoverageCounters;

struct NodeCoverage {
  std::string name;    // VM names: "com/example/app" for a package ("" the default one),
                       // "com/example/app/Main$1" for a class
  std::string source;  // a class's source file name ("Main.java"); "" for packages or none
  CoverageCounters counters;
};

struct JacocoReport {
  CoverageCounters total;
  std::vector<NodeCoverage> packages;  // by name
  std::vector<NodeCoverage> classes;   // by name; only classes with code (JaCoCo's rule)
  int64_t exec_classes = 0;            // classes in the exec data
  int64_t matched = 0;                 // ... whose class file is the one that ran
  // Classes of the exec data with a class file of the same name but other bytes (another build:
  // JaCoCo identifies a class by a checksum of its class file), and with none at all.
  std::vector<std::string> mismatched, not_found;
};

// RoamJacocoReport.java's answer; errors name the field ("total.line.missed: ...").
Result<JacocoReport> ParseJacocoReport(std::string_view json);
// The same shape as ParseJacocoReport reads.
nlohmann::json ToJson(const JacocoReport& report);

// The JaCoCo and ASM jars the tool compiles and runs against, by base name; a folder may hold
// each as NAME.jar (Debian) or NAME-VERSION.jar (Maven Central).
inline constexpr std::string_view kJacocoJars[] = {"org.jacoco.core", "org.jacoco.report", "asm",
                                                   "asm-commons", "asm-tree"};
inline constexpr std::string_view kJacocoInstall =
    "apt-get install default-jdk-headless libjacoco-java";

struct JacocoTools {
  std::filesystem::path java;               // the launcher: Java 11 or later
  std::vector<std::filesystem::path> jars;  // kJacocoJars, in that order
};

// `java_home`/bin/java when java_home is given (JAVA_HOME), else java on PATH; the jars in
// `jar_dir`, which `jar_dir_origin` names for messages ("/usr/share/java", "ROAM_JACOCO_JARS").
// Unavailable, saying what is missing and what to install, when either is.
Result<JacocoTools> FindJacocoTools(const std::filesystem::path& java_home,
                                    const std::filesystem::path& jar_dir,
                                    std::string_view jar_dir_origin);

// java and the jars where the environment says: JAVA_HOME, ROAM_JACOCO_JARS, else Debian's
// (/usr/share/java).
Result<JacocoTools> JacocoToolsFromEnvironment();

struct JacocoReportRequest {
  std::filesystem::path exec;                      // an exec file Roam's reader accepted
  std::vector<std::filesystem::path> classfiles;   // folders, jars or class files; one at least
  std::vector<std::filesystem::path> sourcefiles;  // source folders, for --html
  std::filesystem::path html;                      // "": no HTML; else the folder to write
  std::string title = "coverage";                  // the HTML report's name
};

// Writes the tool into a temporary folder, runs it through `run` and reads its answer. Inputs
// JaCoCo refuses (a class file it cannot read, two builds of one class) are InvalidArgument in
// its words; a java too old or jars of another JaCoCo say so.
Result<JacocoReport> RunJacocoReport(const JacocoTools& tools, const JacocoReportRequest& request,
                                     const ProcessRunner& run);

// RoamJacocoReport.java's text (generated from src/cli/jacoco/ by CMake).
std::string_view JacocoReportJava();

}  // namespace roam::cli
