// options_extras: RocksDB's option helpers beyond plain fields, through its
// C++ interface: OldDefaults and DisableExtraChecks, Dump into a program's
// own Logger (the option names it writes), the Logger's level handling
// (a Logger overriding only the levelless Logv, LoggerWrapper),
// CreateLoggerFromOptions, the plain-table option parser, the memtable
// factory parser, CheckOptionsCompatibility against a database's OPTIONS
// file, WriteStringToFile over a FileSystem and the CreateFromString of WalFilter,
// FileChecksumGenFactory and EventListener.
// Built twice (RocksDB, Strata) and compared byte for byte.
// Usage: options_extras DB_DIR
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/file_checksum.h"
#include "rocksdb/file_system.h"
#include "rocksdb/listener.h"
#include "rocksdb/memtablerep.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb/wal_filter.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static const char* Code(const rdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsInvalidArgument()) return "InvalidArgument";
  if (s.IsNotSupported()) return "NotSupported";
  if (s.IsCorruption()) return "Corruption";
  if (s.IsNotFound()) return "NotFound";
  if (s.IsIOError()) return "IOError";
  return "other";
}

// A logger in RocksDB's older style: only the levelless Logv.
class Collector : public rdb::Logger {
 public:
  explicit Collector(const rdb::InfoLogLevel level = rdb::InfoLogLevel::INFO_LEVEL)
      : rdb::Logger(level) {}
  using rdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    char buf[2048];
    std::vsnprintf(buf, sizeof(buf), format, ap);
    lines.push_back(buf);
  }
  bool Contains(const std::string& text) const {
    for (const std::string& l : lines) {
      if (l.find(text) != std::string::npos) return true;
    }
    return false;
  }
  std::vector<std::string> lines;
};

static void OldDefaults() {
  const int versions[][2] = {{4, 6}, {5, 1}, {5, 5}, {5, 18}, {6, 0}};
  for (const auto& v : versions) {
    rdb::Options o;
    o.OldDefaults(v[0], v[1]);
    std::printf(
        "old defaults %d.%d: write_buffer_size=%zu target_file_size_base=%llu "
        "max_bytes_for_level_base=%llu soft=%llu hard=%llu l0_stop=%d compaction_pri=%d "
        "max_file_opening_threads=%d table_cache_numshardbits=%d delayed_write_rate=%llu "
        "max_open_files=%d wal_recovery_mode=%d\n",
        v[0], v[1], o.write_buffer_size, (unsigned long long)o.target_file_size_base,
        (unsigned long long)o.max_bytes_for_level_base,
        (unsigned long long)o.soft_pending_compaction_bytes_limit,
        (unsigned long long)o.hard_pending_compaction_bytes_limit, o.level0_stop_writes_trigger,
        static_cast<int>(o.compaction_pri), o.max_file_opening_threads, o.table_cache_numshardbits,
        (unsigned long long)o.delayed_write_rate, o.max_open_files,
        static_cast<int>(o.wal_recovery_mode));
  }
  rdb::Options o;
  std::printf("force_consistency_checks before=%d", o.force_consistency_checks);
  o.DisableExtraChecks();
  std::printf(" after=%d\n", o.force_consistency_checks);
  rdb::CompactionOptions co;
  std::printf("CompactionOptions: compression=%d limit_is_max=%d max_subcompactions=%u\n",
              static_cast<int>(co.compression), co.output_file_size_limit == ~uint64_t{0} ? 1 : 0,
              co.max_subcompactions);
  std::printf("db_host_id default=%s\n", rdb::DBOptions().db_host_id.c_str());
}

static void Dump() {
  rdb::Options o;
  o.max_open_files = 123;
  o.write_buffer_size = 7 << 20;
  Collector log;
  o.Dump(&log);
  const char* names[] = {"Options.create_if_missing",
                         "Options.max_open_files",
                         "Options.max_background_jobs",
                         "Options.write_buffer_size",
                         "Options.max_write_buffer_number",
                         "Options.num_levels",
                         "Options.level0_file_num_compaction_trigger",
                         "Options.max_bytes_for_level_base",
                         "Options.compaction_style"};
  for (const char* n : names) std::printf("dump has %s: %d\n", n, log.Contains(n) ? 1 : 0);
  Collector cf_log;
  o.DumpCFOptions(&cf_log);
  std::printf("DumpCFOptions has write_buffer_size: %d, max_open_files: %d\n",
              cf_log.Contains("Options.write_buffer_size") ? 1 : 0,
              cf_log.Contains("Options.max_open_files") ? 1 : 0);
  Collector db_log;
  static_cast<const rdb::DBOptions&>(o).Dump(&db_log);
  std::printf("DBOptions::Dump has max_open_files: %d, write_buffer_size: %d\n",
              db_log.Contains("Options.max_open_files") ? 1 : 0,
              db_log.Contains("Options.write_buffer_size") ? 1 : 0);
}

static void Loggers() {
  auto log = std::make_shared<Collector>(rdb::InfoLogLevel::INFO_LEVEL);
  rdb::Log(rdb::InfoLogLevel::DEBUG_LEVEL, log, "debug %d", 1);
  rdb::Log(rdb::InfoLogLevel::INFO_LEVEL, log, "info %d", 2);
  rdb::Log(rdb::InfoLogLevel::WARN_LEVEL, log, "warn %d", 3);
  rdb::Log(rdb::InfoLogLevel::ERROR_LEVEL, log, "error %d", 4);
  rdb::Header(log, "header %d", 5);
  rdb::Warn(log.get(), "warn via helper %s", "x");
  log->SetInfoLogLevel(rdb::InfoLogLevel::ERROR_LEVEL);
  rdb::Log(rdb::InfoLogLevel::WARN_LEVEL, log, "dropped %d", 6);
  rdb::Log(rdb::InfoLogLevel::FATAL_LEVEL, log, "fatal %d", 7);
  for (const std::string& l : log->lines) std::printf("logged: %s\n", l.c_str());
  std::printf("log file size unknown: %d\n",
              log->GetLogFileSize() == log->kDoNotSupportGetLogFileSize ? 1 : 0);
  std::printf("level is error: %d\n",
              log->GetInfoLogLevel() == rdb::InfoLogLevel::ERROR_LEVEL ? 1 : 0);

  Collector inner(rdb::InfoLogLevel::DEBUG_LEVEL);
  rdb::LoggerWrapper wrapper(&inner);
  rdb::Log(rdb::InfoLogLevel::DEBUG_LEVEL, &wrapper, "through wrapper %d", 8);
  wrapper.SetInfoLogLevel(rdb::InfoLogLevel::WARN_LEVEL);
  rdb::Log(rdb::InfoLogLevel::INFO_LEVEL, &wrapper, "wrapper dropped %d", 9);
  std::printf("inner level is warn: %d\n",
              inner.GetInfoLogLevel() == rdb::InfoLogLevel::WARN_LEVEL ? 1 : 0);
  for (const std::string& l : inner.lines) std::printf("inner logged: %s\n", l.c_str());
}

static bool Exists(rdb::Env* env, const std::string& f) { return env->FileExists(f).ok(); }

static void CreateLogger(const std::string& dir) {
  rdb::Env* env = rdb::Env::Default();
  rdb::DBOptions o;
  o.info_log_level = rdb::InfoLogLevel::WARN_LEVEL;
  std::shared_ptr<rdb::Logger> logger;
  Check(rdb::CreateLoggerFromOptions(dir, o, &logger), "CreateLoggerFromOptions");
  std::printf("logger level is warn: %d\n",
              logger->GetInfoLogLevel() == rdb::InfoLogLevel::WARN_LEVEL ? 1 : 0);
  rdb::Log(rdb::InfoLogLevel::ERROR_LEVEL, logger, "an error line");
  rdb::LogFlush(logger);
  logger.reset();
  std::string text;
  Check(rdb::ReadFileToString(env, dir + "/LOG", &text), "read LOG");
  std::printf("LOG has the line: %d\n", text.find("an error line") != std::string::npos ? 1 : 0);
  Check(rdb::CreateLoggerFromOptions(dir, o, &logger), "CreateLoggerFromOptions again");
  logger.reset();
  std::vector<std::string> children;
  Check(env->GetChildren(dir, &children), "GetChildren");
  int old = 0;
  for (const std::string& c : children) {
    if (c.rfind("LOG.old.", 0) == 0) old++;
  }
  std::printf("LOG exists: %d, LOG.old files: %d\n", Exists(env, dir + "/LOG") ? 1 : 0, old);
}

static void PlainTable() {
  rdb::PlainTableOptions base;
  rdb::PlainTableOptions out;
  rdb::Status s = rdb::GetPlainTableOptionsFromString(
      base,
      "user_key_len=16;bloom_bits_per_key=4;hash_table_ratio=0.5;index_sparseness=8;"
      "huge_page_tlb_size=4096;encoding_type=kPrefix;full_scan_mode=true;"
      "store_index_in_file=true",
      &out);
  std::printf(
      "plain: %s user_key_len=%u bloom_bits_per_key=%d hash_table_ratio=%.2f "
      "index_sparseness=%zu huge_page_tlb_size=%zu encoding_type=%d full_scan_mode=%d "
      "store_index_in_file=%d\n",
      Code(s), out.user_key_len, out.bloom_bits_per_key, out.hash_table_ratio, out.index_sparseness,
      out.huge_page_tlb_size, static_cast<int>(out.encoding_type), out.full_scan_mode ? 1 : 0,
      out.store_index_in_file ? 1 : 0);
  rdb::PlainTableOptions kept = out;
  s = rdb::GetPlainTableOptionsFromString(kept, "user_key_len=3;no_such_option=1", &out);
  std::printf("plain unknown: %s user_key_len=%u\n", Code(s), out.user_key_len);
  s = rdb::GetPlainTableOptionsFromString(kept, "user_key_len=abc", &out);
  std::printf("plain bad value: %s user_key_len=%u\n", Code(s), out.user_key_len);
  std::unordered_map<std::string, std::string> map = {{"user_key_len", "9"},
                                                      {"no_such_option", "1"}};
  s = rdb::GetPlainTableOptionsFromMap(base, map, &out, false, true);
  std::printf("plain map ignoring unknown: %s user_key_len=%u\n", Code(s), out.user_key_len);
  s = rdb::GetPlainTableOptionsFromMap(base, map, &out);
  std::printf("plain map strict: %s user_key_len=%u\n", Code(s), out.user_key_len);
}

static void MemTables() {
  const char* specs[] = {"skip_list", "skip_list:16",     "SkipListFactory",
                         "vector",    "prefix_hash",      "hash_linkedlist",
                         "cuckoo",    "no_such_memtable", ""};
  for (const char* spec : specs) {
    std::unique_ptr<rdb::MemTableRepFactory> f;
    rdb::Status s = rdb::GetMemTableRepFactoryFromString(spec, &f);
    std::printf("memtable \"%s\": %s %s\n", spec, Code(s), f ? f->Name() : "(null)");
  }
}

static void Compatibility(const std::string& path) {
  rdb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 1 << 20;
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  rdb::ColumnFamilyHandle* cf = nullptr;
  Check(db->CreateColumnFamily(rdb::ColumnFamilyOptions(options), "second", &cf), "create cf");
  Check(db->DestroyColumnFamilyHandle(cf), "destroy handle");
  delete db;

  rdb::Env* env = rdb::Env::Default();
  rdb::ColumnFamilyOptions cfo(options);
  std::vector<rdb::ColumnFamilyDescriptor> same = {{rdb::kDefaultColumnFamilyName, cfo},
                                                   {"second", cfo}};
  std::printf("compat same: %s\n", Code(rdb::CheckOptionsCompatibility(path, env, options, same)));
  std::vector<rdb::ColumnFamilyDescriptor> one = {{rdb::kDefaultColumnFamilyName, cfo}};
  std::printf("compat fewer families: %s\n",
              Code(rdb::CheckOptionsCompatibility(path, env, options, one)));
  std::vector<rdb::ColumnFamilyDescriptor> renamed = {{rdb::kDefaultColumnFamilyName, cfo},
                                                      {"other", cfo}};
  std::printf("compat renamed family: %s\n",
              Code(rdb::CheckOptionsCompatibility(path, env, options, renamed)));
  rdb::ColumnFamilyOptions reversed = cfo;
  reversed.comparator = rdb::ReverseBytewiseComparator();
  std::vector<rdb::ColumnFamilyDescriptor> other_cmp = {{rdb::kDefaultColumnFamilyName, reversed},
                                                        {"second", cfo}};
  std::printf("compat other comparator: %s\n",
              Code(rdb::CheckOptionsCompatibility(path, env, options, other_cmp)));
  rdb::ColumnFamilyOptions bigger = cfo;
  bigger.write_buffer_size = 8 << 20;
  std::vector<rdb::ColumnFamilyDescriptor> other_size = {{rdb::kDefaultColumnFamilyName, bigger},
                                                         {"second", cfo}};
  std::printf("compat other write_buffer_size (loose): %s\n",
              Code(rdb::CheckOptionsCompatibility(path, env, options, other_size)));
  rdb::ConfigOptions exact;
  exact.env = env;
  exact.sanity_level = rdb::ConfigOptions::kSanityLevelExactMatch;
  std::printf("compat other write_buffer_size (exact): %s\n",
              Code(rdb::CheckOptionsCompatibility(exact, path, options, other_size)));
  rdb::ConfigOptions none;
  none.env = env;
  none.sanity_level = rdb::ConfigOptions::kSanityLevelNone;
  std::printf("compat other comparator (none): %s\n",
              Code(rdb::CheckOptionsCompatibility(none, path, options, other_cmp)));
  rdb::ColumnFamilyOptions plain = cfo;
  plain.table_factory.reset(rdb::NewPlainTableFactory());
  std::vector<rdb::ColumnFamilyDescriptor> other_table = {{rdb::kDefaultColumnFamilyName, plain},
                                                          {"second", cfo}};
  std::printf("compat other table factory: %s\n",
              Code(rdb::CheckOptionsCompatibility(path, env, options, other_table)));
  std::printf("compat missing db: %s\n",
              Code(rdb::CheckOptionsCompatibility(path + "_none", env, options, same)));
}

// (Env::LoadLibrary is left out: RocksDB's POSIX Env opens libraries only
// when built with dynamic extensions, which the system RocksDB is not.)
static void Files(const std::string& dir) {
  auto fs = rdb::FileSystem::Default();
  const std::string f = dir + "/written";
  Check(fs->CreateDirIfMissing(dir, rdb::IOOptions(), nullptr), "mkdir");
  rdb::IOStatus io = rdb::WriteStringToFile(fs.get(), "some bytes", f, true);
  std::string back;
  Check(rdb::ReadFileToString(fs.get(), f, &back), "read back");
  std::printf("WriteStringToFile: %s \"%s\"\n", Code(io), back.c_str());
}

static void Loaders() {
  rdb::ConfigOptions config;
  rdb::WalFilter* filter = nullptr;
  rdb::Status s = rdb::WalFilter::CreateFromString(config, "", &filter);
  std::printf("WalFilter \"\": %s null=%d\n", Code(s), filter == nullptr ? 1 : 0);
  std::shared_ptr<rdb::FileChecksumGenFactory> factory;
  s = rdb::FileChecksumGenFactory::CreateFromString(config, "FileChecksumGenCrc32cFactory",
                                                    &factory);
  std::printf("FileChecksumGenFactory: %s %s\n", Code(s), factory ? factory->Name() : "(null)");
  s = rdb::FileChecksumGenFactory::CreateFromString(config, "", &factory);
  std::printf("FileChecksumGenFactory \"\": %s null=%d\n", Code(s), factory == nullptr ? 1 : 0);
  std::shared_ptr<rdb::EventListener> listener;
  s = rdb::EventListener::CreateFromString(config, "", &listener);
  std::printf("EventListener \"\": %s null=%d\n", Code(s), listener == nullptr ? 1 : 0);
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  rdb::Env::Default()->CreateDirIfMissing(path).PermitUncheckedError();
  OldDefaults();
  Dump();
  Loggers();
  CreateLogger(path + "/logdb");
  PlainTable();
  MemTables();
  Compatibility(path + "/db");
  Files(path + "/files");
  Loaders();
  return 0;
}
