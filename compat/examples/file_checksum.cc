// file_checksum: full-file checksums through RocksDB's C++ interface --
// DBOptions::file_checksum_gen_factory with the crc32c factory, the
// checksums of flushed, compacted and ingested tables (the list, the live
// files' metadata, the listener), VerifyFileChecksums before and after a
// flipped byte, and the answers without a factory. The table files' bytes
// differ between the engines, so checksum values are compared with each
// other, never printed. Built against RocksDB and against Strata; the
// outputs are compared byte for byte.
// Usage: file_checksum DB_DIR
#include "rocksdb/file_checksum.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

// CRC-32C (Castagnoli), bit by bit: the reference for the checksums.
static std::string Crc32cOfFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  uint32_t crc = 0xffffffffu;
  for (unsigned char c : bytes) {
    crc ^= c;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
  }
  crc ^= 0xffffffffu;
  std::string out;
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(crc >> shift));
  return out;
}

class Created : public rdb::EventListener {
 public:
  void OnTableFileCreated(const rdb::TableFileCreationInfo& info) override {
    std::lock_guard<std::mutex> l(mu);
    checksums[info.file_path] = info.file_checksum;
    names[info.file_path] = info.file_checksum_func_name;
  }
  std::mutex mu;
  std::map<std::string, std::string> checksums;
  std::map<std::string, std::string> names;
};

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  auto listener = std::make_shared<Created>();
  rdb::Options options;
  options.create_if_missing = true;
  options.file_checksum_gen_factory = rdb::GetFileChecksumGenCrc32cFactory();
  options.listeners.push_back(listener);
  std::printf("factory %s\n", options.file_checksum_gen_factory->Name());
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  for (int round = 0; round < 2; ++round) {
    for (int i = round; i < 2000; i += 2) {
      Check(db->Put(rdb::WriteOptions(), "key" + std::to_string(i), std::string(50, 'a' + round)),
            "put");
    }
    Check(db->Flush(rdb::FlushOptions()), "flush");
  }
  Check(db->CompactRange(rdb::CompactRangeOptions(), nullptr, nullptr), "compact");
  Check(db->Put(rdb::WriteOptions(), "last", "x"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  const std::string sst = path + "_external.sst";
  {
    rdb::SstFileWriter writer(rdb::EnvOptions(), options);
    Check(writer.Open(sst), "sst open");
    for (int i = 0; i < 100; ++i)
      Check(writer.Put("zz" + std::to_string(1000 + i), "e"), "sst put");
    Check(writer.Finish(), "sst finish");
  }
  Check(db->IngestExternalFile({sst}, rdb::IngestExternalFileOptions()), "ingest");

  std::unique_ptr<rdb::FileChecksumList> list(rdb::NewFileChecksumList());
  Check(db->GetLiveFilesChecksumInfo(list.get()), "checksum info");
  std::printf("live files with checksums: %zu\n", list->size());
  std::vector<rdb::LiveFileMetaData> meta;
  db->GetLiveFilesMetaData(&meta);
  std::sort(meta.begin(), meta.end(),
            [](const rdb::LiveFileMetaData& a, const rdb::LiveFileMetaData& b) {
              return a.smallestkey < b.smallestkey;
            });
  for (const rdb::LiveFileMetaData& m : meta) {
    std::string checksum, name;
    Check(list->SearchOneFileChecksum(m.file_number, &checksum, &name), "search");
    const std::string file = m.directory + "/" + m.relative_filename;
    std::string told = "not a flush or compaction output";
    {
      std::lock_guard<std::mutex> l(listener->mu);
      auto it = listener->checksums.find(file);
      if (it != listener->checksums.end()) {
        told = it->second == checksum && listener->names[file] == name ? "listener agrees"
                                                                       : "listener differs";
      }
    }
    std::printf(
        "L%d %s..%s: %s, %zu bytes, %s, %s, %s\n", m.level, m.smallestkey.c_str(),
        m.largestkey.c_str(), name.c_str(), checksum.size(),
        checksum == m.file_checksum && name == m.file_checksum_func_name ? "metadata agrees"
                                                                         : "metadata differs",
        checksum == Crc32cOfFile(file) ? "crc32c of the bytes" : "not the crc32c", told.c_str());
  }
  std::string c, n;
  std::printf("search 999999: %s\n",
              list->SearchOneFileChecksum(999999, &c, &n).ToString().c_str());
  std::printf("verify: %s\n", db->VerifyFileChecksums(rdb::ReadOptions()).ToString().c_str());
  std::printf("null list: %s\n", db->GetLiveFilesChecksumInfo(nullptr).ToString().c_str());

  // One byte flipped in the middle of the largest table.
  const rdb::LiveFileMetaData* biggest = &meta[0];
  for (const rdb::LiveFileMetaData& m : meta) {
    if (m.size > biggest->size) biggest = &m;
  }
  const std::string victim = biggest->directory + "/" + biggest->relative_filename;
  {
    std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(biggest->size / 2));
    char ch = 0;
    f.get(ch);
    f.seekp(static_cast<std::streamoff>(biggest->size / 2));
    f.put(static_cast<char>(ch ^ 0x10));
  }
  const rdb::Status bad = db->VerifyFileChecksums(rdb::ReadOptions());
  const std::string text = bad.ToString();
  std::printf(
      "after a flipped byte: corruption %s, names the file %s, \"file checksum mismatch\" %s\n",
      bad.IsCorruption() ? "yes" : "no", text.find(victim) != std::string::npos ? "yes" : "no",
      text.find("file checksum mismatch, expecting ") != std::string::npos ? "yes" : "no");
  delete db;
  db = nullptr;

  // Without a factory: the recorded checksums stay, nothing to verify with.
  rdb::Options plain;
  Check(rdb::DB::Open(plain, path, &db), "reopen");
  list->reset();
  Check(db->GetLiveFilesChecksumInfo(list.get()), "checksum info");
  std::vector<uint64_t> numbers;
  std::vector<std::string> checksums, names;
  Check(list->GetAllFileChecksums(&numbers, &checksums, &names), "all");
  std::printf("without a factory: %zu files,", numbers.size());
  for (const std::string& name : names) std::printf(" %s", name.c_str());
  std::printf("\nverify: %s\n", db->VerifyFileChecksums(rdb::ReadOptions()).ToString().c_str());
  Check(db->Put(rdb::WriteOptions(), "new", "y"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  meta.clear();
  db->GetLiveFilesMetaData(&meta);
  for (const rdb::LiveFileMetaData& m : meta) {
    if (m.smallestkey == "new") {
      std::printf("new file: \"%s\" \"%s\"\n", m.file_checksum.c_str(),
                  m.file_checksum_func_name.c_str());
    }
  }
  delete db;
  return 0;
}
