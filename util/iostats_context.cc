// IOStatsContext (strata/iostats_context.h); the counting sites use
// util/perf_context_imp.h.
#include "strata/iostats_context.h"

#include <cinttypes>
#include <cstdio>
#include <string>

#include "util/perf_context_imp.h"

namespace strata {

namespace perf_internal {
thread_local IOStatsContext tls_iostats_context;
}  // namespace perf_internal

IOStatsContext* get_iostats_context() { return &perf_internal::tls_iostats_context; }

// RocksDB's printing order (bytes_read before bytes_written).
#define STRATA_IOSTATS_FIELDS(F)                       \
  F(thread_pool_id)                                    \
  F(bytes_read)                                        \
  F(bytes_written)                                     \
  F(open_nanos)                                        \
  F(allocate_nanos)                                    \
  F(write_nanos)                                       \
  F(read_nanos)                                        \
  F(range_sync_nanos)                                  \
  F(fsync_nanos)                                       \
  F(prepare_write_nanos)                               \
  F(logger_nanos)                                      \
  F(cpu_write_nanos)                                   \
  F(cpu_read_nanos)                                    \
  F(file_io_stats_by_temperature.hot_file_bytes_read)  \
  F(file_io_stats_by_temperature.warm_file_bytes_read) \
  F(file_io_stats_by_temperature.cold_file_bytes_read) \
  F(file_io_stats_by_temperature.hot_file_read_count)  \
  F(file_io_stats_by_temperature.warm_file_read_count) \
  F(file_io_stats_by_temperature.cold_file_read_count)

void IOStatsContext::Reset() {
#define STRATA_ZERO(name) name = 0;
  STRATA_IOSTATS_FIELDS(STRATA_ZERO)
#undef STRATA_ZERO
}

std::string IOStatsContext::ToString(bool exclude_zero_counters) const {
  std::string r;
  char buf[128];
#define STRATA_PRINT(name)                                         \
  if (!exclude_zero_counters || name != 0) {                       \
    snprintf(buf, sizeof(buf), "%s = %" PRIu64 ", ", #name, name); \
    r.append(buf);                                                 \
  }
  STRATA_IOSTATS_FIELDS(STRATA_PRINT)
#undef STRATA_PRINT
  TrimTrailingSeparator(&r);
  return r;
}

}  // namespace strata
