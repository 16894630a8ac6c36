#include "test_util/testutil.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace strata::test {

TempDir::TempDir(const std::string& tag) {
  static std::atomic<int> counter{0};
  const char* base = getenv("TEST_TMPDIR");
  std::string root = (base != nullptr && base[0] != '\0') ? base : "/tmp";
  path_ = root + "/" + tag + "-" + std::to_string(getpid()) + "-" +
          std::to_string(counter.fetch_add(1));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::map<std::string, std::string> DirectoryContents(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string rel = std::filesystem::relative(entry.path(), dir).string();
    if (entry.is_directory()) {
      out[rel + "/"] = "";
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    out[rel] = bytes.str();
  }
  return out;
}

uint64_t RandomSeed() {
  uint64_t seed;
  const char* env = getenv("STRATA_TEST_SEED");
  if (env != nullptr && env[0] != '\0') {
    seed = strtoull(env, nullptr, 10);
  } else {
    seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }
  printf("random seed: %llu (replay with STRATA_TEST_SEED=%llu)\n",
         static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

std::string RandomBytes(std::mt19937_64* rng, size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i++) s[i] = static_cast<char>((*rng)() & 0xff);
  return s;
}

std::string RandomPrintable(std::mt19937_64* rng, size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i++) s[i] = static_cast<char>(' ' + (*rng)() % 95);
  return s;
}

bool ParseLogFileName(const std::string& name, uint64_t* number, size_t* digits) {
  const std::string suffix = ".log";
  if (name.size() <= suffix.size() ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  const std::string num = name.substr(0, name.size() - suffix.size());
  if (num.size() > 19 ||
      !std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  *number = std::stoull(num);
  if (digits != nullptr) *digits = num.size();
  return true;
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return "";
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFileOrDie(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    ADD_FAILURE() << "cannot write " << path;
    return;
  }
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

void Event::Set() {
  std::lock_guard<std::mutex> l(mu_);
  set_ = true;
  cv_.notify_all();
}

bool Event::IsSet() const {
  std::lock_guard<std::mutex> l(mu_);
  return set_;
}

bool Event::WaitFor(int seconds) const {
  std::unique_lock<std::mutex> l(mu_);
  return cv_.wait_for(l, std::chrono::seconds(seconds), [this] { return set_; });
}

std::string RunCommand(const std::string& cmd, int* rc) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) {
    *rc = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  *rc = pclose(p);
  return out;
}

int SpawnSelf(const std::string& gtest_filter,
              const std::vector<std::pair<std::string, std::string>>& env) {
  // Everything execve needs is built before the fork.
  char self[4096];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (len <= 0) return -1;
  self[len] = '\0';
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  for (const auto& [name, value] : env) env_strings.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string filter = "--gtest_filter=" + gtest_filter;
  char* argv[] = {self, filter.data(), nullptr};
  fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    execve(self, argv, envp.data());
    _exit(127);
  }
  return pid;
}

}  // namespace strata::test
