// rocksdb/utilities/lua/rocks_lua_util.h: LuaStateWrapper, a Lua state
// that has run a script (with the standard libraries and the given custom
// libraries opened). As RocksDB 7.8.3's, this header includes the Lua
// headers unconditionally (so it needs them on the include path) and
// declares the wrapper only when LUA is defined.
// Thread-safety: a Lua state is used by one thread at a time.
#pragma once

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

#ifdef LUA
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/utilities/lua/rocks_lua_custom_library.h"

namespace rocksdb {
namespace lua {

class LuaStateWrapper {
 public:
  explicit LuaStateWrapper(const std::string& lua_script) {
    lua_state_ = luaL_newstate();
    Init(lua_script, {});
  }
  LuaStateWrapper(const std::string& lua_script,
                  const std::vector<std::shared_ptr<RocksLuaCustomLibrary>>& libraries) {
    lua_state_ = luaL_newstate();
    Init(lua_script, libraries);
  }
  lua_State* GetLuaState() const { return lua_state_; }
  ~LuaStateWrapper() { lua_close(lua_state_); }

 private:
  void Init(const std::string& lua_script,
            const std::vector<std::shared_ptr<RocksLuaCustomLibrary>>& libraries) {
    if (lua_state_ == nullptr) return;
    luaL_openlibs(lua_state_);
    for (const auto& library : libraries) {
      luaL_openlib(lua_state_, library->Name(), library->Lib(), 0);
      library->CustomSetup(lua_state_);
    }
    luaL_dostring(lua_state_, lua_script.c_str());
  }

  lua_State* lua_state_;
};

}  // namespace lua
}  // namespace rocksdb

#endif  // LUA
