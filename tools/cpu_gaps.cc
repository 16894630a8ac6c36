// cpu_gaps: how often a running thread loses the CPU for a while on this
// machine -- the floor under any latency percentile a benchmark reports.
//
// One thread reads the monotonic clock in a tight loop for SECONDS and
// counts the gaps between consecutive readings longer than 10, 20, 30, 100
// and 1000 microseconds (timer and device interrupts, the hypervisor taking
// the virtual CPU, preemption by other threads). With BUSY other threads
// spinning, the machine is as loaded as under a benchmark's background
// work. A thread doing N operations a second has about (gaps a second) / N
// of its operations lengthened by at least that gap, so p99.9 cannot fall
// below the smallest gap that happens more than N / 1000 times a second.
//
// Usage: cpu_gaps [SECONDS=10] [BUSY=0]
// Prints: cpu_gaps: busy=B seconds=S gaps/s >10us A >20us B >30us C
//         >100us D >1ms E
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  const int seconds = argc > 1 ? std::atoi(argv[1]) : 10;
  const int busy = argc > 2 ? std::atoi(argv[2]) : 0;
  if (seconds <= 0 || busy < 0) {
    std::fprintf(stderr, "usage: cpu_gaps [SECONDS>0] [BUSY>=0]\n");
    return 2;
  }
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  for (int i = 0; i < busy; i++) {
    spinners.emplace_back([&stop] {
      volatile unsigned long spins = 0;
      while (!stop.load(std::memory_order_relaxed)) spins = spins + 1;
    });
  }
  using Clock = std::chrono::steady_clock;
  constexpr long kLimitsNs[] = {10'000, 20'000, 30'000, 100'000, 1'000'000};
  long counts[5] = {};
  const Clock::time_point start = Clock::now();
  const Clock::time_point end = start + std::chrono::seconds(seconds);
  Clock::time_point prev = start;
  for (;;) {
    const Clock::time_point now = Clock::now();
    const long gap = std::chrono::duration_cast<std::chrono::nanoseconds>(now - prev).count();
    prev = now;
    for (int i = 0; i < 5 && gap > kLimitsNs[i]; i++) counts[i]++;
    if (now >= end) break;
  }
  stop = true;
  for (std::thread& t : spinners) t.join();
  std::printf(
      "cpu_gaps: busy=%d seconds=%d gaps/s >10us %ld >20us %ld >30us %ld >100us %ld >1ms %ld\n",
      busy, seconds, counts[0] / seconds, counts[1] / seconds, counts[2] / seconds,
      counts[3] / seconds, counts[4] / seconds);
  return 0;
}
