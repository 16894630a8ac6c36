// rocksdb/functor_wrapper.h: FunctorWrapper, a function bound to the
// arguments it will be called with, called by invoke() (any number of
// times, each time with the stored arguments as lvalues).
// Thread-safety: not thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <tuple>
#include <utility>

#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {

namespace detail {
// An index list 0..N-1 (RocksDB's own spelling of std::index_sequence).
template <std::size_t...>
struct IndexSequence {};

template <std::size_t N, std::size_t... Next>
struct IndexSequenceHelper : public IndexSequenceHelper<N - 1U, N - 1U, Next...> {};

template <std::size_t... Next>
struct IndexSequenceHelper<0U, Next...> {
  using type = IndexSequence<Next...>;
};

template <std::size_t N>
using make_index_sequence = typename IndexSequenceHelper<N>::type;

// Calls f with the elements of t (copies of both are taken).
template <typename Function, typename Tuple, size_t... I>
void call(Function f, Tuple t, IndexSequence<I...>) {
  f(std::get<I>(t)...);
}

template <typename Function, typename Tuple>
void call(Function f, Tuple t) {
  call(f, t, make_index_sequence<std::tuple_size<Tuple>::value>{});
}
}  // namespace detail

template <typename... Args>
class FunctorWrapper {
 public:
  explicit FunctorWrapper(std::function<void(Args...)> functor, Args&&... args)
      : functor_(std::move(functor)), args_(std::forward<Args>(args)...) {}

  void invoke() { detail::call(functor_, args_); }

 private:
  std::function<void(Args...)> functor_;
  std::tuple<Args...> args_;
};

}  // namespace rocksdb
