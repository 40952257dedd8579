#include "base/status.h"

namespace roam {

std::string Status::ToString() const {
  switch (code_) {
    case Code::kOk:
      return "ok";
    case Code::kInvalidArgument:
      return "invalid argument: " + message_;
    case Code::kNotFound:
      return "not found: " + message_;
    case Code::kCorruption:
      return "corrupt: " + message_;
    case Code::kIo:
      return "i/o error: " + message_;
    case Code::kUnsupported:
      return "unsupported: " + message_;
    case Code::kUnavailable:
      return "unavailable: " + message_;
    case Code::kAborted:
      return "aborted: " + message_;
    case Code::kRefused:
      return "refused: " + message_;
  }
  return message_;
}

}  // namespace roam
