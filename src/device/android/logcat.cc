#include "device/android/logcat.h"

#include <cctype>

#include "base/utf8.h"
#include "device/android/device_text.h"

namespace roam::device::android {

namespace {

bool IsLevel(char c) {
  return c == 'V' || c == 'D' || c == 'I' || c == 'W' || c == 'E' || c == 'F' || c == 'A';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSpace(char c) { return c == ' ' || c == '\t'; }

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// A cursor over one line for the prefix grammar.
struct Cursor {
  std::string_view s;
  size_t p = 0;
  bool Digits(size_t min, size_t max, int* value = nullptr) {
    size_t start = p;
    int v = 0;
    while (p < s.size() && IsDigit(s[p]) && p - start < max) v = v * 10 + (s[p++] - '0');
    if (p - start < min) {
      p = start;
      return false;
    }
    if (value) *value = v;
    return true;
  }
  bool Char(char c) {
    if (p < s.size() && s[p] == c) {
      ++p;
      return true;
    }
    return false;
  }
  size_t Spaces() {
    size_t start = p;
    while (p < s.size() && IsSpace(s[p])) ++p;
    return p - start;
  }
};

// "MM-DD HH:MM:SS.mmm" or "YYYY-MM-DD HH:MM:SS.mmm", then spaces. Leaves c.p alone on no match.
bool SkipTimestamp(Cursor& c) {
  Cursor t = c;
  if (!t.Digits(2, 4)) return false;
  if (!t.Char('-') || !t.Digits(2, 2)) return false;
  if (t.Char('-') && !t.Digits(2, 2)) return false;
  if (t.Spaces() == 0) return false;
  if (!t.Digits(2, 2) || !t.Char(':') || !t.Digits(2, 2) || !t.Char(':') || !t.Digits(2, 2))
    return false;
  if (t.Char('.')) t.Digits(1, 9);
  t.Spaces();
  c = t;
  return true;
}

// "TAG: message" (the tag padded with spaces, as threadtime writes it) from c.p on.
bool TagAndMessage(Cursor& c, LogLine& out) {
  std::string_view rest = c.s.substr(c.p);
  size_t colon = rest.find(": ");
  if (colon == std::string_view::npos) {
    if (rest.empty() || rest.back() != ':') return false;
    colon = rest.size() - 1;
  }
  std::string_view tag = TrimSpace(rest.substr(0, colon));
  if (tag.empty()) return false;
  // "TAG(  PID)" of the time and brief formats.
  if (tag.back() == ')') {
    size_t open = tag.rfind('(');
    if (open != std::string_view::npos) {
      Cursor pc{tag.substr(open + 1), 0};
      pc.Spaces();
      int pid = 0;
      if (pc.Digits(1, 9, &pid) && (pc.Spaces(), pc.p + 1 == pc.s.size())) {
        out.pid = pid;
        tag = TrimSpace(tag.substr(0, open));
      }
    }
  }
  out.tag = tag;
  out.message = colon + 2 <= rest.size() ? rest.substr(colon + 2) : std::string_view();
  return true;
}

}  // namespace

LogLine ParseLogLine(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  LogLine out;
  out.message = line;
  Cursor c{line, 0};
  const bool timed = SkipTimestamp(c);
  // threadtime: "PID TID L TAG: msg"
  {
    Cursor t = c;
    int pid = 0;
    t.Spaces();
    if (t.Digits(1, 9, &pid) && t.Spaces() > 0 && t.Digits(1, 9) && t.Spaces() > 0 &&
        t.p < line.size() && IsLevel(line[t.p]) && t.p + 1 < line.size() &&
        IsSpace(line[t.p + 1])) {
      LogLine r;
      r.level = line[t.p];
      r.pid = pid;
      t.p += 1;
      t.Spaces();
      if (TagAndMessage(t, r)) return r;
    }
  }
  // Android Studio: "PID-TID/package L/TAG: msg"
  if (timed) {
    Cursor t = c;
    int pid = 0;
    if (t.Digits(1, 9, &pid) && t.Char('-') && t.Digits(1, 9) && t.Char('/')) {
      size_t sp = line.find(' ', t.p);
      if (sp != std::string_view::npos) {
        t.p = sp;
        t.Spaces();
        if (t.p + 1 < line.size() && IsLevel(line[t.p]) && line[t.p + 1] == '/') {
          LogLine r;
          r.level = line[t.p];
          r.pid = pid;
          t.p += 2;
          if (TagAndMessage(t, r)) return r;
        }
      }
    }
  }
  // "process L/TAG: msg" (a process name before the level).
  {
    size_t sp = line.find(' ', c.p);
    if (sp != std::string_view::npos && sp > c.p && sp + 2 < line.size() && IsLevel(line[sp + 1]) &&
        line[sp + 2] == '/' && line.substr(c.p, sp - c.p).find(':') == std::string_view::npos) {
      Cursor t{line, sp + 3};
      LogLine r;
      r.level = line[sp + 1];
      if (TagAndMessage(t, r)) return r;
    }
  }
  // time / brief / tag: "L/TAG(PID): msg", "L/TAG: msg"; and "L TAG: msg" (threadtime without
  // its numbers), which pasted logs sometimes carry with one stray digit in front.
  {
    size_t p = c.p;
    if (p + 1 < line.size() && IsDigit(line[p]) && IsLevel(line[p + 1])) ++p;
    if (p + 1 < line.size() && IsLevel(line[p]) && (line[p + 1] == '/' || line[p + 1] == ' ')) {
      Cursor t{line, p + 2};
      LogLine r;
      r.level = line[p];
      if (line[p + 1] == ' ' && t.p < line.size() && IsSpace(line[t.p])) return out;
      if (TagAndMessage(t, r)) return r;
    }
  }
  if (timed) out.message = line.substr(c.p);
  return out;
}

// ---------------------------------------------------------------------------------------------

namespace {

bool IsFrame(std::string_view t) { return StartsWith(t, "at ") && t.size() > 3; }

bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// "java.lang.IllegalStateException", "android.content.res.Resources$NotFoundException".
bool IsThrowableName(std::string_view t) {
  if (t.empty() || !std::isalpha(static_cast<unsigned char>(t[0]))) return false;
  if (t.find('.') == std::string_view::npos) return false;
  for (char ch : t)
    if (!IsIdentChar(ch) && ch != '.') return false;
  for (std::string_view end : {"Exception", "Error", "Throwable"})
    if (t.size() > end.size() && t.substr(t.size() - end.size()) == end) return true;
  return false;
}

// The throwable named in `t`, anywhere in it ("stack: java.lang.Exception" included); the
// message is what follows its ": ".
bool FindThrowable(std::string_view t, std::string& exception, std::string& message) {
  size_t p = 0;
  while (p < t.size()) {
    size_t end = p;
    while (end < t.size() && !IsSpace(t[end])) ++end;
    std::string_view token = t.substr(p, end - p);
    bool colon = !token.empty() && token.back() == ':';
    if (colon) token.remove_suffix(1);
    if (IsThrowableName(token)) {
      exception = std::string(token);
      message = colon ? std::string(TrimSpace(t.substr(end))) : std::string();
      return true;
    }
    p = end;
    while (p < t.size() && IsSpace(t[p])) ++p;
  }
  return false;
}

// "Name: message" or "Name".
void SplitExceptionLine(std::string_view t, std::string& exception, std::string& message) {
  size_t colon = t.find(": ");
  if (colon == std::string_view::npos) {
    exception = std::string(TrimSpace(t));
    if (!exception.empty() && exception.back() == ':') exception.pop_back();
    message.clear();
  } else {
    exception = std::string(TrimSpace(t.substr(0, colon)));
    message = std::string(TrimSpace(t.substr(colon + 2)));
  }
}

// "#00 pc 000000000001a2b4  /data/app/org.app/lib/arm64/libfoo.so (crash+20) (BuildId: ..)"
// -> "libfoo.so:crash"; without a symbol "libfoo.so+0x1a2b4".
std::string NativeFrame(std::string_view t) {
  Cursor c{t, 1};
  c.Digits(1, 4);
  c.Spaces();
  if (StartsWith(t.substr(c.p), "pc")) c.p += 2;
  c.Spaces();
  size_t addr_start = c.p;
  while (c.p < t.size() && !IsSpace(t[c.p])) ++c.p;
  std::string_view addr = t.substr(addr_start, c.p - addr_start);
  c.Spaces();
  std::string_view rest = t.substr(c.p);
  size_t paren = rest.find(" (");
  std::string_view path = TrimSpace(paren == std::string_view::npos ? rest : rest.substr(0, paren));
  if (auto slash = path.rfind('/'); slash != std::string_view::npos) path = path.substr(slash + 1);
  std::string frame(path);
  if (paren != std::string_view::npos && !StartsWith(rest.substr(paren + 2), "BuildId")) {
    std::string_view sym = rest.substr(paren + 2);
    size_t close = sym.find(')');
    sym = sym.substr(0, close);
    if (auto plus = sym.rfind('+'); plus != std::string_view::npos) sym = sym.substr(0, plus);
    frame += ':';
    frame.append(sym);
  } else {
    while (addr.size() > 1 && addr[0] == '0') addr.remove_prefix(1);
    frame += "+0x";
    frame.append(addr);
  }
  return frame;
}

}  // namespace

struct LogcatParser::Block {
  BlockKind kind = BlockKind::kJava;
  Stage stage = Stage::kHeader;
  bool bare = false;  // no FATAL EXCEPTION header: needs a frame to count
  int pid = -1;
  std::string tag;
  int message_lines = 0;
  size_t raw_lines = 0;
  Event event;
};

LogcatParser::LogcatParser(LogcatOptions options) : options_(std::move(options)) {}
LogcatParser::~LogcatParser() = default;
LogcatParser::LogcatParser(LogcatParser&&) noexcept = default;
LogcatParser& LogcatParser::operator=(LogcatParser&&) noexcept = default;

bool LogcatParser::InBlock() const { return block_ != nullptr; }

void LogcatParser::Feed(std::string_view chunk, std::vector<Event>& out) {
  size_t start = 0;
  while (true) {
    size_t nl = chunk.find('\n', start);
    if (nl == std::string_view::npos) break;
    if (partial_.empty()) {
      Line(chunk.substr(start, nl - start), out);
    } else {
      partial_.append(chunk.substr(start, nl - start));
      std::string line = std::move(partial_);
      partial_.clear();
      Line(line, out);
    }
    start = nl + 1;
  }
  partial_.append(chunk.substr(start));
}

void LogcatParser::Flush(std::vector<Event>& out) { Emit(out); }

void LogcatParser::Finish(std::vector<Event>& out) {
  if (!partial_.empty()) {
    std::string line = std::move(partial_);
    partial_.clear();
    Line(line, out);
  }
  Emit(out);
}

bool LogcatParser::Wanted(const Event& e) const {
  const std::string& pkg = options_.package;
  if (pkg.empty()) return true;
  if (e.package == pkg || StartsWith(e.package, pkg + ":")) return true;
  if (!e.package.empty()) return false;
  for (const auto& f : e.frames)
    if (StartsWith(f, pkg + ".")) return true;
  return false;
}

void LogcatParser::Emit(std::vector<Event>& out) {
  if (!block_) return;
  std::unique_ptr<Block> b = std::move(block_);
  if (b->kind == BlockKind::kJava &&
      (b->event.exception.empty() || (b->bare && b->event.frames.empty())))
    return;  // a header without a stack, or a bare exception line: nothing to report
  if (b->kind == BlockKind::kNative && b->event.exception.empty() && b->event.frames.empty())
    return;
  if (!Wanted(b->event)) return;
  // Text from the device is made valid UTF-8 where it enters (base/utf8.h).
  Event& e = b->event;
  for (std::string* field : {&e.package, &e.exception, &e.message, &e.raw}) MakeValidUtf8(*field);
  for (std::string& frame : e.frames) MakeValidUtf8(frame);
  out.push_back(std::move(e));
}

void LogcatParser::Keep(Block& b, std::string_view raw_line) {
  if (b.raw_lines++ < options_.max_raw_lines) {
    b.event.raw.append(TrimSpace(raw_line));
    b.event.raw += '\n';
  }
}

LogcatParser::Fate LogcatParser::ContinueJava(Block& b, std::string_view t) {
  if (IsFrame(t)) {
    b.event.frames.emplace_back(TrimSpace(t.substr(3)));
    b.stage = Stage::kFrames;
    return Fate::kContinues;
  }
  if (StartsWith(t, "Caused by: ") || StartsWith(t, "Suppressed: ")) {
    b.stage = Stage::kCause;
    return Fate::kContinues;
  }
  if (StartsWith(t, "... ") && t.size() > 4 && t.substr(t.size() - 4) == "more")
    return Fate::kContinues;
  if (b.stage == Stage::kHeader) {
    if (StartsWith(t, "Process: ")) {
      std::string_view p = t.substr(9);
      b.event.package = std::string(TrimSpace(p.substr(0, p.find(','))));
    } else if (!t.empty() && !StartsWith(t, "PID: ")) {
      SplitExceptionLine(t, b.event.exception, b.event.message);
      b.stage = Stage::kMessage;
    }
    return Fate::kContinues;
  }
  if (b.stage != Stage::kMessage) return Fate::kEnds;
  std::string exception, message;
  if (b.bare && FindThrowable(t, exception, message)) {
    // A newer exception line replaces the candidate that had no frames.
    b.event.exception = std::move(exception);
    b.event.message = std::move(message);
    b.message_lines = 0;
    return Fate::kContinues;
  }
  if (b.message_lines < (b.bare ? 3 : 8)) {
    // The exception's message runs over several lines.
    ++b.message_lines;
    if (!t.empty()) b.event.message.append("\n").append(t);
    return Fate::kContinues;
  }
  return Fate::kEnds;
}

LogcatParser::Fate LogcatParser::ContinueAnr(Block& b, const LogLine& l, std::string_view t) {
  if (l.tag.empty() &&
      !(StartsWith(t, "PID:") || StartsWith(t, "Reason:") || StartsWith(t, "Parent:") ||
        StartsWith(t, "ErrorId:") || StartsWith(t, "Frozen:") || StartsWith(t, "Load:") ||
        StartsWith(t, "CPU") || t.empty()))
    return Fate::kEnds;
  if (StartsWith(t, "Reason: ")) {
    b.event.message = std::string(TrimSpace(t.substr(8)));
    return Fate::kCompletes;
  }
  return Fate::kContinues;
}

LogcatParser::Fate LogcatParser::ContinueNative(Block& b, std::string_view t) {
  if (StartsWith(t, "pid: ")) {
    size_t open = t.find(">>> "), close = t.find(" <<<");
    if (open != std::string_view::npos && close != std::string_view::npos && close > open)
      b.event.package = std::string(t.substr(open + 4, close - open - 4));
  } else if (StartsWith(t, "signal ")) {
    size_t open = t.find('('), close = t.find(')');
    if (open != std::string_view::npos && close != std::string_view::npos && close > open)
      b.event.exception = std::string(t.substr(open + 1, close - open - 1));
    b.event.message = std::string(t);
  } else if (StartsWith(t, "Abort message: ")) {
    b.event.message.append("\n").append(t);
  } else if (t.size() > 1 && t[0] == '#' && IsDigit(t[1])) {
    b.event.frames.push_back(NativeFrame(t));
    b.stage = Stage::kFrames;
  } else if (b.stage == Stage::kFrames && !t.empty()) {
    return Fate::kEnds;  // the backtrace is over
  }
  return Fate::kContinues;
}

void LogcatParser::Open(BlockKind kind, Stage stage, bool bare, const LogLine& l,
                        std::string_view raw_line) {
  block_ = std::make_unique<Block>();
  block_->kind = kind;
  block_->stage = stage;
  block_->bare = bare;
  block_->pid = l.pid;
  block_->tag = std::string(l.tag);
  block_->event.kind = kind == BlockKind::kJava  ? Event::Kind::kCrash
                       : kind == BlockKind::kAnr ? Event::Kind::kAnr
                                                 : Event::Kind::kNativeCrash;
  if (!pending_package_.empty()) block_->event.package = std::move(pending_package_);
  pending_package_.clear();
  Keep(*block_, raw_line);
}

void LogcatParser::OpenIfStarts(const LogLine& l, std::string_view t, std::string_view raw_line) {
  if (size_t f = t.find("FATAL EXCEPTION"); f != std::string_view::npos && f < 4) {
    Open(BlockKind::kJava, Stage::kHeader, false, l, raw_line);
    return;
  }
  if (StartsWith(t, "ANR in ")) {
    Open(BlockKind::kAnr, Stage::kHeader, false, l, raw_line);
    std::string_view p = t.substr(7);
    size_t end = 0;
    while (end < p.size() && !IsSpace(p[end]) && p[end] != '(') ++end;
    block_->event.package = std::string(p.substr(0, end));
    return;
  }
  if (StartsWith(t, "*** *** ***")) {
    Open(BlockKind::kNative, Stage::kHeader, false, l, raw_line);
    return;
  }
  if (!options_.bare_stacks) return;
  if (StartsWith(t, "Process: ") && t.find(", PID: ") != std::string_view::npos) {
    Open(BlockKind::kJava, Stage::kHeader, true, l, raw_line);
    std::string_view p = t.substr(9);
    block_->event.package = std::string(TrimSpace(p.substr(0, p.find(','))));
    return;
  }
  if (t.find("ACRA caught a ") != std::string_view::npos) {
    size_t f = t.rfind(" for ");
    if (f != std::string_view::npos) pending_package_ = std::string(TrimSpace(t.substr(f + 5)));
    return;
  }
  std::string exception, message;
  if (FindThrowable(t, exception, message)) {
    Open(BlockKind::kJava, Stage::kMessage, true, l, raw_line);
    block_->event.exception = std::move(exception);
    block_->event.message = std::move(message);
  }
}

void LogcatParser::Line(std::string_view raw_line, std::vector<Event>& out) {
  LogLine l = ParseLogLine(raw_line);
  std::string_view t = TrimSpace(l.message);
  if (block_) {
    Block& b = *block_;
    bool other_process = l.pid >= 0 && b.pid >= 0 && l.pid != b.pid;
    bool other_tag = !l.tag.empty() && !b.tag.empty() && l.tag != b.tag;
    Fate fate = Fate::kEnds;
    if (!other_process && !(other_tag && b.kind != BlockKind::kJava)) {
      fate = b.kind == BlockKind::kJava  ? ContinueJava(b, t)
             : b.kind == BlockKind::kAnr ? ContinueAnr(b, l, t)
                                         : ContinueNative(b, t);
    }
    if (fate != Fate::kEnds) Keep(b, raw_line);
    if (fate == Fate::kContinues) return;
    Emit(out);
    if (fate == Fate::kCompletes) return;
  }
  // Outside a block: does this line open one?
  OpenIfStarts(l, t, raw_line);
}

std::vector<Event> ParseLogcat(std::string_view text, const LogcatOptions& options) {
  LogcatParser parser(options);
  std::vector<Event> out;
  parser.Feed(text, out);
  parser.Finish(out);
  return out;
}

std::optional<std::string> ResumedActivity(std::string_view line) {
  size_t tag = std::string_view::npos;
  std::string_view name;
  for (std::string_view t : kResumeEventTags)
    if (tag = line.find(t); tag != std::string_view::npos) {
      name = t;
      break;
    }
  if (tag == std::string_view::npos) return std::nullopt;
  // After the tag: "TAG: [a,b,c]" (a list), "TAG( pid): value" (API 10: the value alone).
  size_t colon = line.find(": ", tag + name.size());
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view list = line.substr(colon + 2);
  if (!list.empty() && list.front() == '[') {
    size_t close = list.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    list = list.substr(1, close - 1);
  }
  // The component is the first value that is not a number: a class name or PKG/CLASS, maybe
  // named ("Component Name=...", as descriptive event logs write each value).
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view value = list.substr(0, comma);
    if (size_t eq = value.find('='); eq != std::string_view::npos) value.remove_prefix(eq + 1);
    while (!value.empty() && (value.front() == ' ')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.remove_suffix(1);
    if (value.find('.') != std::string_view::npos &&
        value.find_first_not_of("0123456789-") != std::string_view::npos &&
        value.find(' ') == std::string_view::npos)
      return NormaliseActivity(value);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return std::nullopt;
}

}  // namespace roam::device::android
