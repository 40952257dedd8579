// Errors as values: Status says what went wrong and where; Result<T> is a value or a Status.
// Core code never throws; library exceptions are caught where they enter our code.
// Value types, thread-compatible.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace roam {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk,
    kInvalidArgument,
    kNotFound,
    kCorruption,
    kIo,
    kUnsupported,
    kUnavailable,
    kAborted,
    // A device turned one action down and did nothing (a rotation on a screen locked to portrait,
    // text into a view that takes none): the step's outcome, not the run's failure. Its message
    // starts with the reason, up to the first ':' ("invalid element state (POST /orientation)").
    kRefused
  };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) { return {Code::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status Corruption(std::string m) { return {Code::kCorruption, std::move(m)}; }
  static Status Io(std::string m) { return {Code::kIo, std::move(m)}; }
  static Status Unsupported(std::string m) { return {Code::kUnsupported, std::move(m)}; }
  static Status Unavailable(std::string m) { return {Code::kUnavailable, std::move(m)}; }
  static Status Aborted(std::string m) { return {Code::kAborted, std::move(m)}; }
  static Status Refused(std::string m) { return {Code::kRefused, std::move(m)}; }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsUnsupported() const { return code_ == Code::kUnsupported; }
  bool IsUnavailable() const { return code_ == Code::kUnavailable; }
  bool IsRefused() const { return code_ == Code::kRefused; }
  // "what: message": adds context on the way up.
  Status Wrap(const std::string& what) const {
    return ok() ? *this : Status(code_, what + ": " + message_);
  }
  std::string ToString() const;

 private:
  Status(Code c, std::string m) : code_(c), message_(std::move(m)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status s) : v_(std::move(s)) { assert(!std::get<Status>(v_).ok()); }  // NOLINT
  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

#define ROAM_RETURN_IF_ERROR(expr) \
  do {                             \
    ::roam::Status _st = (expr);   \
    if (!_st.ok()) return _st;     \
  } while (0)

}  // namespace roam
