// A test double of an OpenAI-compatible chat-completions server: an HTTP/1.1 server on
// 127.0.0.1 (an ephemeral port) that answers each request with the next scripted reply (status,
// body, delay) and records what it was sent. One connection at a time, closed after each answer.
// Not a model: tests script what a model would say. Thread-safe.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace roam::testing {

class ChatServerDouble {
 public:
  struct Reply {
    int status = 200;
    std::string body;
    int delay_ms = 0;
    std::string headers;  // more header lines, each ending in \r\n ("Retry-After: 1\r\n")
  };
  struct Received {
    std::string head;  // request line and headers
    std::string body;
  };

  ChatServerDouble() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    listen(fd_, 8);
    socklen_t len = sizeof addr;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~ChatServerDouble() {
    stop_ = true;
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  void Script(Reply reply) {
    std::lock_guard<std::mutex> lock(mu_);
    script_.push_back(std::move(reply));
  }
  // Answers every request the script does not: a scripted model that reads the prompt.
  void Respond(std::function<Reply(const Received&)> responder) {
    std::lock_guard<std::mutex> lock(mu_);
    responder_ = std::move(responder);
  }
  // A chat completion whose message says `content`.
  static std::string Completion(const std::string& content, int prompt = 10, int completion = 5);
  std::vector<Received> received() {
    std::lock_guard<std::mutex> lock(mu_);
    return received_;
  }

 private:
  void Serve() {
    while (!stop_) {
      int c = accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      Received r;
      std::string data;
      char buf[65536];
      size_t need = std::string::npos;
      while (true) {
        ssize_t n = recv(c, buf, sizeof buf, 0);
        if (n <= 0) break;
        data.append(buf, static_cast<size_t>(n));
        size_t end = data.find("\r\n\r\n");
        if (end != std::string::npos && need == std::string::npos) {
          r.head = data.substr(0, end);
          size_t at = r.head.find("Content-Length: ");
          if (at == std::string::npos) at = r.head.find("content-length: ");
          need = end + 4 + (at == std::string::npos ? 0 : std::stoul(r.head.substr(at + 16)));
        }
        if (need != std::string::npos && data.size() >= need) break;
      }
      if (need == std::string::npos) {  // a connection that sent no request (a reachability check)
        close(c);
        continue;
      }
      r.body = data.substr(r.head.size() + 4);
      Reply reply{500, "{\"error\": {\"message\": \"the test double has no reply scripted\"}}"};
      {
        std::lock_guard<std::mutex> lock(mu_);
        received_.push_back(r);
        if (!script_.empty()) {
          reply = script_.front();
          script_.pop_front();
        } else if (responder_) {
          reply = responder_(r);
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(reply.delay_ms));
      std::string out = "HTTP/1.1 " + std::to_string(reply.status) +
                        " X\r\nContent-Type: application/json\r\nContent-Length: " +
                        std::to_string(reply.body.size()) + "\r\nConnection: close\r\n" +
                        reply.headers + "\r\n" + reply.body;
      send(c, out.data(), out.size(), MSG_NOSIGNAL);
      close(c);
    }
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::deque<Reply> script_;
  std::function<Reply(const Received&)> responder_;
  std::vector<Received> received_;
  std::thread thread_;
};

inline std::string ChatServerDouble::Completion(const std::string& content, int prompt,
                                                int completion) {
  std::string escaped;
  for (char ch : content) {
    if (ch == '"' || ch == '\\') escaped += '\\';
    if (ch == '\n') {
      escaped += "\\n";
      continue;
    }
    escaped += ch;
  }
  return "{\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": \"" + escaped +
         "\"}}], \"usage\": {\"prompt_tokens\": " + std::to_string(prompt) +
         ", \"completion_tokens\": " + std::to_string(completion) + "}}";
}

}  // namespace roam::testing
