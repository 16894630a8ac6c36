// Texts in RocksDB 7.8.3's shapes: VersionEdit::DebugString (what
// `manifest_dump --verbose` prints per MANIFEST record), a table's unique
// id in its internal and public forms, and TableProperties::ToString (what
// `dump_live_files` prints per table).
// Thread-safety: plain functions.
#pragma once

#include <string>

#include "db/version_edit.h"
#include "strata/table_properties.h"

namespace strata::ldb {

std::string VersionEditText(const VersionEdit& edit, bool hex);

// "{a,b}" internal form and the public 0x... form RocksDB prints for the
// 16-byte unique id (two little-endian 64-bit words) of a table.
std::string UniqueIdInternalText(const std::string& id);
std::string UniqueIdPublicText(const std::string& id);

// RocksDB's "name=value" lines for a table's properties; unique_id is the
// table's id as the MANIFEST records it ("" prints N/A).
std::string TablePropertiesText(const TableProperties& props, const std::string& unique_id);

}  // namespace strata::ldb
