// Arena and ConcurrentArena (see util/arena.h for the contract).
//
// Arena block layout: aligned allocations are carved upward from the block
// start and unaligned ones downward from the block end, so mixing the two
// wastes no padding between them. A request that does not fit in the current
// block and is larger than a quarter of the block size gets a block of its
// own, which bounds the space abandoned at the end of a block to a quarter
// of it.
//
// Huge pages: blocks of 2 MiB or more start on a 2 MiB boundary and are
// madvise()d for transparent huge pages. A memtable is a big pointer-chasing
// structure; on this class of (virtualized) machine a TLB miss costs as much
// as the cache miss itself: in bench/skiplist_bench, MemTable::Get over 1M
// entries drops from about 3.2 to 2.2 us and random inserts by about 15%.
// (madvise is a memory hint, not I/O, so it does not go through env/.)
//
// ConcurrentArena puts per-core shards in front of one Arena. Each shard owns
// a slab taken from the Arena under mu_ and hands out pieces of it under its
// own spin lock, which in the common case no other thread touches. Large
// requests skip the shards and go to the Arena directly. Its inner Arena
// rounds blocks of 1 MiB and more up to a multiple of 2 MiB so that they get
// huge pages (BlockSize() still reports the requested size). Lock order: a
// shard lock, then mu_.
#include "util/arena.h"

#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <cassert>
#include <new>
#include <thread>

#include "util/thread_annotations.h"

namespace strata {

namespace {

constexpr size_t kAlign = alignof(std::max_align_t);
static_assert((kAlign & (kAlign - 1)) == 0, "alignment must be a power of two");

constexpr size_t RoundUpToAlign(size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }

size_t ClampBlockSize(size_t block_size) {
  block_size = std::clamp(block_size, Arena::kMinBlockSize, Arena::kMaxBlockSize);
  return RoundUpToAlign(block_size);
}

// Blocks of at least this size are placed on transparent huge pages.
constexpr size_t kHugePageSize = 2 << 20;
constexpr size_t kPageSize = 4096;

}  // namespace

void Arena::BlockDeleter::operator()(char* p) const {
  if (mapped_bytes > 0) {
    munmap(p, mapped_bytes);
  } else {
    delete[] p;
  }
}

// ---------------------------------------------------------------- Arena

Arena::Arena(size_t block_size) : block_size_(ClampBlockSize(block_size)) {}

Arena::~Arena() = default;

char* Arena::Allocate(size_t bytes) {
  // "bytes - 1 < remaining" is "0 < bytes <= remaining" in one comparison:
  // bytes == 0 wraps around and takes the fallback, which returns a valid
  // pointer even before the first block exists.
  if (bytes - 1 < alloc_bytes_remaining_) {
    unaligned_ptr_ -= bytes;
    alloc_bytes_remaining_ -= bytes;
    return unaligned_ptr_;
  }
  return AllocateFallback(bytes, /*aligned=*/false);
}

char* Arena::AllocateAligned(size_t bytes) {
  // Rounding the size keeps aligned_ptr_ aligned, so the next aligned request
  // needs no padding. Blocks start aligned (operator new[] guarantees
  // __STDCPP_DEFAULT_NEW_ALIGNMENT__, which is kAlign on the targets we build for).
  const size_t needed = RoundUpToAlign(bytes);
  if (needed - 1 < alloc_bytes_remaining_) {
    char* result = aligned_ptr_;
    aligned_ptr_ += needed;
    alloc_bytes_remaining_ -= needed;
    return result;
  }
  return AllocateFallback(bytes, /*aligned=*/true);
}

char* Arena::AllocateFallback(size_t bytes, bool aligned) {
  if (bytes > block_size_ / 4) {
    // A block of its own; the current block keeps serving small requests.
    return AllocateNewBlock(bytes);
  }
  // Abandon what is left of the current block (less than bytes, so at most
  // a quarter of a block) and start a fresh one.
  char* block = AllocateNewBlock(block_size_);
  aligned_ptr_ = block;
  unaligned_ptr_ = block + block_size_;
  alloc_bytes_remaining_ = block_size_;
  if (bytes == 0) return block;
  return aligned ? AllocateAligned(bytes) : Allocate(bytes);
}

char* Arena::AllocateNewBlock(size_t block_bytes) {
  static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= kAlign,
                "operator new[] must return memory aligned for AllocateAligned");
  // What one block costs beyond its bytes: its entry in blocks_.
  constexpr size_t kBlockOverhead = sizeof(decltype(blocks_)::value_type);
  if (block_bytes >= kHugePageSize) {
    // A mapping of its own, starting on a huge-page boundary: map one huge
    // page more than needed and unmap the unaligned head and the tail, then
    // ask for transparent huge pages. Exactly the block's pages stay mapped,
    // and they go back to the system when the arena is destroyed. (A block
    // over-allocated from the heap would keep its alignment slack, up to
    // 2 MiB a block that the memtable's charge does not count, resident
    // whenever the heap recycles touched memory for it.)
    const size_t len = (block_bytes + kPageSize - 1) & ~(kPageSize - 1);
    void* p = mmap(nullptr, len + kHugePageSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    const auto raw = reinterpret_cast<uintptr_t>(p);
    const uintptr_t start = (raw + kHugePageSize - 1) & ~(kHugePageSize - 1);
    const size_t head = start - raw;
    if (head > 0) munmap(p, head);
    if (kHugePageSize - head > 0)
      munmap(reinterpret_cast<char*>(start + len), kHugePageSize - head);
    char* block = reinterpret_cast<char*>(start);
    blocks_.emplace_back(block, BlockDeleter{len});
    // A hint: if it fails the block simply stays on small pages.
    (void)madvise(block, len & ~(kHugePageSize - 1), MADV_HUGEPAGE);
    memory_usage_ += block_bytes + kBlockOverhead;
    return block;
  }
  // Not value-initialized: the memory is about to be overwritten.
  blocks_.emplace_back(new char[std::max<size_t>(block_bytes, 1)], BlockDeleter{});
  memory_usage_ += block_bytes + kBlockOverhead;
  return blocks_.back().get();
}

// ------------------------------------------------------- ConcurrentArena

namespace {

// A test-and-test-and-set lock for the shards: held for a few instructions,
// so spinning is cheaper than parking; it yields after a while in case the
// holder was preempted (this machine may run more threads than cores).
class CAPABILITY("mutex") SpinLock {
 public:
  bool TryLock() TRY_ACQUIRE(true) {
    // acquire: the holder's writes to the shard happen-before ours.
    return !locked_.load(std::memory_order_relaxed) &&
           !locked_.exchange(true, std::memory_order_acquire);
  }
  void Lock() ACQUIRE() {
    for (int spins = 0; !TryLock(); spins++) {
      if (spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else {
        std::this_thread::yield();
      }
    }
  }
  // release: publishes our writes to the shard to the next holder.
  void Unlock() RELEASE() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

// Which shard this thread uses, as an index not yet reduced modulo the
// shard count. kUnset until the thread's first allocation.
constexpr unsigned kUnset = ~0u;
thread_local unsigned tls_shard_hint = kUnset;

unsigned CurrentCpuHint() {
  const int cpu = sched_getcpu();
  if (cpu >= 0) return static_cast<unsigned>(cpu);
  // No CPU number available: spread threads round-robin instead.
  static std::atomic<unsigned> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);  // relaxed: just a counter
}

}  // namespace

// One per core, on its own cache line so shards never false-share.
struct alignas(64) ConcurrentArena::Shard {
  SpinLock lock;
  // The free part of the shard's slab is [begin, end): aligned pieces are cut
  // from begin (which stays kAlign-aligned), unaligned ones from end.
  char* begin GUARDED_BY(lock) = nullptr;
  char* end GUARDED_BY(lock) = nullptr;
};

namespace {

// The block size of a ConcurrentArena's inner Arena. Blocks of 1 MiB and
// more (memtables of 8 MiB and more) are rounded up to whole huge pages so
// that the huge-page path applies to them: the memtable's memory then grows
// in steps of 2 MiB instead of 1 MiB, and lookups and inserts get faster.
size_t InnerBlockSize(size_t block_size) {
  if (block_size < (1 << 20)) return block_size;
  return (block_size + kHugePageSize - 1) & ~(kHugePageSize - 1);
}

}  // namespace

ConcurrentArena::ConcurrentArena(size_t block_size)
    : block_size_(ClampBlockSize(block_size)),
      // Small slabs keep the space stranded in idle shards small; 128 KiB
      // amortizes the mutex over hundreds of memtable entries.
      shard_block_size_(RoundUpToAlign(std::min<size_t>(128 << 10, block_size_ / 8))),
      arena_(InnerBlockSize(block_size_)) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  num_shards_ = 1;
  while (num_shards_ < cores && num_shards_ < 256) num_shards_ *= 2;
  shards_ = std::make_unique<Shard[]>(num_shards_);
}

ConcurrentArena::~ConcurrentArena() = default;

char* ConcurrentArena::Allocate(size_t bytes) { return AllocateImpl(bytes, /*aligned=*/false); }

char* ConcurrentArena::AllocateAligned(size_t bytes) {
  return AllocateImpl(bytes, /*aligned=*/true);
}

size_t ConcurrentArena::MemoryUsage() const {
  // relaxed: a statistic; it is only ever stored under mu_ and read here.
  return arena_memory_usage_.load(std::memory_order_relaxed);
}

char* ConcurrentArena::AllocateImpl(size_t bytes, bool aligned) {
  if (bytes > shard_block_size_ / 4) {
    MutexLock lock(&mu_);
    char* result = aligned ? arena_.AllocateAligned(bytes) : arena_.Allocate(bytes);
    arena_memory_usage_.store(arena_.MemoryUsage(), std::memory_order_relaxed);
    return result;
  }

  const size_t shard_mask = num_shards_ - 1;
  unsigned hint = tls_shard_hint;
  if (hint == kUnset) hint = tls_shard_hint = CurrentCpuHint();
  Shard* shard = &shards_[hint & shard_mask];
  if (!shard->lock.TryLock()) {
    // Contended: this thread probably moved to another core. Follow it.
    hint = tls_shard_hint = CurrentCpuHint();
    shard = &shards_[hint & shard_mask];
    shard->lock.Lock();
  }

  // Sizes here are at most shard_block_size_ / 4, so a fresh slab always fits.
  // bytes == 0 takes the refill path too ("n - 1" wraps), so the result is
  // never null.
  const size_t needed = aligned ? RoundUpToAlign(bytes) : bytes;
  if (needed - 1 >= static_cast<size_t>(shard->end - shard->begin)) {
    char* slab;
    {
      MutexLock lock(&mu_);
      slab = arena_.AllocateAligned(shard_block_size_);
      arena_memory_usage_.store(arena_.MemoryUsage(), std::memory_order_relaxed);
    }
    shard->begin = slab;
    shard->end = slab + shard_block_size_;
  }
  char* result;
  if (aligned) {
    result = shard->begin;
    shard->begin += needed;
  } else {
    shard->end -= needed;
    result = shard->end;
  }
  shard->lock.Unlock();
  return result;
}

}  // namespace strata
