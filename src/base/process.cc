#include "base/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace roam {

namespace {

// Both ends closed when it goes out of scope.
struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() {
    for (int f : fd) {
      if (f >= 0) ::close(f);
    }
  }
  void Close(int end) {
    if (fd[end] >= 0) ::close(fd[end]);
    fd[end] = -1;
  }
};

std::string Errno(int code) { return std::strerror(code); }

}  // namespace

Result<ProcessOutput> RunProcess(const std::vector<std::string>& argv,
                                 const std::vector<std::string>& env, size_t max_bytes) {
  if (argv.empty()) return Status::InvalidArgument("no program to run");
  Pipe out, err;
  if (::pipe2(out.fd, O_CLOEXEC) != 0 || ::pipe2(err.fd, O_CLOEXEC) != 0) {
    return Status::Io("cannot make a pipe: " + Errno(errno));
  }
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  ::posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;  // the inherited variables `env` does not set, then `env`
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view var(*e);
    const std::string_view name = var.substr(0, var.find('='));
    const bool set = std::any_of(env.begin(), env.end(), [&](const std::string& v) {
      return v.size() > name.size() && v.compare(0, name.size(), name) == 0 &&
             v[name.size()] == '=';
    });
    if (!set) envp.push_back(*e);
  }
  for (const std::string& v : env) envp.push_back(const_cast<char*>(v.c_str()));
  envp.push_back(nullptr);
  pid_t pid = -1;
  const int spawned =
      ::posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), envp.data());
  ::posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    const std::string why = argv[0] + ": cannot run it: " + Errno(spawned);
    return spawned == ENOENT ? Status::NotFound(why) : Status::Io(why);
  }
  out.Close(1);
  err.Close(1);

  ProcessOutput result;
  std::string* into[2] = {&result.out, &result.err};
  pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
  bool too_much = false;
  char buf[1 << 16];
  while ((fds[0].fd >= 0 || fds[1].fd >= 0) && !too_much) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;  // poll skips negative descriptors; the Pipe closes it
        continue;
      }
      into[i]->append(buf, static_cast<size_t>(n));
      if (into[i]->size() > max_bytes) too_much = true;
    }
  }
  if (too_much) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Status::Io(argv[0] + ": cannot wait for it: " + Errno(errno));
  }
  if (too_much) {
    return Status::Io(argv[0] + ": printed more than " + std::to_string(max_bytes) +
                      " bytes; stopped");
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::filesystem::path FindOnPath(std::string_view name) {
  if (name.empty()) return {};
  const auto runnable = [](const std::filesystem::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.find('/') != std::string_view::npos) {
    return runnable(std::filesystem::path(name)) ? std::filesystem::path(name) : "";
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const size_t colon = dirs.find(':');
    std::string_view dir = dirs.substr(0, colon);
    const std::filesystem::path candidate =
        std::filesystem::path(dir.empty() ? "." : std::string(dir)) / name;
    if (runnable(candidate)) return candidate;
    if (colon == std::string_view::npos) return {};
    dirs.remove_prefix(colon + 1);
  }
}

}  // namespace roam
