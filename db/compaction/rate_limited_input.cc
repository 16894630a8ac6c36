// NewRateLimitedInput (see db/compaction/rate_limited_input.h).
#include "db/compaction/rate_limited_input.h"

#include <algorithm>

namespace strata {

namespace {

class RateLimitedInput final : public InternalIterator {
 public:
  RateLimitedInput(std::unique_ptr<InternalIterator> input, RateLimiter* limiter, Statistics* stats,
                   double factor)
      : input_(std::move(input)), limiter_(limiter), stats_(stats), factor_(factor) {}
  ~RateLimitedInput() override { Charge(/*all=*/true); }

  bool Valid() const override { return input_->Valid(); }
  void SeekToFirst() override {
    input_->SeekToFirst();
    Count();
  }
  void SeekToLast() override {
    input_->SeekToLast();
    Count();
  }
  void Seek(const Slice& target) override {
    input_->Seek(target);
    Count();
  }
  void SeekForPrev(const Slice& target) override {
    input_->SeekForPrev(target);
    Count();
  }
  void Next() override {
    input_->Next();
    Count();
  }
  void Prev() override {
    input_->Prev();
    Count();
  }
  Slice key() const override { return input_->key(); }
  Slice value() const override { return input_->value(); }
  Status status() const override { return input_->status(); }
  bool IsValuePinned() const override { return input_->IsValuePinned(); }
  bool CurrentFileRange(uint64_t* largest_seqno, Slice* smallest_user_key,
                        Slice* largest_user_key) const override {
    return input_->CurrentFileRange(largest_seqno, smallest_user_key, largest_user_key);
  }

 private:
  // Counts the entry now under the cursor; charges whole bursts.
  void Count() {
    if (!input_->Valid()) return;
    owed_ += static_cast<double>(input_->key().size() + input_->value().size()) * factor_;
    if (owed_ >= static_cast<double>(limiter_->GetSingleBurstBytes())) Charge(false);
  }
  void Charge(bool all) {
    while (owed_ >= 1.0) {
      const int64_t burst = limiter_->GetSingleBurstBytes();
      if (!all && owed_ < static_cast<double>(burst)) return;
      const int64_t n = std::min<int64_t>(burst, static_cast<int64_t>(owed_));
      limiter_->Request(n, Env::IO_LOW, stats_, RateLimiter::OpType::kRead);
      owed_ -= static_cast<double>(n);
    }
  }

  const std::unique_ptr<InternalIterator> input_;
  RateLimiter* const limiter_;
  Statistics* const stats_;
  const double factor_;
  double owed_ = 0;  // bytes read, not yet charged
};

}  // namespace

std::unique_ptr<InternalIterator> NewRateLimitedInput(std::unique_ptr<InternalIterator> input,
                                                      RateLimiter* limiter, Statistics* stats,
                                                      double file_bytes_per_entry_byte) {
  if (limiter == nullptr || !limiter->IsRateLimited(RateLimiter::OpType::kRead)) return input;
  return std::make_unique<RateLimitedInput>(std::move(input), limiter, stats,
                                            file_bytes_per_entry_byte);
}

}  // namespace strata
