// A stand-in for libFuzzer when the compiler has none (g++): runs
// LLVMFuzzerTestOneInput over every file of the corpus directories and files
// named on the command line, then, with -max_total_time=N, keeps mutating
// corpus inputs at random (bit flips, byte inserts and deletes, truncations,
// splices) for N seconds. A poor man's fuzzer: no coverage feedback, but
// every target is exercised by any compiler.
//
// Flags (libFuzzer's spelling; unknown -flags are ignored):
//   -max_total_time=N  seconds of random mutation after the replay (0: none)
//   -runs=N            stop after N mutated inputs
//   -seed=N            mutation seed (default: from the clock; always printed)
//   -max_len=N         longest mutated input (default 4096)
// A crashing input (signal, failed check, sanitizer report) is written to
// ./crash-standalone by a crash handler.
// Thread-safety: a program, single-threaded.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// Provided by the sanitizer runtimes when linked in (weak: may be absent).
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

namespace {

bool ReadWholeFile(const std::filesystem::path& p, std::string* out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

const char* kCrashFile = "crash-standalone";

// The input being run, written out by the crash handlers below (so a crash
// leaves it behind without costing a file write per input).
const std::string* g_current = nullptr;

void WriteCurrent() {
  if (g_current == nullptr) return;
  // open/write/close only: async-signal-safe.
  const int fd = open(kCrashFile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  size_t done = 0;
  while (done < g_current->size()) {
    const ssize_t n = write(fd, g_current->data() + done, g_current->size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  const char msg[] = "standalone: crashing input written to crash-standalone\n";
  (void)!write(2, msg, sizeof(msg) - 1);
}

void OnSignal(int sig) {
  WriteCurrent();
  signal(sig, SIG_DFL);
  raise(sig);
}

void InstallCrashHandlers() {
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) signal(sig, OnSignal);
  // Sanitizer reports end in _exit, not a signal: their death callback.
  if (&__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(WriteCurrent);
}

void SaveCurrent(const std::string& input) { g_current = &input; }

void RunOne(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

std::string Mutate(const std::vector<std::string>& corpus, std::mt19937_64* rng, size_t max_len) {
  auto pick = [&](uint64_t n) -> uint64_t { return n == 0 ? 0 : (*rng)() % n; };
  std::string s = corpus.empty() ? std::string() : corpus[pick(corpus.size())];
  const int steps = 1 + static_cast<int>(pick(8));
  for (int i = 0; i < steps; ++i) {
    switch (pick(8)) {
      case 0:  // flip one bit
        if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << pick(8));
        break;
      case 1:  // set one byte to a random or interesting value
        if (!s.empty()) {
          static const unsigned char kInteresting[] = {0, 1, 0x7f, 0x80, 0xff, 0x0f, 0x10, 0x40};
          s[pick(s.size())] = static_cast<char>(pick(2) ? kInteresting[pick(sizeof(kInteresting))]
                                                        : static_cast<unsigned char>(pick(256)));
        }
        break;
      case 2: {  // insert random bytes
        const size_t n = 1 + pick(8);
        std::string ins(n, '\0');
        for (char& c : ins) c = static_cast<char>(pick(256));
        s.insert(pick(s.size() + 1), ins);
        break;
      }
      case 3:  // delete a run of bytes
        if (!s.empty()) {
          const size_t pos = pick(s.size());
          s.erase(pos, 1 + pick(std::min<size_t>(16, s.size() - pos)));
        }
        break;
      case 4:  // truncate
        if (!s.empty()) s.resize(pick(s.size()));
        break;
      case 5: {  // splice with another corpus input
        if (corpus.empty()) break;
        const std::string& other = corpus[pick(corpus.size())];
        const size_t cut = pick(s.size() + 1);
        const size_t from = pick(other.size() + 1);
        s = s.substr(0, cut) + other.substr(from);
        break;
      }
      case 6:  // duplicate a run of bytes
        if (!s.empty()) {
          const size_t pos = pick(s.size());
          const size_t n = 1 + pick(std::min<size_t>(32, s.size() - pos));
          s.insert(pick(s.size() + 1), s.substr(pos, n));
        }
        break;
      default:  // add or subtract a small number to one byte
        if (!s.empty()) {
          const size_t pos = pick(s.size());
          s[pos] = static_cast<char>(s[pos] + static_cast<char>(pick(35)) - 17);
        }
        break;
    }
  }
  if (s.size() > max_len) s.resize(max_len);
  return s;
}

bool ParseFlag(const char* arg, const char* name, uint64_t* value) {
  const size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  *value = strtoull(arg + n + 1, nullptr, 10);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  InstallCrashHandlers();
  uint64_t max_total_time = 0, runs = UINT64_MAX, max_len = 4096;
  uint64_t seed =
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  std::vector<std::filesystem::path> paths;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (a[0] == '-') {
      if (!ParseFlag(a, "-max_total_time", &max_total_time) && !ParseFlag(a, "-runs", &runs) &&
          !ParseFlag(a, "-seed", &seed) && !ParseFlag(a, "-max_len", &max_len)) {
        fprintf(stderr, "standalone fuzz driver: ignoring flag %s\n", a);
      }
      continue;
    }
    paths.emplace_back(a);
  }

  std::vector<std::string> corpus;
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::recursive_directory_iterator(p, ec)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        std::string data;
        if (ReadWholeFile(f, &data)) corpus.push_back(std::move(data));
      }
    } else {
      std::string data;
      if (!ReadWholeFile(p, &data)) {
        fprintf(stderr, "cannot read %s\n", p.c_str());
        return 1;
      }
      corpus.push_back(std::move(data));
    }
  }

  // Replay: the corpus itself, plus the empty input.
  RunOne(std::string());
  for (const std::string& input : corpus) {
    SaveCurrent(input);
    RunOne(input);
  }
  printf("standalone: replayed %zu inputs\n", corpus.size());

  uint64_t execs = 0;
  if (max_total_time > 0 && runs > 0) {
    printf("standalone: mutating for %llu s, seed=%llu\n",
           static_cast<unsigned long long>(max_total_time), static_cast<unsigned long long>(seed));
    fflush(stdout);
    std::mt19937_64 rng(seed);
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::seconds(max_total_time);
    while (execs < runs) {
      if ((execs & 15) == 0 && std::chrono::steady_clock::now() >= deadline) break;
      const std::string input = Mutate(corpus, &rng, max_len);
      SaveCurrent(input);
      RunOne(input);
      ++execs;
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    printf("standalone: Done %llu runs in %.1f s (%.0f exec/s), seed=%llu\n",
           static_cast<unsigned long long>(execs), secs, secs > 0 ? execs / secs : 0.0,
           static_cast<unsigned long long>(seed));
  }
  g_current = nullptr;
  return 0;
}
