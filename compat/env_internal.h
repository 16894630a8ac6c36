// compat/env_internal.h: the bridges between RocksDB's Env / FileSystem /
// SystemClock (compat/include/rocksdb/) and Strata's (strata/env.h).
//
//  Direction                         used for
//  rocksdb::FileSystem over strata   FileSystem::Default(), the files of
//    (WrapStrataFileSystem)          Env::Default() and NewMemEnv
//  strata::FileSystem over rocksdb   the engine's files when a database is
//    (NewEngineFileSystem)           opened with a user Env or FileSystem
//  rocksdb::FileSystem over an Env's the FileSystem of an Env subclass made
//    file methods (NewLegacyFileSystem) with Env() (RocksDB's legacy wrapper)
//  Env-level files over FS files     an Env's file methods over its
//    (ToEnvFile)                     FileSystem (Default, composite Envs)
//  and the same for clocks.
//
// A wrapper around a wrapper is unwrapped (UnwrapStrata*), so
// Env::Default() reaches the engine as strata::Env::Default() and a user
// FileSystemWrapper over FileSystem::Default() costs one adapter, not two.
// Thread-safety: the functions are thread-safe; the objects they return are
// as thread-safe as what they wrap.
#pragma once

#include <memory>

#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/system_clock.h"
#include "strata/env.h"

namespace rocksdb {
namespace compat {

::strata::FileOptions ToStrataFileOptions(const EnvOptions& in);
FileOptions FromStrataFileOptions(const ::strata::FileOptions& in);

std::shared_ptr<FileSystem> WrapStrataFileSystem(std::shared_ptr<::strata::FileSystem> fs);
// The strata::FileSystem fs wraps (WrapStrataFileSystem), else null.
std::shared_ptr<::strata::FileSystem> UnwrapStrataFileSystem(const FileSystem* fs);
// fs as a strata::FileSystem: unwrapped if it wraps one, else an adapter
// that calls fs (with default IOOptions and no IODebugContext).
std::shared_ptr<::strata::FileSystem> NewEngineFileSystem(const std::shared_ptr<FileSystem>& fs);
// A FileSystem calling env's file methods; env must outlive it.
std::shared_ptr<FileSystem> NewLegacyFileSystem(Env* env);
// Strata's info log written through fs->NewWritableFile.
Status NewLoggerThrough(FileSystem* fs, const std::string& fname, std::shared_ptr<Logger>* result);

std::unique_ptr<SequentialFile> ToEnvFile(std::unique_ptr<FSSequentialFile> f);
std::unique_ptr<RandomAccessFile> ToEnvFile(std::unique_ptr<FSRandomAccessFile> f);
std::unique_ptr<WritableFile> ToEnvFile(std::unique_ptr<FSWritableFile> f);
std::unique_ptr<RandomRWFile> ToEnvFile(std::unique_ptr<FSRandomRWFile> f);
std::unique_ptr<Directory> ToEnvFile(std::unique_ptr<FSDirectory> f);

std::shared_ptr<SystemClock> WrapStrataClock(std::shared_ptr<::strata::SystemClock> clock);
std::shared_ptr<::strata::SystemClock> UnwrapStrataClock(const SystemClock* clock);
std::shared_ptr<::strata::SystemClock> NewEngineClock(const std::shared_ptr<SystemClock>& clock);
// A SystemClock calling env's clock methods; env must outlive it.
std::shared_ptr<SystemClock> NewLegacyClock(Env* env);

// An Env whose files are fs's, and whose clock, threads and everything else
// are base's (RocksDB's CompositeEnvWrapper). base must outlive it.
Env* NewCompositeEnvOver(Env* base, const std::shared_ptr<FileSystem>& fs);

// "YYYY/MM/DD-HH:MM:SS " (local time), RocksDB's format.
std::string FormatTime(uint64_t seconds);

// RocksDB's form of a wrapper's options: `own`, then "target=<target's
// options>" (nothing more for a null target or a shallow depth).
std::string SerializeWrapper(const ConfigOptions& config_options, const std::string& header,
                             const std::string& own, const Customizable* target);
// $TEST_TMPDIR, or /tmp/rocksdbtest-<euid>.
std::string TestDirectory();

}  // namespace compat
}  // namespace rocksdb
