// CompactionJobStats's methods (include/strata/listener.h).
#include "strata/listener.h"

namespace strata {

// The definition a program's ODR-use of the constant needs.
const size_t CompactionJobStats::kMaxPrefixLength;

void CompactionJobStats::Reset() { *this = CompactionJobStats(); }

void CompactionJobStats::Add(const CompactionJobStats& s) {
  elapsed_micros += s.elapsed_micros;
  cpu_micros += s.cpu_micros;
  num_input_records += s.num_input_records;
  num_blobs_read += s.num_blobs_read;
  num_input_files += s.num_input_files;
  num_input_files_at_output_level += s.num_input_files_at_output_level;
  num_output_records += s.num_output_records;
  num_output_files += s.num_output_files;
  num_output_files_blob += s.num_output_files_blob;
  total_input_bytes += s.total_input_bytes;
  total_blob_bytes_read += s.total_blob_bytes_read;
  total_output_bytes += s.total_output_bytes;
  total_output_bytes_blob += s.total_output_bytes_blob;
  num_records_replaced += s.num_records_replaced;
  total_input_raw_key_bytes += s.total_input_raw_key_bytes;
  total_input_raw_value_bytes += s.total_input_raw_value_bytes;
  num_input_deletion_records += s.num_input_deletion_records;
  num_expired_deletion_records += s.num_expired_deletion_records;
  num_corrupt_keys += s.num_corrupt_keys;
  file_write_nanos += s.file_write_nanos;
  file_range_sync_nanos += s.file_range_sync_nanos;
  file_fsync_nanos += s.file_fsync_nanos;
  file_prepare_write_nanos += s.file_prepare_write_nanos;
  num_single_del_fallthru += s.num_single_del_fallthru;
  num_single_del_mismatch += s.num_single_del_mismatch;
}

}  // namespace strata
