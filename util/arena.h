// Arena and ConcurrentArena: bump allocators for memtable entries.
//
// Memory is carved from blocks of block_size bytes (larger requests get a
// block of their own) and freed only when the arena is destroyed. Allocate
// returns unaligned memory; AllocateAligned returns memory aligned to
// alignof(std::max_align_t) (16 bytes on x86-64).
// MemoryUsage() counts every block allocated plus bookkeeping -- what the
// memtable charges against write_buffer_size.
// Thread-safety: Arena is not thread-safe. ConcurrentArena is: many threads
// may allocate at once (per-core shards in front of a shared arena), and
// MemoryUsage() may be read concurrently.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "util/mutex.h"

namespace strata {

// What the skip list allocates from.
class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual char* Allocate(size_t bytes) = 0;
  virtual char* AllocateAligned(size_t bytes) = 0;
  virtual size_t BlockSize() const = 0;
};

class Arena final : public Allocator {
 public:
  static constexpr size_t kMinBlockSize = 4096;
  static constexpr size_t kMaxBlockSize = 2u << 30;
  static constexpr size_t kDefaultBlockSize = 4096;

  // block_size is clamped to [kMinBlockSize, kMaxBlockSize] and rounded up to
  // a multiple of the alignment.
  explicit Arena(size_t block_size = kDefaultBlockSize);
  ~Arena() override;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  char* Allocate(size_t bytes) override;
  char* AllocateAligned(size_t bytes) override;
  size_t BlockSize() const override { return block_size_; }

  // Bytes of all blocks allocated plus bookkeeping overhead.
  size_t MemoryUsage() const { return memory_usage_; }
  // Bytes left in the current block.
  size_t AllocatedAndUnused() const { return alloc_bytes_remaining_; }

 private:
  char* AllocateFallback(size_t bytes, bool aligned);
  char* AllocateNewBlock(size_t block_bytes);

  const size_t block_size_;
  char* unaligned_ptr_ = nullptr;  // allocates downward from the block end
  char* aligned_ptr_ = nullptr;    // allocates upward from the block start
  size_t alloc_bytes_remaining_ = 0;
  size_t memory_usage_ = 0;
  // Frees a block the way it was allocated: huge-page blocks are mappings
  // of their own (mapped_bytes > 0), the others come from operator new[].
  struct BlockDeleter {
    size_t mapped_bytes = 0;
    void operator()(char* p) const;
  };
  std::vector<std::unique_ptr<char[], BlockDeleter>> blocks_;
};

class ConcurrentArena final : public Allocator {
 public:
  explicit ConcurrentArena(size_t block_size = Arena::kDefaultBlockSize);
  ~ConcurrentArena() override;
  ConcurrentArena(const ConcurrentArena&) = delete;
  ConcurrentArena& operator=(const ConcurrentArena&) = delete;

  char* Allocate(size_t bytes) override;
  char* AllocateAligned(size_t bytes) override;
  size_t BlockSize() const override { return block_size_; }

  // Thread-safe; may lag the true figure by at most one shard block per core.
  size_t MemoryUsage() const;

 private:
  struct Shard;
  char* AllocateImpl(size_t bytes, bool aligned);

  const size_t block_size_;
  const size_t shard_block_size_;
  Mutex mu_;
  Arena arena_ GUARDED_BY(mu_);
  std::atomic<size_t> arena_memory_usage_{0};
  std::unique_ptr<Shard[]> shards_;
  size_t num_shards_ = 0;
};

}  // namespace strata
