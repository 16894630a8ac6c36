// The backup meta file format (utilities/backup/backup_meta.h).

#include "utilities/backup/backup_meta.h"

#include <string_view>

namespace strata::backup {
namespace {

constexpr std::string_view kSchemaVersionPrefix = "schema_version ";
constexpr std::string_view kFooterMarker = "// FOOTER";
constexpr std::string_view kAppMetadataField = "metadata";
constexpr std::string_view kCrc32cField = "crc32";
constexpr std::string_view kSizeField = "size";
constexpr std::string_view kNonIgnorablePrefix = "ni::";

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Strict unsigned decimal: digits only, no sign, no overflow.
bool ParseDecimal(std::string_view s, uint64_t* value) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *value = v;
  return true;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool DecodeHex(std::string_view hex, std::string* out) {
  if (hex.size() % 2 != 0) return false;
  out->clear();
  out->reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = HexValue(hex[i]);
    const int lo = HexValue(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

std::vector<std::string_view> SplitSpaces(std::string_view line) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= line.size()) {
    const size_t end = line.find(' ', start);
    if (end == std::string_view::npos) {
      parts.push_back(line.substr(start));
      break;
    }
    parts.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// Splits the text into lines (a last line without '\n' counts).
std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::string EncodeBackupMeta(const BackupMetaContents& meta, int schema_version, bool write_sizes) {
  std::string out;
  if (schema_version >= 2) out.append("schema_version 2.0\n");
  out.append(std::to_string(static_cast<unsigned long long>(meta.timestamp)));
  out.push_back('\n');
  out.append(std::to_string(meta.sequence_number));
  out.push_back('\n');
  if (!meta.app_metadata.empty()) {
    static const char kHex[] = "0123456789ABCDEF";
    out.append(kAppMetadataField);
    out.push_back(' ');
    for (unsigned char c : meta.app_metadata) {
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
    out.push_back('\n');
  }
  out.append(std::to_string(meta.files.size()));
  out.push_back('\n');
  for (const BackupMetaFileEntry& f : meta.files) {
    out.append(f.path);
    if (f.has_checksum) {
      out.append(" crc32 ");
      out.append(std::to_string(f.crc32c));
    }
    if (schema_version >= 2 && write_sizes) {
      out.append(" size ");
      out.append(std::to_string(f.size));
    }
    out.push_back('\n');
  }
  return out;
}

Status DecodeBackupMeta(const Slice& text, const std::string& name, BackupMetaContents* meta) {
  *meta = BackupMetaContents();
  const std::vector<std::string_view> lines =
      SplitLines(std::string_view(text.data(), text.size()));
  size_t i = 0;
  auto corrupt = [&](const std::string& what) {
    return Status::Corruption(name + " line " + std::to_string(i + 1) + ": " + what);
  };

  int schema = 1;
  if (i < lines.size() && StartsWith(lines[i], kSchemaVersionPrefix)) {
    const std::string_view ver = lines[i].substr(kSchemaVersionPrefix.size());
    if (ver == "2" || StartsWith(ver, "2.")) {
      schema = 2;
    } else {
      return Status::NotSupported(name + ": unsupported backup meta schema version " +
                                  std::string(ver));
    }
    ++i;
  }
  uint64_t value = 0;
  if (i >= lines.size()) return corrupt("missing timestamp");
  if (!ParseDecimal(lines[i], &value)) return corrupt("bad timestamp");
  meta->timestamp = static_cast<int64_t>(value);
  ++i;
  if (i >= lines.size()) return corrupt("missing sequence number");
  if (!ParseDecimal(lines[i], &meta->sequence_number)) return corrupt("bad sequence number");
  ++i;

  // Header fields until the number of files.
  uint64_t num_files = 0;
  for (;; ++i) {
    if (i >= lines.size()) return corrupt("missing number of files");
    const std::string_view line = lines[i];
    if (line.empty()) return corrupt("unexpected empty line");
    if (line[0] >= '0' && line[0] <= '9') {
      if (!ParseDecimal(line, &num_files)) return corrupt("bad number of files");
      ++i;
      break;
    }
    const size_t space = line.find(' ');
    if (space == std::string_view::npos) return corrupt("expected number of files or a field");
    const std::string_view field = line.substr(0, space);
    const std::string_view data = line.substr(space + 1);
    if (field == kAppMetadataField) {
      if (!DecodeHex(data, &meta->app_metadata)) return corrupt("bad hex in app metadata");
    } else if (schema < 2) {
      return corrupt("expected number of files or \"metadata\"");
    } else if (StartsWith(field, kNonIgnorablePrefix)) {
      return Status::NotSupported(name + ": unknown non-ignorable field " + std::string(field));
    }  // other schema-2 fields: ignorable
  }

  // File lines.
  for (; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (schema >= 2 && line == kFooterMarker) {
      ++i;
      for (; i < lines.size(); ++i) {
        const size_t space = lines[i].find(' ');
        if (lines[i].empty() || space == std::string_view::npos) {
          return corrupt("expected a footer field");
        }
        if (StartsWith(lines[i], kNonIgnorablePrefix)) {
          return Status::NotSupported(name + ": unknown non-ignorable footer field " +
                                      std::string(lines[i].substr(0, space)));
        }
      }
      break;
    }
    const std::vector<std::string_view> parts = SplitSpaces(line);
    if (parts[0].empty()) return corrupt("empty file name");
    BackupMetaFileEntry entry;
    entry.path = std::string(parts[0]);
    if (schema < 2) {
      if (parts.size() < 3) return corrupt("checksum missing for " + entry.path);
      if (parts[1] != kCrc32cField) return corrupt("unknown checksum type for " + entry.path);
      if (parts.size() > 3) return corrupt("extra data for " + entry.path);
    } else if (parts.size() % 2 != 1) {
      return corrupt("bad number of fields for " + entry.path);
    }
    for (size_t k = 1; k + 1 < parts.size(); k += 2) {
      const std::string_view field = parts[k];
      const std::string_view data = parts[k + 1];
      if (field == kCrc32cField) {
        if (!ParseDecimal(data, &value) || value > UINT32_MAX) {
          return corrupt("bad checksum for " + entry.path);
        }
        entry.has_checksum = true;
        entry.crc32c = static_cast<uint32_t>(value);
      } else if (field == kSizeField) {
        if (!ParseDecimal(data, &entry.size)) return corrupt("bad size for " + entry.path);
        entry.has_size = true;
      } else if (StartsWith(field, kNonIgnorablePrefix)) {
        return Status::NotSupported(name + ": unknown non-ignorable file field " +
                                    std::string(field));
      }  // "temp" and unknown ignorable fields
    }
    // Paths must stay inside the backup directory.
    if (entry.path[0] == '/' || entry.path.find("..") != std::string::npos) {
      return corrupt("file path outside the backup directory: " + entry.path);
    }
    meta->files.push_back(std::move(entry));
  }
  if (meta->files.size() != num_files) {
    return Status::Corruption(name + ": " + std::to_string(num_files) + " files announced, " +
                              std::to_string(meta->files.size()) + " listed");
  }
  return Status::OK();
}

std::string DbFileNameOfBackupFile(const std::string& path) {
  const size_t slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (path.rfind("shared_checksum/", 0) == 0) {
    const size_t underscore = base.find('_');
    const size_t dot = base.rfind('.');
    if (underscore != std::string::npos && dot != std::string::npos && underscore < dot) {
      base.erase(underscore, dot - underscore);
    }
  }
  return base;
}

}  // namespace strata::backup
