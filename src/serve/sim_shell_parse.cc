// sim_shell_parse: ParseShellScript and SplitShellWords, the sh-like reader of `adb shell`
// command lines (quotes, escapes, $VAR, $(...), `...`, ;, &&, ||, |, redirections).
// Pure functions of their input; thread-safe.
#include <cctype>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "serve/sim_shell.h"
#include "serve/sim_shell_internal.h"

namespace roam::serve {

using internal::IsNameStart;
using internal::kMaxDepth;

// --- Parsing ----------------------------------------------------------------------------------

namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsNameChar(char c) { return IsNameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

class Parser {
 public:
  // `depth`: the command substitutions this parser is inside of.
  Parser(std::string_view s, size_t i, bool in_subst, int depth = 0)
      : s_(s), i_(i), in_subst_(in_subst), depth_(depth) {}
  size_t pos() const { return i_; }

  Result<ShellScript> ParseList() {
    ShellScript script;
    while (true) {
      SkipBlanks();
      if (AtEnd()) break;
      char c = s_[i_];
      if (c == '\n' || c == ';') {
        ++i_;
        continue;
      }
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      ShellListItem item;
      auto p = ParsePipeline();
      if (!p.ok()) return p.status();
      item.pipeline = std::move(*p);
      SkipBlanks();
      if (Peek("&&")) {
        item.next = ShellListItem::Next::kAnd;
        i_ += 2;
      } else if (Peek("||")) {
        item.next = ShellListItem::Next::kOr;
        i_ += 2;
      } else if (!AtEnd() && (s_[i_] == ';' || s_[i_] == '\n' || s_[i_] == '&')) {
        item.next = ShellListItem::Next::kSeq;
        ++i_;
      } else if (!AtEnd()) {
        return Error(fmt::format("unexpected '{}'", s_[i_]));
      }
      script.push_back(std::move(item));
    }
    if (!script.empty() && (script.back().next == ShellListItem::Next::kAnd ||
                            script.back().next == ShellListItem::Next::kOr)) {
      return Error("unexpected end of file");
    }
    return script;
  }

 private:
  bool AtEnd() const { return i_ >= s_.size() || (in_subst_ && s_[i_] == ')'); }
  bool Peek(std::string_view t) const { return s_.substr(i_, t.size()) == t; }
  void SkipBlanks() {
    while (i_ < s_.size() && IsBlank(s_[i_])) ++i_;
    if (i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == '\n') {
      i_ += 2;
      SkipBlanks();
    }
  }
  Status Error(const std::string& what) const {
    return Status::InvalidArgument("syntax error: " + what);
  }

  Result<ShellPipeline> ParsePipeline() {
    ShellPipeline p;
    while (true) {
      auto c = ParseSimple();
      if (!c.ok()) return c.status();
      if (c->words.empty() && c->redirects.empty()) {
        return Error(AtEnd() ? "unexpected end of file" : fmt::format("unexpected '{}'", s_[i_]));
      }
      p.commands.push_back(std::move(*c));
      SkipBlanks();
      if (!AtEnd() && s_[i_] == '|' && !Peek("||")) {
        ++i_;
        continue;
      }
      return p;
    }
  }

  Result<ShellSimpleCommand> ParseSimple() {
    ShellSimpleCommand cmd;
    while (true) {
      SkipBlanks();
      if (AtEnd()) break;
      char c = s_[i_];
      if (c == ';' || c == '&' || c == '|' || c == '\n') break;
      if (c == '#' && cmd.words.empty()) break;
      bool fd_digit = (c == '1' || c == '2') && i_ + 1 < s_.size() && s_[i_ + 1] == '>';
      if (c == '>' || c == '<' || fd_digit) {
        ShellRedirect r;
        if (fd_digit) r.fd = s_[i_++] - '0';
        if (s_[i_] == '<') r.fd = 0;
        ++i_;
        if (r.fd != 0 && i_ < s_.size() && s_[i_] == '>') {
          r.append = true;
          ++i_;
        }
        if (r.fd != 0 && Peek("&1")) {
          r.to_stdout = true;
          i_ += 2;
        } else {
          SkipBlanks();
          auto w = ParseWord();
          if (!w.ok()) return w.status();
          if (w->parts.empty()) return Error("missing redirection target");
          r.target = std::move(*w);
        }
        cmd.redirects.push_back(std::move(r));
        continue;
      }
      auto w = ParseWord();
      if (!w.ok()) return w.status();
      if (w->parts.empty()) return Error(fmt::format("unexpected '{}'", s_[i_]));
      cmd.words.push_back(std::move(*w));
    }
    return cmd;
  }

  static void AddLiteral(ShellWord& w, std::string_view text, bool quoted) {
    if (!w.parts.empty() && w.parts.back().kind == ShellWordPart::Kind::kLiteral) {
      w.parts.back().text.append(text);
      w.parts.back().quoted = w.parts.back().quoted || quoted;
    } else {
      w.parts.push_back({ShellWordPart::Kind::kLiteral, std::string(text), quoted});
    }
  }

  Result<ShellWord> ParseWord() {
    ShellWord w;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (IsBlank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' ||
          c == '(' || c == ')')
        break;
      if (c == '\'') {
        size_t end = s_.find('\'', i_ + 1);
        if (end == std::string_view::npos) return Error("unterminated quoted string");
        AddLiteral(w, s_.substr(i_ + 1, end - i_ - 1), true);
        i_ = end + 1;
      } else if (c == '"') {
        ++i_;
        AddLiteral(w, "", true);  // "" is an empty argument
        while (true) {
          if (i_ >= s_.size()) return Error("unterminated quoted string");
          char d = s_[i_];
          if (d == '"') {
            ++i_;
            break;
          }
          if (d == '\\' && i_ + 1 < s_.size()) {
            char e = s_[i_ + 1];
            if (e == '$' || e == '`' || e == '"' || e == '\\')
              AddLiteral(w, std::string(1, e), true);
            else if (e != '\n')
              AddLiteral(w, s_.substr(i_, 2), true);
            i_ += 2;
          } else if (d == '$' || d == '`') {
            ROAM_RETURN_IF_ERROR(ParseExpansion(w, true));
          } else {
            AddLiteral(w, std::string(1, d), true);
            ++i_;
          }
        }
      } else if (c == '\\') {
        if (i_ + 1 >= s_.size()) {
          AddLiteral(w, "\\", true);
          ++i_;
        } else {
          if (s_[i_ + 1] != '\n') AddLiteral(w, s_.substr(i_ + 1, 1), true);
          i_ += 2;
        }
      } else if (c == '$' || c == '`') {
        ROAM_RETURN_IF_ERROR(ParseExpansion(w, false));
      } else {
        AddLiteral(w, s_.substr(i_, 1), false);
        ++i_;
      }
    }
    return w;
  }

  // At '$' or '`'.
  Status ParseExpansion(ShellWord& w, bool quoted) {
    if (s_[i_] == '`') {
      std::string body;
      size_t j = i_ + 1;
      for (; j < s_.size() && s_[j] != '`'; ++j) {
        if (s_[j] == '\\' && j + 1 < s_.size() &&
            (s_[j + 1] == '`' || s_[j + 1] == '\\' || s_[j + 1] == '$')) {
          ++j;
        }
        body.push_back(s_[j]);
      }
      if (j >= s_.size()) return Error("unterminated `...`");
      w.parts.push_back({ShellWordPart::Kind::kCommand, body, quoted});
      i_ = j + 1;
      return Status::Ok();
    }
    char n = i_ + 1 < s_.size() ? s_[i_ + 1] : '\0';
    if (n == '(') {
      // A phone's shell answers a runaway nesting with an error too; this parser recurses once
      // a level, so the bound keeps its stack small.
      if (depth_ >= kMaxDepth) return Error("command substitution nested too deep");
      Parser sub(s_, i_ + 2, true, depth_ + 1);
      auto script = sub.ParseList();
      if (!script.ok()) return script.status();
      if (sub.pos() >= s_.size()) return Error("unterminated $(...)");
      w.parts.push_back({ShellWordPart::Kind::kCommand,
                         std::string(s_.substr(i_ + 2, sub.pos() - i_ - 2)), quoted});
      i_ = sub.pos() + 1;
    } else if (n == '{') {
      size_t end = s_.find('}', i_ + 2);
      if (end == std::string_view::npos) return Error("bad substitution");
      w.parts.push_back(
          {ShellWordPart::Kind::kVariable, std::string(s_.substr(i_ + 2, end - i_ - 2)), quoted});
      i_ = end + 1;
    } else if (IsNameStart(n)) {
      size_t j = i_ + 1;
      while (j < s_.size() && IsNameChar(s_[j])) ++j;
      w.parts.push_back(
          {ShellWordPart::Kind::kVariable, std::string(s_.substr(i_ + 1, j - i_ - 1)), quoted});
      i_ = j;
    } else if (n == '?' || n == '$' || n == '#' || n == '!' ||
               std::isdigit(static_cast<unsigned char>(n))) {
      w.parts.push_back({ShellWordPart::Kind::kVariable, std::string(1, n), quoted});
      i_ += 2;
    } else {
      AddLiteral(w, "$", quoted);
      ++i_;
    }
    return Status::Ok();
  }

  std::string_view s_;
  size_t i_;
  bool in_subst_;
  int depth_;
};

}  // namespace

Result<ShellScript> ParseShellScript(std::string_view line) {
  Parser p(line, 0, false);
  auto script = p.ParseList();
  if (script.ok() && p.pos() < line.size()) {
    return Status::InvalidArgument("syntax error: unexpected ')'");
  }
  return script;
}

Result<std::vector<std::vector<std::string>>> SplitShellWords(std::string_view line) {
  auto script = ParseShellScript(line);
  if (!script.ok()) return script.status();
  std::vector<std::vector<std::string>> out;
  for (const auto& item : *script) {
    for (const auto& cmd : item.pipeline.commands) {
      std::vector<std::string> argv;
      for (const auto& w : cmd.words) {
        std::string a;
        for (const auto& p : w.parts) {
          if (p.kind != ShellWordPart::Kind::kLiteral) {
            return Status::InvalidArgument("expansion in \"" + std::string(line) + "\"");
          }
          a += p.text;
        }
        argv.push_back(std::move(a));
      }
      out.push_back(std::move(argv));
    }
  }
  return out;
}

}  // namespace roam::serve
