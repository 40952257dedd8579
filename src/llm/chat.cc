#include "llm/chat.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "base/base64.h"
#include "base/files.h"
#include "base/json_fields.h"

namespace roam::llm {

using nlohmann::json;

std::string ContentHash(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : bytes) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", h);
}

json RequestBody(const ClientOptions& options, const std::vector<Message>& messages) {
  json list = json::array();
  for (const Message& m : messages) {
    if (m.images.empty()) {
      list.push_back({{"role", m.role}, {"content", m.text}});
      continue;
    }
    json parts = json::array({{{"type", "text"}, {"text", m.text}}});
    for (const std::string& png : m.images)
      parts.push_back({{"type", "image_url"},
                       {"image_url", {{"url", "data:image/png;base64," + Base64(png)}}}});
    list.push_back({{"role", m.role}, {"content", parts}});
  }
  return {{"model", options.model}, {"messages", list}, {"temperature", options.temperature}};
}

Result<Answer> ParseResponse(std::string_view body) {
  if (body.size() > kMaxAnswerBytes)
    return Status::Corruption(
        fmt::format("the model's server answered {} bytes, more than the {} "
                    "an answer may hold",
                    body.size(), kMaxAnswerBytes));
  // The one JSON reading path (depth guard, located errors): an answer is input like any file.
  auto parsed = ParseJson(std::string(body), "the model's answer");
  if (!parsed.ok())
    return Status::Corruption("the model's server answered something that is not JSON: " +
                              parsed.status().message() + ": " + Excerpt(body, 120));
  if (!parsed->is_object())
    return Status::Corruption("the model's server answered JSON that is not an object: " +
                              Excerpt(body, 120));
  const json& j = *parsed;
  if (auto e = j.find("error"); e != j.end()) {
    auto m = e->is_object() ? e->find("message") : e->end();
    std::string message =
        m != e->end() && m->is_string() ? m->get<std::string>() : JsonExcerpt(*e, 200);
    return Status::Io("the model's server reported an error: " + Excerpt(message, 400));
  }
  auto choices = j.find("choices");
  if (choices == j.end() || !choices->is_array() || choices->empty())
    return Status::Corruption("the answer has no \"choices\": " + JsonExcerpt(j, 160));
  const json& first = (*choices)[0];
  const json* content = nullptr;
  if (auto message = first.is_object() ? first.find("message") : first.end();
      message != first.end() && message->is_object())
    if (auto c = message->find("content"); c != message->end() && c->is_string()) content = &*c;
  if (!content)
    return Status::Corruption("the answer's choices[0].message has no text \"content\": " +
                              JsonExcerpt(first, 160));
  Answer a;
  a.content = content->get<std::string>();
  if (auto u = j.find("usage"); u != j.end() && u->is_object()) {
    for (auto [key, out] : {std::pair{"prompt_tokens", &a.usage.prompt_tokens},
                            std::pair{"completion_tokens", &a.usage.completion_tokens}})
      if (auto n = u->find(key); n != u->end() && n->is_number_integer()) *out = n->get<int64_t>();
  }
  return a;
}

namespace {

// A request as the log keeps it: texts, and images by hash.
json LoggedMessages(const std::vector<Message>& messages) {
  json list = json::array();
  for (const Message& m : messages) {
    json images = json::array();
    for (const std::string& png : m.images) images.push_back(ContentHash(png));
    list.push_back({{"role", m.role}, {"text", m.text}, {"images", images}});
  }
  return list;
}

std::string RequestHash(const json& logged) { return ContentHash(logged.dump()); }

}  // namespace

Result<std::unique_ptr<Recorder>> Recorder::Open(Client& inner, const std::filesystem::path& log,
                                                 std::string model) {
  ROAM_RETURN_IF_ERROR(CheckOutputPath(log));
  std::ofstream out(log, std::ios::trunc);
  if (!out) return Status::Io(fmt::format("cannot write {}", log.string()));
  return std::unique_ptr<Recorder>(new Recorder(inner, log, std::move(model)));
}

Result<Answer> Recorder::Complete(const std::vector<Message>& messages) {
  const std::filesystem::path images = log_.parent_path() / "images";
  for (const Message& m : messages)
    for (const std::string& png : m.images) {
      const auto file = images / (ContentHash(png) + ".png");
      std::error_code ec;
      if (std::filesystem::exists(file, ec)) continue;
      std::filesystem::create_directories(images, ec);
      ROAM_RETURN_IF_ERROR(WriteFileAtomic(file, png));
    }
  json logged = LoggedMessages(messages);
  auto answer = inner_.Complete(messages);
  counters_ = inner_.counters();
  json line = {{"n", ++line_},
               {"model", model_},
               {"request_hash", RequestHash(logged)},
               {"messages", logged}};
  if (answer.ok()) {
    line["answer"] = {{"content", answer->content},
                      {"prompt_tokens", answer->usage.prompt_tokens},
                      {"completion_tokens", answer->usage.completion_tokens}};
  } else {
    line["error"] = answer.status().message();
  }
  std::ofstream out(log_, std::ios::app);
  out << JsonLine(line) << "\n";
  out.flush();
  if (!out) return Status::Io(fmt::format("cannot write {}", log_.string()));
  return answer;
}

namespace {

class Replayer final : public Client {
 public:
  Replayer(std::filesystem::path log, std::vector<json> lines, bool in_order)
      : log_(std::move(log)), lines_(std::move(lines)), in_order_(in_order) {}

  Result<Answer> Complete(const std::vector<Message>& messages) override {
    ++counters_.requests;
    const std::string got = RequestHash(LoggedMessages(messages));
    if (!in_order_) {
      auto it = std::find_if(lines_.begin(), lines_.end(),
                             [&](const json& l) { return l.value("request_hash", "") == got; });
      if (it == lines_.end())
        return Status::NotFound(fmt::format(
            "{}: holds no answer to this request (hash {}): the screens or the prompt differ "
            "from the recorded run's; ask a live model instead",
            log_.string(), got));
      return AnswerOf(*it);
    }
    if (next_ >= lines_.size())
      return Status::NotFound(fmt::format("{}: the log ends after {} requests; this run asks more",
                                          log_.string(), lines_.size()));
    const json& line = lines_[next_++];
    const std::string want = line.value("request_hash", "");
    if (want != got)
      return Status::InvalidArgument(fmt::format(
          "{}:{}: this run's request differs from the recorded one (hash {} against {}): the "
          "app, the seed or Roam changed since it was recorded",
          log_.string(), next_, got, want));
    return AnswerOf(line);
  }

 private:
  Result<Answer> AnswerOf(const json& line) {
    if (line.contains("error")) {
      ++counters_.failures;
      return Status::Io(line["error"].is_string() ? line["error"].get<std::string>() : "error");
    }
    const json& a = line.value("answer", json::object());
    Answer answer;
    answer.content = a.value("content", "");
    answer.usage.prompt_tokens = a.value("prompt_tokens", int64_t{0});
    answer.usage.completion_tokens = a.value("completion_tokens", int64_t{0});
    counters_.usage.prompt_tokens += answer.usage.prompt_tokens;
    counters_.usage.completion_tokens += answer.usage.completion_tokens;
    return answer;
  }

  std::filesystem::path log_;
  std::vector<json> lines_;
  bool in_order_;
  size_t next_ = 0;
};

Result<std::vector<json>> ReadLog(const std::filesystem::path& log) {
  auto content = ReadFile(log);
  if (!content.ok())
    return content.status().IsNotFound()
               ? Status::NotFound(fmt::format("{}: no such log to replay", log.string()))
               : content.status();
  std::istringstream in(*content);
  std::vector<json> lines;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    if (text.empty()) continue;
    auto j = ParseJson(text, fmt::format("{}:{}", log.string(), n));
    if (!j.ok()) return j.status();
    if (!j->is_object() || !(*j)["request_hash"].is_string() ||
        !((*j).contains("answer") ? (*j)["answer"].is_object() : (*j)["error"].is_string()))
      return Status::Corruption(fmt::format(
          "{}:{}: not a recorded request (needs request_hash and an answer or an error)",
          log.string(), n));
    lines.push_back(std::move(*j));
  }
  return lines;
}

}  // namespace

Result<std::unique_ptr<Client>> ReplayClient(const std::filesystem::path& log) {
  auto lines = ReadLog(log);
  if (!lines.ok()) return lines.status();
  return std::unique_ptr<Client>(new Replayer(log, std::move(*lines), true));
}

Result<std::unique_ptr<Client>> LookupClient(const std::filesystem::path& log) {
  auto lines = ReadLog(log);
  if (!lines.ok()) return lines.status();
  return std::unique_ptr<Client>(new Replayer(log, std::move(*lines), false));
}

}  // namespace roam::llm
