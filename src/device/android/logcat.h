// logcat: an incremental parser of `logcat` output into the device's Events. Feed it bytes as
// they arrive (any chunking; a partial line is kept until its newline); it recognises
//   * Java crashes: "FATAL EXCEPTION: thread" blocks with the "Process: PKG, PID: N" line, the
//     exception line (message continued on following lines), "at" frames, "Caused by:" and
//     "Suppressed:" sections (their frames are appended after the top ones) -> kCrash;
//   * ANRs: "ANR in PKG (...)" with "Reason: ..." -> kAnr;
//   * native crashes: the tombstone block that starts with "*** *** *** ***", with its
//     "pid: N, tid: N, name: X  >>> PKG <<<" line, "signal N (SIGX)" line and "#NN pc" backtrace
//     -> kNativeCrash (exception "SIGX", frames "lib.so (symbol)" without addresses).
// Line formats: threadtime, time, brief, tag, process, Android Studio's, and lines with no
// prefix at all (stacks pasted into bug reports). A Parser is used by one thread at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "device/device.h"

namespace roam::device::android {

struct LogcatOptions {
  // Only events whose process is this package (or one of its ":remote" processes) are returned;
  // "" returns every package's events. Default: "" (AndroidDevice sets the package under test).
  std::string package;
  // Also report a stack trace that has no "FATAL EXCEPTION" header: an exception line followed
  // by "at" frames (what crash reports pasted into bug trackers hold, or System.err stacks).
  // Off for a live device, where such stacks are caught exceptions, not crashes. Default: false.
  bool bare_stacks = false;
  // Lines kept in Event::raw at most (a tombstone can run to thousands). Default: 200.
  size_t max_raw_lines = 200;
};

// One parsed logcat line.
struct LogLine {
  char level = 0;        // 'V', 'D', 'I', 'W', 'E', 'F', 'A'; 0 without a prefix
  std::string_view tag;  // "AndroidRuntime"; empty without a prefix
  int pid = -1;          // -1 when the format has none
  std::string_view message;
};
// Splits one line (no newline) into prefix fields and message; never fails.
LogLine ParseLogLine(std::string_view line);

class LogcatParser {
 public:
  explicit LogcatParser(LogcatOptions options = {});
  ~LogcatParser();
  LogcatParser(LogcatParser&&) noexcept;
  LogcatParser& operator=(LogcatParser&&) noexcept;

  // Parses the complete lines of `chunk` (plus the partial line kept from before); appends the
  // events whose blocks ended to `out`.
  void Feed(std::string_view chunk, std::vector<Event>& out);
  // Ends the open block, if any, as if a line outside it had come (the stream went quiet): a
  // crash whose last frame was the last line read is reported now instead of with the next line.
  void Flush(std::vector<Event>& out);
  // End of the stream: the partial line is parsed as a whole line, then Flush.
  void Finish(std::vector<Event>& out);
  // True while a crash, ANR or tombstone block is open (its end is not yet seen).
  bool InBlock() const;

 private:
  enum class BlockKind { kJava, kAnr, kNative };
  enum class Stage { kHeader, kMessage, kFrames, kCause };
  struct Block;
  // What a line does to the open block: ends it (the line is not part of it), continues it, or
  // completes it (the line is its last).
  enum class Fate { kEnds, kContinues, kCompletes };
  void Line(std::string_view line, std::vector<Event>& out);
  Fate ContinueJava(Block& b, std::string_view text);
  Fate ContinueAnr(Block& b, const LogLine& line, std::string_view text);
  Fate ContinueNative(Block& b, std::string_view text);
  void OpenIfStarts(const LogLine& line, std::string_view text, std::string_view raw_line);
  void Open(BlockKind kind, Stage stage, bool bare, const LogLine& line, std::string_view raw_line);
  void Keep(Block& b, std::string_view raw_line);
  void Emit(std::vector<Event>& out);
  bool Wanted(const Event& e) const;

  LogcatOptions options_;
  std::string partial_;
  std::string pending_package_;  // from "ACRA caught a X for PKG", for the next bare stack
  std::unique_ptr<Block> block_;
};

// Parses a whole log at once (Feed + Finish).
std::vector<Event> ParseLogcat(std::string_view text, const LogcatOptions& options = {});

// The `logcat -b events` tags that say an activity was resumed, written by the app's process as
// ActivityThread resumes it: am_on_resume_called before API 29, wm_on_resume_called after.
inline constexpr std::string_view kResumeEventTags[] = {"wm_on_resume_called",
                                                        "am_on_resume_called"};
// The activity of one such line, in any logcat format ("... I wm_on_resume_called:
// [TOKEN,CLASS,REASON]", "[USER,CLASS]", "[USER,CLASS,REASON]", a component "PKG/.CLASS"),
// fully qualified; nullopt for any other line.
std::optional<std::string> ResumedActivity(std::string_view line);

}  // namespace roam::device::android
