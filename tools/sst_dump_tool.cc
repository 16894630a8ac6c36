// SSTDumpTool (strata/utilities/sst_dump_tool.h), the `sst_dump` tool:
// inspects table files (SSTs) in the block-based format, ours or RocksDB's,
// taking RocksDB's sst_dump flags where they apply.
//
//   --file=PATH          a table file, or a directory: every *.sst in it
//   --command=C          scan (default): print entries, RocksDB's line shape
//                          'key' seq:N, type:T => value
//                        check: read every entry (checksums verified)
//                        verify: verify every block's checksum; "The file is ok"
//                        raw: write <file minus .sst>_dump.txt with the footer,
//                          metaindex, properties, index entries, range
//                          tombstones and every data block's entries (hex)
//                        none: nothing (with --show_properties)
//   --show_properties    print the table properties after the command
//   --from=KEY --to=KEY  scan/check only user keys in [from, to)
//   --read_num=N         stop after N entries (scan/check)
//   --output_hex         print keys and values in hex
//   --input_key_hex      --from/--to are hex
//   --verify_checksum    scan verifies block checksums (check always does)
//
// Errors print the Status (which names the file and offset) on stderr; the
// exit status is 1 if any file failed, 2 for bad flags, else 0.
// Thread-safety: one run at a time per process.

#include "strata/utilities/sst_dump_tool.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "strata/comparator.h"
#include "strata/env.h"
#include "strata/table.h"
#include "strata/table_properties.h"
#include "table/block.h"
#include "table/block_based_table_reader.h"
#include "table/format.h"
#include "table/meta_blocks.h"

namespace strata {
namespace {

struct Flags {
  std::string file;
  std::string command = "scan";
  bool show_properties = false;
  bool has_from = false;
  bool has_to = false;
  std::string from;
  std::string to;
  uint64_t read_num = UINT64_MAX;
  bool output_hex = false;
  bool input_key_hex = false;
  bool verify_checksum = false;
};

void Usage() {
  std::fprintf(stderr,
               "usage: sst_dump --file=<file or directory> "
               "[--command=scan|check|verify|raw|none]\n"
               "  [--show_properties] [--from=KEY] [--to=KEY] [--read_num=N]\n"
               "  [--output_hex] [--input_key_hex] [--verify_checksum]\n");
}

// `hex` is taken by value: *out may be the same string.
bool ParseHex(std::string hex, std::string* out) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  size_t start = (hex.size() >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) ? 2 : 0;
  if ((hex.size() - start) % 2 != 0) return false;
  out->clear();
  for (size_t i = start; i < hex.size(); i += 2) {
    const int hi = nibble(hex[i]);
    const int lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

// Returns false (after printing why) on a bad command line.
bool ParseFlags(int argc, char const* const* argv, Flags* f) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? arg.substr(eq + 1) : std::string();
    auto need_value = [&]() {
      if (!has_value) std::fprintf(stderr, "sst_dump: %s needs a value\n", name.c_str());
      return has_value;
    };
    if (name == "--file") {
      if (!need_value()) return false;
      f->file = value;
    } else if (name == "--command") {
      if (!need_value()) return false;
      f->command = value;
    } else if (name == "--from") {
      if (!need_value()) return false;
      f->from = value;
      f->has_from = true;
    } else if (name == "--to") {
      if (!need_value()) return false;
      f->to = value;
      f->has_to = true;
    } else if (name == "--read_num") {
      if (!need_value()) return false;
      char* end = nullptr;
      const long long n = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0') {
        std::fprintf(stderr, "sst_dump: bad --read_num: %s\n", value.c_str());
        return false;
      }
      // RocksDB treats a negative count as "no limit".
      f->read_num = n < 0 ? UINT64_MAX : static_cast<uint64_t>(n);
    } else if (name == "--show_properties") {
      f->show_properties = true;
    } else if (name == "--output_hex") {
      f->output_hex = true;
    } else if (name == "--input_key_hex") {
      f->input_key_hex = true;
    } else if (name == "--verify_checksum") {
      f->verify_checksum = true;
    } else if (name == "--help" || name == "-h") {
      Usage();
      std::exit(0);
    } else {
      std::fprintf(stderr, "sst_dump: unknown flag %s\n", arg.c_str());
      return false;
    }
  }
  if (f->file.empty()) {
    std::fprintf(stderr, "sst_dump: --file is required\n");
    return false;
  }
  static const char* const kCommands[] = {"scan", "check", "verify", "raw", "none"};
  if (std::none_of(std::begin(kCommands), std::end(kCommands),
                   [&](const char* c) { return f->command == c; })) {
    std::fprintf(stderr, "sst_dump: unknown command %s\n", f->command.c_str());
    return false;
  }
  if (f->input_key_hex) {
    if ((f->has_from && !ParseHex(f->from, &f->from)) || (f->has_to && !ParseHex(f->to, &f->to))) {
      std::fprintf(stderr, "sst_dump: --from/--to are not hex\n");
      return false;
    }
  }
  return true;
}

void Print(const Slice& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// Hex digits and a spaced ASCII rendering, as RocksDB's raw dump shows them.
std::string Ascii(const Slice& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    out.push_back(c >= 0x20 && c < 0x7f ? c : '.');
    out.push_back(' ');
  }
  return out;
}

std::string HandleString(const BlockHandle& h) {
  return "offset " + std::to_string(h.offset()) + " size " + std::to_string(h.size());
}

// One opened table file.
class Dumper {
 public:
  // fs: reads (and for raw, writes) the files; user_cmp: tried first when
  // not a bytewise one (may be null).
  Dumper(const Flags& flags, std::string path, FileSystem* fs, const Comparator* user_cmp)
      : flags_(flags), path_(std::move(path)), fs_(fs), user_cmp_(user_cmp) {}

  Status Open() {
    FileSystem* fs = fs_;
    uint64_t size = 0;
    Status s = fs->GetFileSize(path_, &size);
    if (!s.ok()) return s;
    // The comparator the file names: the caller's, else bytewise, else (if
    // the reader refuses those) the reverse bytewise one. The error reported
    // is the first attempt's.
    Status first;
    bool failed = false;
    // A comparator the caller's options name comes first.
    std::vector<const Comparator*> order;
    if (user_cmp_ != nullptr && user_cmp_ != BytewiseComparator() &&
        user_cmp_ != ReverseBytewiseComparator()) {
      order.push_back(user_cmp_);
    }
    order.push_back(BytewiseComparator());
    order.push_back(ReverseBytewiseComparator());
    for (const Comparator* cmp : order) {
      std::unique_ptr<RandomAccessFile> file;
      s = fs->NewRandomAccessFile(path_, FileOptions(), &file);
      if (!s.ok()) return s;
      TableReaderOptions options;
      options.table_options.no_block_cache = true;
      options.user_comparator = cmp;
      options.file_name = path_;
      options.skip_filters = true;
      s = BlockBasedTable::Open(options, std::move(file), size, &table_);
      if (s.ok()) {
        cmp_ = cmp;
        first.PermitUncheckedError();
        return s;
      }
      if (cmp == ReverseBytewiseComparator()) break;  // the last resort
      if (!failed) {
        first = s;
        failed = true;
      }
      if (!s.IsInvalidArgument()) break;
    }
    s.PermitUncheckedError();
    return first;  // the bytewise attempt's error
  }

  Status Run() {
    Status s;
    if (flags_.command == "scan" || flags_.command == "check") {
      s = Scan(/*print=*/flags_.command == "scan");
    } else if (flags_.command == "verify") {
      s = table_->VerifyChecksum();
      if (s.ok()) std::printf("The file is ok\n");
    } else if (flags_.command == "raw") {
      s = Raw();
    }
    if (s.ok() && flags_.show_properties) {
      std::printf("Table Properties:\n------------------------------\n  %s\n",
                  table_->GetTableProperties()->ToString("\n  ", ": ").c_str());
    }
    return s;
  }

 private:
  std::string Show(const Slice& s) const { return s.ToString(flags_.output_hex); }

  // Seeks to --from and reads up to --to / --read_num entries.
  Status Scan(bool print) {
    // Like RocksDB's, the bounds are shown in hex whatever --output_hex says.
    std::printf("from [%s] to [%s]\n", Slice(flags_.from).ToString(true).c_str(),
                Slice(flags_.to).ToString(true).c_str());
    ReadOptions ro;
    ro.verify_checksums = print ? flags_.verify_checksum : true;
    ro.fill_cache = false;
    std::unique_ptr<InternalIterator> it(table_->NewIterator(ro));
    if (flags_.has_from) {
      std::string target;
      AppendInternalKey(&target, flags_.from, kMaxSequenceNumber, kValueTypeForSeek);
      it->Seek(target);
    } else {
      it->SeekToFirst();
    }
    Status bad_key;
    for (uint64_t n = 0; it->Valid() && n < flags_.read_num; it->Next(), ++n) {
      ParsedInternalKey ikey;
      Status s = ParseInternalKey(it->key(), &ikey);
      if (!s.ok()) {
        if (bad_key.ok()) bad_key = Status::Corruption(path_ + ": bad internal key", s.ToString());
        if (print) std::printf("'%s' (bad internal key) => \n", it->key().ToString(true).c_str());
        continue;
      }
      if (flags_.has_to && cmp_->Compare(ikey.user_key, flags_.to) >= 0) break;
      if (!print) continue;
      std::printf("'");
      Print(Show(ikey.user_key));
      std::printf("' seq:%llu, type:%d => ", static_cast<unsigned long long>(ikey.sequence),
                  static_cast<int>(ikey.type));
      Print(Show(it->value()));
      std::printf("\n");
    }
    if (!it->status().ok()) return it->status();
    return bad_key;
  }

  // The raw dump: everything in the file, block by block.
  Status Raw() {
    std::string out_name = path_;
    if (out_name.size() > 4 && out_name.compare(out_name.size() - 4, 4, ".sst") == 0) {
      out_name.resize(out_name.size() - 4);
    }
    out_name += "_dump.txt";
    std::string d;
    Status s = RawText(&d);
    FileSystem* fs = fs_;
    std::unique_ptr<WritableFile> file;
    Status w = fs->NewWritableFile(out_name, FileOptions(), &file);
    if (w.ok()) w = file->Append(d);
    if (w.ok()) w = file->Close();
    if (!w.ok()) return w;
    std::printf("raw dump written to file %s\n", out_name.c_str());
    return s;  // a read error is reported after what could be dumped
  }

  void Entry(std::string* d, const Slice& key, const Slice& value, bool internal_key) {
    ParsedInternalKey ikey;
    if (internal_key && ParseInternalKey(key, &ikey).ok()) {
      *d += "  HEX    " + ikey.user_key.ToString(true) + " seq:" + std::to_string(ikey.sequence) +
            " type:" + std::to_string(static_cast<int>(ikey.type)) + ": " + value.ToString(true) +
            "\n";
      *d += "  ASCII  " + Ascii(ikey.user_key) + ": " + Ascii(value) + "\n  ------\n";
    } else {
      *d += "  HEX    " + key.ToString(true) + ": " + value.ToString(true) + "\n";
      *d += "  ASCII  " + Ascii(key) + ": " + Ascii(value) + "\n  ------\n";
    }
  }

  Status RawText(std::string* d) {
    const Footer& footer = table_->footer();
    *d += "Footer Details:\n--------------------------------------\n";
    *d += "  checksum type: " + std::to_string(static_cast<int>(footer.checksum_type())) + "\n";
    *d += "  metaindex handle: " + HandleString(footer.metaindex_handle()) + "\n";
    *d += "  index handle: " + HandleString(footer.index_handle()) + "\n";
    *d += "  format version: " + std::to_string(footer.format_version()) + "\n";
    if (footer.base_context_checksum() != 0) {  // format_version >= 6
      char buf[16];
      std::snprintf(buf, sizeof(buf), "0x%08x", footer.base_context_checksum());
      *d += "  base context checksum: " + std::string(buf) + "\n";
    }
    *d += "  file size: " + std::to_string(table_->file_size()) + "\n\n";

    *d += "Metaindex Details:\n--------------------------------------\n";
    std::string contents;
    Status s = table_->ReadBlockContents(footer.metaindex_handle(), &contents);
    if (!s.ok()) return s;
    {
      Block block{Slice(contents)};
      std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        Slice v = it->value();
        BlockHandle h;
        if (h.DecodeFrom(&v).ok()) {
          *d += "  " + it->key().ToString() + ": " + HandleString(h) + "\n";
        } else {
          *d += "  " + it->key().ToString() + ": bad handle " + it->value().ToString(true) + "\n";
        }
      }
      if (!it->status().ok()) return it->status();
    }
    *d += "\nTable Properties:\n--------------------------------------\n  ";
    *d += table_->GetTableProperties()->ToString("\n  ", ": ") + "\n";

    *d += "Index Details:\n--------------------------------------\n";
    std::vector<BlockHandle> data_blocks;
    {
      std::unique_ptr<InternalIterator> it(table_->NewIndexIterator());
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        Slice v = it->value();
        BlockHandle h;
        s = h.DecodeFrom(&v);
        if (!s.ok()) return s;
        data_blocks.push_back(h);
        *d += "  HEX    " + it->key().ToString(true) + ": " + HandleString(h) + "\n";
        *d += "  ASCII  " + Ascii(it->key()) + "\n  ------\n";
      }
      if (!it->status().ok()) return it->status();
    }

    ReadOptions ro;
    ro.fill_cache = false;
    std::unique_ptr<InternalIterator> del(table_->NewRangeTombstoneIterator(ro));
    if (del != nullptr) {
      *d += "\nRange deletions:\n--------------------------------------\n";
      for (del->SeekToFirst(); del->Valid(); del->Next()) {
        Entry(d, del->key(), del->value(), /*internal_key=*/true);
      }
      if (!del->status().ok()) return del->status();
    }

    for (size_t i = 0; i < data_blocks.size(); ++i) {
      *d += "\nData Block # " + std::to_string(i + 1) + " @ " + HandleString(data_blocks[i]) +
            "\n--------------------------------------\n";
      s = table_->ReadBlockContents(data_blocks[i], &contents);
      if (!s.ok()) return s;
      Block block{Slice(contents)};
      std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        Entry(d, it->key(), it->value(), /*internal_key=*/true);
      }
      if (!it->status().ok()) {
        return Status::Corruption(
            path_ + ": data block at offset " + std::to_string(data_blocks[i].offset()),
            it->status().ToString());
      }
    }
    return Status::OK();
  }

  const Flags& flags_;
  const std::string path_;
  FileSystem* const fs_;
  const Comparator* const user_cmp_;
  const Comparator* cmp_ = BytewiseComparator();
  std::unique_ptr<BlockBasedTable> table_;
};

// The files --file names: itself, or the *.sst files of a directory.
Status ListFiles(FileSystem* fs, const std::string& path, std::vector<std::string>* files) {
  bool is_dir = false;
  Status s = fs->IsDirectory(path, &is_dir);
  if (!s.ok() || !is_dir) {
    // A missing file is reported when it is opened.
    s.PermitUncheckedError();
    files->push_back(path);
    return Status::OK();
  }
  std::vector<std::string> children;
  s = fs->GetChildren(path, &children);
  if (!s.ok()) return s;
  std::sort(children.begin(), children.end());
  for (const std::string& c : children) {
    if (c.size() > 4 && c.compare(c.size() - 4, 4, ".sst") == 0) {
      files->push_back(path + (path.back() == '/' ? "" : "/") + c);
    }
  }
  return Status::OK();
}

int RunDump(int argc, char const* const* argv, const Options& options) {
  FileSystem* fs = (options.env != nullptr ? options.env : Env::Default())->GetFileSystem();
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) {
    Usage();
    return 2;
  }
  std::vector<std::string> files;
  Status s = ListFiles(fs, flags.file, &files);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  int rc = 0;
  for (const std::string& f : files) {
    std::printf("Process %s\n", f.c_str());
    std::fflush(stdout);
    Dumper dumper(flags, f, fs, options.comparator);
    s = dumper.Open();
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n%s is not a valid SST file\n", s.ToString().c_str(), f.c_str());
      rc = 1;
      continue;
    }
    std::printf("Sst file format: block-based\n");
    s = dumper.Run();
    std::fflush(stdout);
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      rc = 1;
    }
  }
  return rc;
}

}  // namespace

int SSTDumpTool::Run(int argc, char const* const* argv, Options options) {
  return RunDump(argc, argv, options);
}

}  // namespace strata
