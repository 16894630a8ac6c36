// rocksdb/utilities/lua/rocks_lua_custom_library.h: RocksLuaCustomLibrary,
// a library of C functions made visible to Lua scripts. As in RocksDB
// 7.8.3, the declarations exist only when LUA is defined (and the Lua
// headers are on the include path); otherwise the header is empty. Strata
// runs no Lua scripts itself (RocksDB's Lua compaction filter is not
// offered).
// Thread-safety: implementations must be thread-safe.
#pragma once

#ifdef LUA

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

namespace rocksdb {
namespace lua {

class RocksLuaCustomLibrary {
 public:
  virtual ~RocksLuaCustomLibrary() {}
  // The library's name, also the Lua table holding its functions.
  virtual const char* Name() const = 0;
  // The functions, ending with {nullptr, nullptr} (Lua's rule).
  virtual const struct luaL_Reg* Lib() const = 0;
  // Called with the library's table on top of L's stack, to add more.
  virtual void CustomSetup(lua_State* /*L*/) const {}
};

}  // namespace lua
}  // namespace rocksdb

#endif  // LUA
