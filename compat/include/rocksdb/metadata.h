// rocksdb/metadata.h: descriptions of live files and levels
// (GetLiveFilesMetaData, GetColumnFamilyMetaData). Strata's structs carry
// RocksDB's field names and are the same types here.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "strata/metadata.h"

namespace rocksdb {
using FileType = ::strata::FileType;
using FileStorageInfo = ::strata::FileStorageInfo;
using LiveFileStorageInfo = ::strata::LiveFileStorageInfo;
using SstFileMetaData = ::strata::SstFileMetaData;
using LiveFileMetaData = ::strata::LiveFileMetaData;
using LevelMetaData = ::strata::LevelMetaData;
using ColumnFamilyMetaData = ::strata::ColumnFamilyMetaData;
using BlobMetaData = ::strata::BlobMetaData;
using Temperature = ::strata::Temperature;
using ExportImportFilesMetaData = ::strata::ExportImportFilesMetaData;
}  // namespace rocksdb
