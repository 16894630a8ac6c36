// rocksdb/rocksdb_namespace.h: the namespace of the RocksDB 7.8.3 interface
// that libstrata-rocksdb provides over Strata. Programs written against
// RocksDB spell it ROCKSDB_NAMESPACE; here it is always `rocksdb`.
#pragma once

#ifndef ROCKSDB_NAMESPACE
#define ROCKSDB_NAMESPACE rocksdb
#endif
